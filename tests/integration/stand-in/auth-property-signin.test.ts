// RELIABILITY.md §6, row 13 (auth part): password sign-in (POST /token?grant_type=password) with
// 1,000 generated cases per run. Wrong passwords, look-alike e-mails (other scripts, full width,
// zero width, combining marks, odd spaces) and odd unicode never sign in and never answer 500; the
// right password with an address that trims and lower-cases to the account's signs in. Runs on a
// second auth service with wide per-IP limits and a cheap bcrypt cost, in concurrent batches.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stackEnv } from '../../support/stack.ts';
import { NASTY, nastyText, unicodeText } from '../property-support';
import { post, startOwnServer, type OwnAuthServer } from './auth-own-server.ts';
import { uniqueEmail } from '../../support/names.ts';

const BATCH = 20;
const RUNS = 50; // × BATCH = 1,000 cases
const RIGHT = 'Right-pässword-1';

let server: OwnAuthServer;
let account: string;
beforeAll(async () => {
  // bcrypt cost 4 for the account and the unknown-address comparison: the same code path, fast.
  server = await startOwnServer({ passwordHashCost: 4 });
  account = uniqueEmail('prop-signin');
  const key = stackEnv().SERVICE_ROLE_KEY;
  const created = await post(
    server,
    '/admin/users',
    { email: account, password: RIGHT, email_confirm: true },
    { Authorization: `Bearer ${key}`, apikey: key },
  );
  expect(created.status).toBe(200);
}, 60_000);
afterAll(async () => {
  await server?.close();
});

/** Variants of the account's address that a person or a bot might type or forge. */
function lookAlike(email: string): fc.Arbitrary<string> {
  const at = email.indexOf('@');
  const [local, domain] = [email.slice(0, at), email.slice(at + 1)];
  const insert = fc.constantFrom(
    '\u200b',
    '\u200d',
    '\ufeff',
    '\u00ad',
    '\u0301',
    '\u0000',
    '\u202e',
    '\u2028',
    '.',
    '+tag',
    ' ',
  );
  return fc.oneof(
    fc.constant(email.toUpperCase()),
    fc.constantFrom(' ', '\u00a0', '\u3000', '\t', '\n').map((s) => `${s}${email}${s}`),
    fc.constant(email.replace(/a/g, '\u0430').replace(/o/g, '\u043e').replace(/e/g, '\u0435')),
    fc.constant(
      [...email]
        .map((c) => (c >= '!' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c))
        .join(''),
    ),
    fc
      .tuple(fc.nat({ max: email.length }), insert)
      .map(([i, s]) => email.slice(0, i) + s + email.slice(i)),
    fc.constant(`${local}@${domain}.`),
    fc.constant(`${local}@${domain.toUpperCase()}`),
    fc.constant(`"${local}"@${domain}`),
    fc.constant(email.replace('@', '\uff20')),
    fc.constant(email.replace(/k/g, '\u212a')),
  );
}

describe('password sign-in, 1,000 generated cases', () => {
  it('signs in exactly when the trimmed, lower-cased address and the password are right', async () => {
    const emailArb = fc.oneof(
      { weight: 4, arbitrary: lookAlike(account) },
      { weight: 1, arbitrary: fc.constant(account) },
      { weight: 2, arbitrary: nastyText },
      { weight: 1, arbitrary: unicodeText.map((u) => `${u}@example.test`) },
      { weight: 1, arbitrary: fc.emailAddress() },
    );
    const passwordArb = fc.oneof(
      { weight: 2, arbitrary: fc.constant(RIGHT) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          RIGHT.toUpperCase(),
          `${RIGHT} `,
          RIGHT.normalize('NFD'),
          '',
          ...NASTY,
        ),
      },
      { weight: 2, arbitrary: nastyText },
      { weight: 1, arbitrary: unicodeText },
    );
    const outcomes: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(emailArb, passwordArb), { minLength: BATCH, maxLength: BATCH }),
        async (batch) => {
          const answers = await Promise.all(
            batch.map(([email, password]) =>
              post(server, '/token?grant_type=password', { email, password }),
            ),
          );
          batch.forEach(([email, password], i) => {
            const { status, body } = answers[i]!;
            const expected = email.trim().toLowerCase() === account && password === RIGHT;
            const label = JSON.stringify({ email, password, status, body });
            outcomes[`${status} ${String(body.code ?? '')}`] =
              (outcomes[`${status} ${String(body.code ?? '')}`] ?? 0) + 1;
            expect(status, label).not.toBeGreaterThanOrEqual(500);
            if (expected) {
              expect(status, label).toBe(200);
              expect(body.user && (body.user as { email: string }).email, label).toBe(account);
            } else {
              expect(status, label).toBe(400);
              expect(['invalid_credentials', 'validation_failed'], label).toContain(body.code);
            }
          });
        },
      ),
      { numRuns: RUNS, endOnFailure: true },
    );
    // The run covered both outcomes.
    expect(outcomes['200 ']).toBeGreaterThan(0);
    expect(outcomes['400 invalid_credentials']).toBeGreaterThan(0);
  }, 600_000);
});
