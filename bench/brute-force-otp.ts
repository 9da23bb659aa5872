// Brute force against the demo admin's 6-digit e-mail code (decision 0030), as an outsider would:
// POST /auth/v1/otp for admin@mar-online-store.test, then 10,000 wrong codes at
// POST /auth/v1/verify through the gateway, each with a different made-up X-Forwarded-For.
// Not a test: `npm run bench:brute-force` prints how many tries were accepted (must be 0), how
// many were refused and why, and at which try the code became void, then appends the figures to
// bench/RESULTS.md (`--no-write` prints only). Loopback only, on a throwaway stack with the
// config's own limits; it stops after 10,000 tries.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { findFreePortBase, startStack } from '../stack/stack.ts';
import { authMailSubject, codeFromLink, extractLinks, listMail } from '../tests/support/mail.ts';

const TRIES = 10_000;
const ADMIN = 'admin@mar-online-store.test';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const write = !process.argv.includes('--no-write');

/** The code of the newest magic link mailed to the admin (the store's mails carry links only). */
async function mailedCode(mailUrl: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const mails = (await listMail(mailUrl))
      .filter((m) => m.subject === authMailSubject('magiclink'))
      .filter((m) => m.to.some((t) => t.address === ADMIN))
      .sort((a, b) => Date.parse(b.date) - Date.parse(a.date));
    const link = mails[0] && extractLinks(mails[0]).find((l) => l.includes('type=magiclink'));
    if (link) return codeFromLink(link, ADMIN);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no magic link mail for the admin');
}

const root = mkdtempSync(path.join(tmpdir(), 'mar-brute-force-'));
const stack = await startStack({
  portBase: await findFreePortBase(),
  dataDir: path.join(root, 'data'),
  log: () => undefined,
});
const db = new pg.Client({ connectionString: stack.env.DB_URL });
try {
  await db.connect();
  const env = stack.env;
  const auth = (route: string, body: unknown, forwardedFor: string) =>
    fetch(`${env.API_URL}/auth/v1${route}`, {
      method: 'POST',
      headers: {
        apikey: env.ANON_KEY,
        'Content-Type': 'application/json',
        'X-Forwarded-For': forwardedFor,
      },
      body: JSON.stringify(body),
    });
  const asked = await auth('/otp', { email: ADMIN }, '192.0.2.1');
  if (asked.status !== 200) throw new Error(`POST /otp answered ${asked.status}`);
  const code = await mailedCode(env.MAILPIT_URL);
  const pending = async () =>
    (
      await db.query<{ pending: boolean }>(
        `select recovery_token <> '' as pending from auth.users where email = $1`,
        [ADMIN],
      )
    ).rows[0]?.pending ?? false;

  let accepted = 0;
  let voidAfterTry: number | null = null;
  const refused = new Map<string, number>();
  const started = performance.now();
  for (let i = 1; i <= TRIES; i++) {
    let guess = String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0');
    if (guess === code) guess = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const ip = `198.18.${(i >> 8) & 255}.${i & 255}`;
    const res = await auth('/verify', { email: ADMIN, token: guess, type: 'magiclink' }, ip);
    // Without X-Supabase-Api-Version the error names its reason in error_code.
    const body = (await res.json().catch(() => ({}))) as { error_code?: string };
    if (res.status === 200) accepted++;
    else {
      const reason = `${res.status} ${body.error_code ?? ''}`.trim();
      refused.set(reason, (refused.get(reason) ?? 0) + 1);
    }
    if (voidAfterTry === null && !(await pending())) voidAfterTry = i;
  }
  const seconds = (performance.now() - started) / 1000;
  // The real code, tried last: refused once the code is void.
  const real = await auth('/verify', { email: ADMIN, token: code, type: 'magiclink' }, '192.0.2.2');
  const realBody = (await real.json().catch(() => ({}))) as { error_code?: string };
  const stillPending = await pending();

  const rows: Array<[string, string]> = [
    ['wrong codes sent (rotating X-Forwarded-For)', `${TRIES} in ${seconds.toFixed(1)} s`],
    ['accepted', String(accepted)],
    ...[...refused.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([reason, n]): [string, string] => [`refused: ${reason}`, String(n)]),
    ['code void after try', voidAfterTry === null ? 'never' : String(voidAfterTry)],
    ['the real code afterwards', `${real.status} ${realBody.error_code ?? ''}`.trim()],
    ['a code still stored for the admin', stillPending ? 'yes' : 'no (void)'],
  ];
  const table = [
    '| brute force of the admin e-mail code | result |',
    '| --- | --- |',
    ...rows.map(([k, v]) => `| ${k} | ${v} |`),
  ].join('\n');
  console.log(table);
  if (write) {
    appendFileSync(
      path.join(ROOT, 'bench', 'RESULTS.md'),
      `\n## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} (brute-force-otp)\n\n${table}\n`,
    );
  }
  if (accepted > 0) process.exitCode = 1;
} finally {
  await db.end().catch(() => undefined);
  await stack.stop();
  rmSync(root, { recursive: true, force: true });
}
