// Starts ONE throwaway local stack for the integration project: a free port base, a temporary
// data dir (a running `npm start` stack is not disturbed), fresh migrations and seed. Its env is
// provided to the tests (`inject('stack')`) and exported as process.env for helper processes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  findFreePortBase,
  startStack,
  TEST_PASSWORD_HASH_COST,
  type RunningStack,
} from '../../stack/stack.ts';
import '../support/stack.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = mkdtempSync(path.join(tmpdir(), 'mar-stack-it-'));
  const lines: string[] = [];
  let stack: RunningStack;
  try {
    stack = await startStack({
      portBase: await findFreePortBase(),
      dataDir: path.join(root, 'data'),
      log: (line) => lines.push(line),
      // The link checker and the feed sync may reach the tests' own servers on loopback (never
      // set on hosted).
      // A feed read stops after 500 ms of CPU (hosted's default is 1 s) so the feed tests'
      // big files always span several chained invocations, however fast the machine is.
      functionEnv: {
        LINK_HEALTH_ALLOW_LOOPBACK: '1',
        FEED_SYNC_ALLOW_LOOPBACK: '1',
        FEED_SYNC_CPU_BUDGET_MS: '500',
      },
      passwordHashCost: TEST_PASSWORD_HASH_COST,
      onPartExit: (name, report) =>
        process.stderr.write(`\n[integration stack] ${name} died: ${report}\n`),
    });
  } catch (err) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(
      `the integration stack did not start: ${(err as Error).message}\n${lines.join('\n')}`,
    );
  }
  project.provide('stack', stack.env);
  for (const [key, value] of Object.entries(stack.env)) process.env[key] = String(value);
  process.env.STACK_ENV_JSON = JSON.stringify(stack.env);
  process.env.STACK_LOGS_DIR = stack.logsDir;

  return async () => {
    await stack.stop();
    if (process.env.KEEP_STACK_DATA)
      process.stdout.write(`integration stack data kept in ${root}\n`);
    else rmSync(root, { recursive: true, force: true });
  };
}
