// Runs the auth service as its own process: `tsx stack/auth/main.ts` with the options of
// startAuthServer() as JSON in env AUTH_OPTIONS. Logs go to stdout; prints `auth ready <url>`
// once listening and shuts down cleanly on SIGTERM/SIGINT.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAuthServer, type AuthServerOptions } from './server.ts';
import { unsupportedAuthSettingsIn } from './unsupported-config.ts';

const CONFIG_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../supabase/config.toml',
);

async function main(): Promise<void> {
  const raw = process.env.AUTH_OPTIONS;
  if (!raw) throw new Error('AUTH_OPTIONS (JSON) is not set');
  const opts = JSON.parse(raw) as AuthServerOptions;
  const server = await startAuthServer({
    ...opts,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  for (const warning of unsupportedAuthSettingsIn(CONFIG_FILE))
    process.stdout.write(`auth warning: ${warning}\n`);
  process.stdout.write(`auth ready ${server.url}\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`auth received ${signal}, shutting down\n`);
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`auth shutdown failed: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(
    `auth failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
