// The contact function's validation and the contact_messages table's checks agree: the same
// generated inputs go to the function's schema (supabase/functions/contact/schema.ts) and, as
// the trimmed values the function would store, into the table as the service role; a field is
// accepted by both or refused by both (1,000 generated messages per run). A mismatch was a 500
// with nothing stored (accepted by the function, refused by the table) or a stored message that
// the function should have refused (text-direction overrides, line separators in the name).
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stackEnv } from '../support/stack.ts';
import { postContact, rowsByEmail, visitorMessage } from './contact-support.ts';
import { randomLoopbackIp } from '../support/loopback.ts';

// The function imports zod the Deno way; here it is the same version from node_modules.
vi.mock('npm:zod@4.6.7', async () => await import('zod'));
const { contactSchema } = await import('../../supabase/functions/contact/schema.ts');

const env = stackEnv();
const FIELDS = ['name', 'email', 'message'] as const;
type Field = (typeof FIELDS)[number];
const GOOD: Record<Field, string> = {
  name: 'Ann Example',
  email: 'ann@example.test',
  message: 'Hello',
};
const BATCH = 50;
const RUNS = 20; // × BATCH = 1,000 generated messages

/** Characters at the edges of the rules: controls, separators, format, spaces, astral, marks. */
const EDGE_CHARS = [
  ...'aZ09 .@+-_\'"',
  '\u0000',
  '\u0001',
  '\t',
  '\n',
  '\u000b',
  '\u000c',
  '\r',
  '\u001b',
  '\u007f',
  '\u0080',
  '\u0085',
  '\u009b',
  '\u009f',
  '\u00a0',
  '\u00ad',
  '\u061c',
  '\u1680',
  '\u180e',
  '\u2000',
  '\u200a',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u200e',
  '\u200f',
  '\u2028',
  '\u2029',
  '\u202a',
  '\u202e',
  '\u202f',
  '\u205f',
  '\u2066',
  '\u2069',
  '\u3000',
  '\ufeff',
  '\ufffd',
  'é',
  'e\u0301',
  'Ж',
  '日',
  '🏈',
  '👨‍👩‍👧',
  '\ud800', // lone high surrogate
  '\udc00', // lone low surrogate
];

const edgeText = (maxLength: number) =>
  fc.array(fc.constantFrom(...EDGE_CHARS), { maxLength }).map((parts) => parts.join(''));

/** Mostly valid-looking values with one or two edge characters, plus lengths at the limits. */
function fieldArb(field: Field): fc.Arbitrary<string> {
  const limit = { name: 100, email: 254, message: 5000 }[field];
  const plain = field === 'email' ? fc.emailAddress() : fc.string({ minLength: 1, maxLength: 40 });
  const atLimit = fc
    .tuple(fc.constantFrom('x', 'é', '🏈', 'e\u0301'), fc.integer({ min: -2, max: 2 }))
    .map(([c, d]) => {
      const n = Math.max(1, Math.floor((limit + d) / [...c].length));
      return field === 'email'
        ? `${'a'.repeat(Math.max(1, limit + d - 13))}@example.test`
        : c.repeat(n);
    });
  const spliced = fc.tuple(plain, edgeText(3), fc.nat(), edgeText(2)).map(([s, mid, at, edge]) => {
    const i = at % (s.length + 1);
    return `${edge}${s.slice(0, i)}${mid}${s.slice(i)}${edge}`;
  });
  return fc.oneof(plain, spliced, edgeText(12), atLimit);
}

/** What the function stores for an accepted value (zod's trim is String.prototype.trim). */
const stored = (value: string) => value.trim();
const hasLoneSurrogate = (s: string) =>
  /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

let db: pg.Client;

beforeAll(async () => {
  db = new pg.Client({ connectionString: env.DB_URL });
  db.on('error', () => undefined);
  await db.connect();
});

afterAll(async () => {
  await db?.end();
});

/**
 * Whether the table takes `value` in `field` (the other fields valid), inserted as the service
 * role inside a transaction that is rolled back: nothing is kept.
 */
async function tableAccepts(field: Field, value: string): Promise<boolean> {
  const row = { ...GOOD, [field]: value };
  await db.query('savepoint one_case');
  try {
    await db.query(
      `insert into public.contact_messages (name, email, message, delivery_status)
       values ($1, $2, $3, 'pending')`,
      [row.name, row.email, row.message],
    );
    return true;
  } catch (err) {
    const code = (err as { code?: string }).code;
    // A check constraint, or text Postgres cannot hold (NUL); anything else is a real failure.
    expect(
      ['23514', '22021', '22P05'],
      `${field} ${JSON.stringify(value)}: ${String(err)}`,
    ).toContain(code);
    return false;
  } finally {
    // Undo and forget the case: kept savepoints would pile up for the whole run.
    await db.query('rollback to savepoint one_case');
    await db.query('release savepoint one_case');
  }
}

describe('contact validation agrees with the table', () => {
  it(
    'every field of 1,000 generated messages is accepted by both or refused by both',
    { timeout: 180_000 },
    async () => {
      let cases = 0;
      const verdicts = { accepted: 0, refused: 0 };
      await db.query('begin');
      await db.query('set local role service_role');
      try {
        await fc.assert(
          fc.asyncProperty(
            fc.array(
              fc.record({
                name: fieldArb('name'),
                email: fieldArb('email'),
                message: fieldArb('message'),
              }),
              { minLength: BATCH, maxLength: BATCH },
            ),
            async (batch) => {
              for (const input of batch) {
                cases++;
                const parsed = contactSchema.safeParse(input);
                const refusedFields = new Set(
                  parsed.success
                    ? []
                    : parsed.error.issues.map((issue: { path: PropertyKey[] }) =>
                        String(issue.path[0]),
                      ),
                );
                for (const field of FIELDS) {
                  const value = input[field];
                  const fnAccepts = !refusedFields.has(field);
                  const ctx = `${field} ${JSON.stringify(value)}`;
                  if (hasLoneSurrogate(value)) {
                    // Not text at all: Postgres cannot store it, so the function must refuse it.
                    expect(fnAccepts, ctx).toBe(false);
                    continue;
                  }
                  expect(await tableAccepts(field, stored(value)), ctx).toBe(fnAccepts);
                  verdicts[fnAccepts ? 'accepted' : 'refused']++;
                  // The table alone also refuses what the function would have trimmed.
                  if (fnAccepts && stored(value) !== value)
                    expect(await tableAccepts(field, value), `untrimmed ${ctx}`).toBe(false);
                }
              }
            },
          ),
          { numRuns: RUNS },
        );
      } finally {
        await db.query('rollback');
      }
      expect(cases).toBe(BATCH * RUNS);
      // Both outcomes are well represented (the generators are not lopsided).
      expect(verdicts.accepted).toBeGreaterThan(300);
      expect(verdicts.refused).toBeGreaterThan(300);
    },
  );
});

describe('the cases that were a 500 or stored wrongly', () => {
  const cases: { name: string; char: string }[] = [
    { name: 'NEL (U+0085)', char: '\u0085' },
    { name: 'CSI (U+009B)', char: '\u009b' },
    { name: 'right-to-left override (U+202E)', char: '\u202e' },
    { name: 'line separator (U+2028)', char: '\u2028' },
  ];
  for (const c of cases) {
    it(`a name with ${c.name} gets 400 with a name error, nothing stored`, async () => {
      const msg = visitorMessage();
      const res = await postContact(
        env,
        { ...msg, name: `Eve${c.char}Mallory` },
        { ip: randomLoopbackIp() },
      );
      expect(res.status).toBe(400);
      const body = (await res.json()) as { fieldErrors: Record<string, string[]> };
      expect(body.fieldErrors.name?.length).toBeGreaterThan(0);
      expect(await rowsByEmail(env, msg.email)).toHaveLength(0);
    });
  }
});
