// Property-based tests of every write path, against a dedicated throwaway stack (so 1,000s of rows
// and sign-up attempts cannot disturb the shared one): PostgREST inserts as an admin (products,
// catagories), the contact edge function, and the Auth sign-up endpoint. Each generated input is
// either stored exactly (titles normalised as dbNormaliseTitle models it) and read back equal, or
// refused with a clear error, and nothing else changes. Cases run in concurrent batches over
// reused clients to keep the run short.
import type { SupabaseClient } from '@supabase/supabase-js';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePortBase, startStack, type RunningStack } from '../../stack/stack.ts';
import {
  createConfirmedUser,
  serviceClient,
  signedInClient,
  sql,
  type StackEnv,
} from '../support/stack.ts';
import { fetchFrom } from '../support/loopback.ts';
import {
  cpLen,
  dbHttpUrl,
  dbImage,
  dbNormaliseTitle,
  loadDatabaseUnicode,
  hasAmbiguousSpace,
  nastyText,
  pgTrim,
  urlText,
} from './property-support';

const BATCH = 25;
const RUNS = 40; // × BATCH = 1,000 cases per path
const counts: Record<string, number> = {};

let root: string;
let stack: RunningStack;
let env: StackEnv;
let admin: SupabaseClient;
let service: SupabaseClient;
const CAT = 'Property Cat';

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'mar-stack-prop-'));
  stack = await startStack({
    portBase: await findFreePortBase(),
    dataDir: path.join(root, 'data'),
    log: () => {},
    // Messages stay 'pending' (no mail) and neither the per-address/IP limit nor the overall
    // cap per minute bites.
    functionEnv: {
      CONTACT_RATE_LIMIT_MAX: '100000',
      CONTACT_GLOBAL_RATE_LIMIT_PER_MINUTE: '100000',
      CONTACT_MAIL_PROVIDER: 'none',
    },
  });
  env = stack.env;
  await loadDatabaseUnicode(env.DB_URL);
  service = serviceClient(env);
  const email = 'property-admin@example.test';
  const inv = await service.from('admin_invites').insert({ email });
  if (inv.error) throw new Error(inv.error.message);
  const user = await createConfirmedUser({ email, password: 'property-admin-pw' }, env);
  admin = await signedInClient(user, env);
  const cat = await service.from('catagories').insert({ title: CAT });
  if (cat.error) throw new Error(cat.error.message);
}, 180_000);

afterAll(async () => {
  console.info('property-writes cases:', JSON.stringify(counts));
  await stack?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

function bump(path: string, n: number): void {
  counts[path] = (counts[path] ?? 0) + n;
}

/** All rows of a table, keyed by id, as JSON (the "nothing else changed" check). */
async function rowsById(table: string): Promise<Map<string, string>> {
  const rows = await sql<{ id: string }>(`select * from public.${table}`, [], env);
  return new Map(rows.map((r) => [r.id, JSON.stringify(r)]));
}

async function expectOnlyAdded(table: string, before: Map<string, string>, added: Set<string>) {
  const after = await rowsById(table);
  for (const [id, row] of before) expect(after.get(id), `${table} ${id} changed`).toBe(row);
  const extra = [...after.keys()].filter((id) => !before.has(id) && !added.has(id));
  expect(extra, `${table}: rows nobody reported as stored`).toEqual([]);
  expect(after.size).toBe(before.size + added.size);
}

async function titleTaken(table: string, title: string, exceptId?: string): Promise<boolean> {
  const rows = await sql(
    `select 1 from public.${table}
      where private.title_key(title) = private.title_key($1) and id::text <> $2`,
    [title, exceptId ?? ''],
    env,
  );
  return rows.length > 0;
}

/** Titles: sometimes made unique so that most valid ones really get stored. */
let serial = 0;
const titleArb = fc
  .tuple(nastyText, fc.boolean())
  .map(([t, uniq]) => (uniq && t.trim() !== '' ? `${t} ${(serial++).toString(36)}` : t));

describe('PostgREST as an admin', () => {
  it('products: stored exactly, or refused with 23514/23505 and nothing stored', async () => {
    const before = await rowsById('products');
    const added = new Set<string>();
    const productArb = fc.record({
      title: titleArb,
      price: nastyText,
      com: nastyText,
      image: urlText,
      link: urlText,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(productArb, { minLength: BATCH, maxLength: BATCH }),
        async (batch) => {
          bump('products insert', batch.length);
          const results = await Promise.all(
            batch.map((p) =>
              admin
                .from('products')
                .insert({ ...p, cat: CAT })
                .select()
                .single(),
            ),
          );
          for (const [i, { data, error }] of results.entries()) {
            const p = batch[i]!;
            const title = dbNormaliseTitle(p.title);
            const ambiguous = hasAmbiguousSpace(p.image) || hasAmbiguousSpace(p.link);
            const valid =
              cpLen(title) >= 1 &&
              cpLen(title) <= 120 &&
              cpLen(pgTrim(p.price)) >= 1 &&
              cpLen(p.price) <= 40 &&
              cpLen(pgTrim(p.com)) >= 1 &&
              cpLen(p.com) <= 2000 &&
              dbImage(p.image) &&
              dbHttpUrl(p.link);
            if (data) {
              const row = data as Record<string, unknown>;
              added.add(row.id as string);
              if (!ambiguous) expect(valid, JSON.stringify(p)).toBe(true);
              expect(row).toMatchObject({ ...p, title, cat: CAT });
              // Read back separately, as the storefront would.
              const { data: back } = await service
                .from('products')
                .select('*')
                .eq('id', row.id)
                .single();
              expect(back).toEqual(row);
            } else {
              expect(error?.message).toBeTruthy();
              expect(['23514', '23505']).toContain(error!.code);
              if (error!.code === '23505') expect(await titleTaken('products', title)).toBe(true);
              else if (!ambiguous)
                expect(valid, `${JSON.stringify(p)} refused: ${error!.message}`).toBe(false);
            }
          }
        },
      ),
      { numRuns: RUNS },
    );
    await expectOnlyAdded('products', before, added);
  });

  it('catagories: stored exactly, or refused with a clear error and nothing stored', async () => {
    const before = await rowsById('catagories');
    const added = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(titleArb, { minLength: BATCH, maxLength: BATCH }),
        async (batch) => {
          bump('catagories insert', batch.length);
          const results = await Promise.all(
            batch.map((title) => admin.from('catagories').insert({ title }).select().single()),
          );
          for (const [i, { data, error }] of results.entries()) {
            const title = dbNormaliseTitle(batch[i]!);
            const valid = cpLen(title) >= 1 && cpLen(title) <= 80;
            if (data) {
              added.add((data as { id: string }).id);
              expect(valid, JSON.stringify(batch[i])).toBe(true);
              expect((data as { title: string }).title).toBe(title);
            } else {
              expect(error?.message).toBeTruthy();
              expect(['23514', '23505']).toContain(error!.code);
              if (error!.code === '23505') expect(await titleTaken('catagories', title)).toBe(true);
              else expect(valid, `${JSON.stringify(batch[i])}: ${error!.message}`).toBe(false);
            }
          }
        },
      ),
      { numRuns: RUNS },
    );
    await expectOnlyAdded('catagories', before, added);
  });

  it('text that Postgres cannot hold (NUL) is refused with a clear error, nothing stored', async () => {
    const before = await rowsById('products');
    const { error } = await admin.from('products').insert({
      title: 'Nul\u0000Title',
      cat: CAT,
      price: '£1',
      com: 'x',
      image: '/a.svg',
      link: 'https://a.example',
    });
    expect(error?.code).toBe('22P05');
    await expectOnlyAdded('products', before, new Set());
  });
});

// A loopback address of its own per request (the gateway takes the client IP from the socket),
// so the sign-up cases stay clear of the per-IP auth limit.
let ipSerial = 0;
function nextIp(): string {
  ipSerial++;
  return `127.${1 + ((ipSerial >> 16) & 127)}.${(ipSerial >> 8) & 255}.${ipSerial & 255}`;
}

describe('the contact function', () => {
  it('answers 400 with field errors, or stores the message exactly; never 500', async () => {
    const before = await rowsById('contact_messages');
    const added = new Set<string>();
    const caseArb = fc.record({
      name: nastyText,
      email: fc.oneof(nastyText, fc.emailAddress()),
      message: fc.oneof(nastyText, fc.constant('x\u0000y')),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(caseArb, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        bump('contact function', batch.length);
        const seen = new Set(
          (await sql<{ id: string }>('select id from public.contact_messages', [], env)).map(
            (r) => r.id,
          ),
        );
        const responses = await Promise.all(
          batch.map(async (c) => {
            const res = await fetch(`${env.FUNCTIONS_URL}/contact`, {
              method: 'POST',
              headers: {
                apikey: env.ANON_KEY,
                authorization: `Bearer ${env.ANON_KEY}`,
                'content-type': 'application/json',
              },
              body: JSON.stringify(c),
            });
            return { status: res.status, body: (await res.json()) as Record<string, unknown> };
          }),
        );
        const expected: string[] = [];
        for (const [i, r] of responses.entries()) {
          const c = batch[i]!;
          expect([200, 400, 413], JSON.stringify({ c, r })).toContain(r.status);
          if (r.status === 413) {
            // The function's body limit (64 KiB): only for bodies that really are that big.
            expect(Buffer.byteLength(JSON.stringify(c))).toBeGreaterThan(65_536);
            expect(r.body.error).toMatch(/too large/);
          } else if (r.status === 400) {
            const fieldErrors = r.body.fieldErrors as Record<string, string[]>;
            expect(Object.keys(fieldErrors).length).toBeGreaterThan(0);
            for (const [k, msgs] of Object.entries(fieldErrors)) {
              expect(['name', 'email', 'message']).toContain(k);
              for (const m of msgs) expect(m).toMatch(/\w/);
            }
          } else {
            expect(r.body).toEqual({ ok: true });
            expected.push(JSON.stringify([c.name.trim(), c.email.trim(), c.message.trim()]));
          }
          for (const f of ['name', 'email', 'message'] as const) {
            if (c[f].trim() === '') expect([400, 413]).toContain(r.status);
          }
        }
        const fresh = (
          await sql<{ id: string; name: string; email: string; message: string }>(
            'select id, name, email, message from public.contact_messages',
            [],
            env,
          )
        ).filter((row) => !seen.has(row.id));
        for (const row of fresh) added.add(row.id);
        expect(
          fresh.map((row) => JSON.stringify([row.name, row.email, row.message])).sort(),
        ).toEqual(expected.sort());
      }),
      { numRuns: RUNS },
    );
    await expectOnlyAdded('contact_messages', before, added);
  });
});

describe('the Auth sign-up endpoint', () => {
  // GoTrue's e-mail grammar (HTML5): anything it would accept is kept out of the "bad" inputs.
  const GOTRUE_EMAIL =
    /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

  it('bad e-mails and short passwords are refused with Supabase errors; no account is created', async () => {
    const [{ n: usersBefore }] = await sql<{ n: number }>(
      'select count(*)::int as n from auth.users',
      [],
      env,
    );
    const caseArb = fc.oneof(
      fc.record({
        email: fc.oneof(fc.emailAddress(), nastyText),
        password: fc.oneof(
          fc.string({ maxLength: 5 }),
          fc.constantFrom('', ' ', '     ', '<b>', "' OR", '日本'),
        ),
        bad: fc.constant('password' as const),
      }),
      fc.record({
        email: nastyText.filter((e) => !GOTRUE_EMAIL.test(e.trim())),
        password: fc.constantFrom('long-enough-password', 'Secret-123456', '      spaces      '),
        bad: fc.constant('email' as const),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(caseArb, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        bump('auth signup', batch.length);
        const responses = await Promise.all(
          batch.map(async (c) => {
            const res = await fetchFrom(nextIp())(`${env.API_URL}/auth/v1/signup`, {
              method: 'POST',
              headers: { apikey: env.ANON_KEY, 'content-type': 'application/json' },
              body: JSON.stringify({ email: c.email, password: c.password }),
            });
            return { status: res.status, body: (await res.json()) as Record<string, unknown> };
          }),
        );
        for (const [i, r] of responses.entries()) {
          const c = batch[i]!;
          const ctx = JSON.stringify({ c, r });
          expect([400, 422], ctx).toContain(r.status);
          expect(r.body.code, ctx).toBe(r.status);
          expect(typeof r.body.msg, ctx).toBe('string');
          expect(
            ['validation_failed', 'weak_password', 'anonymous_provider_disabled'],
            ctx,
          ).toContain(r.body.error_code);
        }
      }),
      { numRuns: RUNS },
    );
    const [{ n: usersAfter }] = await sql<{ n: number }>(
      'select count(*)::int as n from auth.users',
      [],
      env,
    );
    expect(usersAfter).toBe(usersBefore);
  });
});
