// Property-based tests of the write paths property-writes.test.ts leaves out: product updates and
// category renames as an admin, and the invite insert as an admin and as a signed-in non-admin.
// 1,000 generated cases each, through supabase-js against a dedicated throwaway stack. Each answer
// must match the model of the database's rules: stored as the model says, or refused with the
// expected SQLSTATE and nothing changed; never a server error.
import type { SupabaseClient } from '@supabase/supabase-js';
import fc from 'fast-check';
import pg from 'pg';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePortBase, startStack, type RunningStack } from '../../stack/stack.ts';
import {
  createConfirmedUser,
  serviceClient,
  signedInClient,
  type StackEnv,
} from '../support/stack.ts';
import {
  cpLen,
  dbHttpUrl,
  dbImage,
  dbNormaliseTitle,
  hasAmbiguousSpace,
  databaseKnows,
  hasCntrl,
  loadDatabaseUnicode,
  nastyText,
  pgTrim,
  urlText,
} from './property-support';

const BATCH = 25;
const RUNS = 40; // × BATCH = 1,000 cases per path
const CAT = 'Update Cat';

let root: string;
let stack: RunningStack;
let env: StackEnv;
let admin: SupabaseClient;
let plain: SupabaseClient;
let service: SupabaseClient;
let adminEmail: string;
let productIds: string[] = [];
let categoryIds: string[] = [];
/** One connection for the whole file: a new one per check would dominate the run time. */
let db: pg.Client;

async function q<T extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await db.query<T>(text, params)).rows;
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'mar-stack-prop-upd-'));
  stack = await startStack({
    portBase: await findFreePortBase(),
    dataDir: path.join(root, 'data'),
    log: () => {},
  });
  env = stack.env;
  db = new pg.Client({ connectionString: env.DB_URL });
  await db.connect();
  await loadDatabaseUnicode(env.DB_URL);
  service = serviceClient(env);
  adminEmail = 'property-update-admin@example.test';
  const inv = await service.from('admin_invites').insert({ email: adminEmail });
  if (inv.error) throw new Error(inv.error.message);
  const adminUser = await createConfirmedUser(
    { email: adminEmail, password: 'property-admin-pw' },
    env,
  );
  admin = await signedInClient(adminUser, env);
  const plainUser = await createConfirmedUser(
    { email: 'property-plain@example.test', password: 'plain-user-pw' },
    env,
  );
  plain = await signedInClient(plainUser, env);

  // One product and one category per batch slot, so concurrent cases never touch the same row.
  const cat = await service.from('catagories').insert({ title: CAT });
  if (cat.error) throw new Error(cat.error.message);
  const products = await service
    .from('products')
    .insert(
      Array.from({ length: BATCH }, (_, i) => ({
        title: `Update Product ${i}`,
        cat: CAT,
        price: '£1.00',
        com: 'Property update product',
        image: '/products/match-football.svg',
        link: 'https://shop.example.com/p',
      })),
    )
    .select('id');
  if (products.error) throw new Error(products.error.message);
  productIds = products.data.map((r) => r.id as string);
  const cats = await service
    .from('catagories')
    .insert(Array.from({ length: BATCH }, (_, i) => ({ title: `Rename Cat ${i}` })))
    .select('id, title');
  if (cats.error) throw new Error(cats.error.message);
  categoryIds = cats.data.map((r) => r.id as string);
  // Each renamed category carries one product along (on update cascade).
  const held = await service.from('products').insert(
    cats.data.map((c, i) => ({
      title: `Held Product ${i}`,
      cat: c.title as string,
      price: '£2.00',
      com: 'Held by a renamed category',
      image: '/products/match-football.svg',
      link: 'https://shop.example.com/h',
    })),
  );
  if (held.error) throw new Error(held.error.message);
}, 180_000);

afterAll(async () => {
  await db?.end();
  await stack?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** The rows with these ids, in that order. */
async function rows(table: string, ids: string[]): Promise<Record<string, unknown>[]> {
  const found = await q(`select * from public.${table} where id = any($1::uuid[])`, [ids]);
  return ids.map((id) => found.find((r) => r.id === id)!);
}

/** Every row's title key, to judge a 23505 against the state before the batch too. */
async function titleKeys(table: string): Promise<{ id: string; key: string }[]> {
  return q(`select id, private.title_key(title) as key from public.${table}`);
}

/**
 * Whether another row holds the key of `title`, before or after the batch: cases run
 * concurrently, so a title another case renames away may still have been in use when this case
 * was checked.
 */
async function titleTaken(
  table: string,
  title: string,
  exceptId: string,
  before: { id: string; key: string }[],
): Promise<boolean> {
  const [{ key }] = await q<{ key: string }>('select private.title_key($1) as key', [title]);
  const after = await titleKeys(table);
  return [...before, ...after].some((r) => r.key === key && r.id !== exceptId);
}

/** Titles: sometimes made unique so that most valid ones really get stored. */
let serial = 0;
const titleArb = fc
  .tuple(nastyText, fc.boolean())
  .map(([t, uniq]) => (uniq && t.trim() !== '' ? `${t} u${(serial++).toString(36)}` : t));

describe('PostgREST updates as an admin', () => {
  it('product updates: changed as the model says, or refused with nothing changed', async () => {
    const patchArb = fc
      .record(
        { title: titleArb, price: nastyText, com: nastyText, image: urlText, link: urlText },
        { requiredKeys: [] },
      )
      .filter((patch) => Object.keys(patch).length > 0);
    await fc.assert(
      fc.asyncProperty(
        fc.array(patchArb, { minLength: BATCH, maxLength: BATCH }),
        async (batch) => {
          const before = await rows('products', productIds);
          const keysBefore = await titleKeys('products');
          const results = await Promise.all(
            batch.map((patch, i) =>
              admin.from('products').update(patch).eq('id', productIds[i]!).select(),
            ),
          );
          const afterAll = await rows('products', productIds);
          for (const [i, { data, error, status }] of results.entries()) {
            const patch = batch[i]!;
            const ctx = JSON.stringify({ patch, error });
            expect(status, ctx).toBeLessThan(500);
            const after = afterAll[i]!;
            const ambiguous = [patch.image, patch.link].some((u) => u && hasAmbiguousSpace(u));
            const title = patch.title === undefined ? undefined : dbNormaliseTitle(patch.title);
            const valid =
              (title === undefined || (cpLen(title) >= 1 && cpLen(title) <= 120)) &&
              (patch.price === undefined ||
                (cpLen(pgTrim(patch.price)) >= 1 && cpLen(patch.price) <= 40)) &&
              (patch.com === undefined ||
                (cpLen(pgTrim(patch.com)) >= 1 && cpLen(patch.com) <= 2000)) &&
              (patch.image === undefined || dbImage(patch.image)) &&
              (patch.link === undefined || dbHttpUrl(patch.link));
            if (error) {
              expect(['23514', '23505'], ctx).toContain(error.code);
              expect(after, 'a refused update changed nothing').toEqual(before[i]);
              if (error.code === '23505') {
                expect(await titleTaken('products', title!, productIds[i]!, keysBefore), ctx).toBe(
                  true,
                );
              } else if (!ambiguous) expect(valid, ctx).toBe(false);
            } else {
              if (!ambiguous) expect(valid, ctx).toBe(true);
              expect(data, ctx).toHaveLength(1);
              const expected: Record<string, unknown> = {
                ...before[i],
                ...patch,
                ...(title === undefined ? {} : { title }),
              };
              for (const k of ['title', 'cat', 'price', 'com', 'image', 'link', 'created_at']) {
                expect(after[k], `${k}: ${ctx}`).toEqual(expected[k]);
              }
            }
          }
        },
      ),
      { numRuns: RUNS, endOnFailure: true },
    );
  });

  it('category renames: renamed with their products, or refused with nothing changed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(titleArb, { minLength: BATCH, maxLength: BATCH }),
        async (batch) => {
          const before = await rows('catagories', categoryIds);
          const keysBefore = await titleKeys('catagories');
          const results = await Promise.all(
            batch.map((title, i) =>
              admin.from('catagories').update({ title }).eq('id', categoryIds[i]!).select(),
            ),
          );
          const afterAll = await rows('catagories', categoryIds);
          const held = new Map(
            (
              await q<{ title: string; cat: string }>(
                "select title, cat from public.products where title like 'Held Product %'",
              )
            ).map((r) => [r.title, r.cat]),
          );
          for (const [i, { error, status }] of results.entries()) {
            const ctx = JSON.stringify({ title: batch[i], error });
            expect(status, ctx).toBeLessThan(500);
            const title = dbNormaliseTitle(batch[i]!);
            const after = afterAll[i]!;
            expect(held.get(`Held Product ${i}`), 'the product follows its category').toBe(
              after.title,
            );
            if (error) {
              expect(['23514', '23505'], ctx).toContain(error.code);
              expect(after).toEqual(before[i]);
              if (error.code === '23505') {
                expect(
                  await titleTaken('catagories', title, categoryIds[i]!, keysBefore),
                  ctx,
                ).toBe(true);
              } else expect(cpLen(title) >= 1 && cpLen(title) <= 80, ctx).toBe(false);
            } else {
              expect(cpLen(title) >= 1 && cpLen(title) <= 80, ctx).toBe(true);
              expect(after.title, ctx).toBe(title);
            }
          }
        },
      ),
      { numRuns: RUNS, endOnFailure: true },
    );
  });
});

// Every expectation above rests on dbNormaliseTitle, so it is checked against the database itself.
describe('the title model', () => {
  async function stored(titles: string[]): Promise<string[]> {
    const found = await q<{ t: string }>(
      'select private.normalise_title(t) as t from unnest($1::text[]) with ordinality as u(t, i) order by i',
      [titles],
    );
    return found.map((r) => r.t);
  }

  it("agrees with private.normalise_title on every character NFKC changes or the database's Unicode lacks", async () => {
    // Node's ICU can be newer than the tables Postgres was built with: U+1CCE2 (outlined M,
    // Unicode 16) is "M" to Node and itself to Postgres 17. Each character sits between marks so
    // combining classes and composition are exercised as well as decomposition.
    const titles: string[] = [];
    for (let cp = 1; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      const nodeOnly = /\p{Assigned}/u.test(ch) && !databaseKnows(cp);
      if (nodeOnly || ch.normalize('NFKC') !== ch) titles.push(`A\u0316${ch}\u0301 x`);
    }
    expect(titles.length).toBeGreaterThan(5000);
    expect(titles).toContain('A\u0316\u{1cce2}\u0301 x');
    const want = await stored(titles);
    const wrong = titles.filter((t, i) => dbNormaliseTitle(t) !== want[i]);
    expect(wrong.map((t) => [...t].map((c) => c.codePointAt(0)!.toString(16)).join(' '))).toEqual(
      [],
    );
  });

  it('agrees with private.normalise_title on generated text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(nastyText, { minLength: 200, maxLength: 200 }), async (titles) => {
        const want = await stored(titles);
        expect(titles.map(dbNormaliseTitle)).toEqual(want);
      }),
      { numRuns: 25 },
    );
  });
});

describe('the invite insert', () => {
  const emailArb = fc.oneof(
    { weight: 3, arbitrary: fc.emailAddress() },
    { weight: 1, arbitrary: fc.emailAddress().map((e) => ` ${e.toUpperCase()}  `) },
    { weight: 3, arbitrary: nastyText },
    { weight: 1, arbitrary: fc.constantFrom('property-plain@example.test', 'a@b', '@', 'a@') },
  );

  /** The check constraint on the lower-cased, trimmed address (as the database computes it). */
  function validEmail(email: string): boolean {
    return (
      cpLen(email) >= 3 &&
      cpLen(email) <= 254 &&
      /^[^@\s]+@[^@\s]+$/.test(email) &&
      !hasCntrl(email)
    );
  }

  it('an admin: stored lower-cased, or refused as invalid/registered/duplicate', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(emailArb, { minLength: BATCH, maxLength: BATCH }),
        async (batch) => {
          const existing = new Set(
            (await q<{ email: string }>('select email from public.admin_invites')).map(
              (r) => r.email,
            ),
          );
          // The address as the database stores it (lower(btrim())), computed by the database.
          const emails = (
            await q<{ email: string }>(
              'select lower(btrim(e)) as email from unnest($1::text[]) with ordinality as t(e, n) order by n',
              [batch],
            )
          ).map((r) => r.email);
          const results = await Promise.all(
            batch.map((email) => admin.from('admin_invites').insert({ email })),
          );
          const storedNow = new Set(emails.filter((_, i) => !results[i]!.error));
          const registered = new Set(
            (
              await q<{ email: string }>(
                'select lower(email) as email from auth.users where lower(email) = any($1)',
                [emails],
              )
            ).map((r) => r.email),
          );
          const invited = new Set(
            (
              await q<{ email: string }>(
                'select email from public.admin_invites where email = any($1)',
                [emails],
              )
            ).map((r) => r.email),
          );
          for (const [i, { error, status }] of results.entries()) {
            const email = emails[i]!;
            const ctx = JSON.stringify({ input: batch[i], error });
            expect(status, ctx).toBeLessThan(500);
            const ambiguous = hasAmbiguousSpace(email);
            const accounts = registered.has(email) ? 1 : 0;
            const stored = invited.has(email) ? [{}] : [];
            if (error) {
              expect(['23514', '23505'], ctx).toContain(error.code);
              if (error.message === 'Email already registered') expect(accounts, ctx).toBe(1);
              else if (error.code === '23505') {
                // The address already had an open invite, or a twin in this batch got there first.
                expect(existing.has(email) || storedNow.has(email), ctx).toBe(true);
              } else if (!ambiguous) expect(validEmail(email), ctx).toBe(false);
              if (!existing.has(email) && !storedNow.has(email)) expect(stored, ctx).toEqual([]);
            } else {
              if (!ambiguous) expect(validEmail(email), ctx).toBe(true);
              expect(accounts, ctx).toBe(0);
              expect(stored, ctx).toHaveLength(1);
            }
          }
        },
      ),
      { numRuns: RUNS, endOnFailure: true },
    );
  });

  it('a signed-in non-admin: the same refusal for every address, nothing stored', async () => {
    const [{ n: before }] = await q<{ n: number }>(
      'select count(*)::int as n from public.admin_invites',
    );
    const answers = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(emailArb, fc.constant(adminEmail)), {
          minLength: BATCH,
          maxLength: BATCH,
        }),
        async (batch) => {
          const results = await Promise.all(
            batch.map((email) => plain.from('admin_invites').insert({ email })),
          );
          for (const { error, status } of results) {
            // One answer for all: what an address looks like or whether it is registered shows
            // nowhere, except that text Postgres cannot hold at all (NUL) fails before anything.
            answers.add(JSON.stringify({ status, code: error?.code, message: error?.message }));
          }
        },
      ),
      { numRuns: RUNS, endOnFailure: true },
    );
    expect([...answers]).toEqual([
      JSON.stringify({
        status: 403,
        code: '42501',
        message: 'new row violates row-level security policy for table "admin_invites"',
      }),
    ]);
    const [{ n: after }] = await q<{ n: number }>(
      'select count(*)::int as n from public.admin_invites',
    );
    expect(after).toBe(before);
  });
});
