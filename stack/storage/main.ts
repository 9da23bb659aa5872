// Runs the Storage service as its own process: `tsx stack/storage/main.ts` with the options of
// startStorageServer() as JSON in env STORAGE_OPTIONS. Prints `storage ready <url>` once
// listening and shuts down cleanly on SIGTERM/SIGINT.
import { startStorageServer, type StorageServerOptions } from './server.ts';

async function main(): Promise<void> {
  const raw = process.env.STORAGE_OPTIONS;
  if (!raw) throw new Error('STORAGE_OPTIONS (JSON) is not set');
  const opts = JSON.parse(raw) as StorageServerOptions;
  const server = await startStorageServer({
    ...opts,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  process.stdout.write(`storage ready ${server.url}\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`storage received ${signal}, shutting down\n`);
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`storage shutdown failed: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(
    `storage failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
