// Link-health triage (REQ-OFF-6, docs/decisions/0234), end to end: the real `link-health` edge
// function checks products whose links point at a local seller site on loopback
// (tests/support/link-servers.ts; the test stack sets LINK_HEALTH_ALLOW_LOOPBACK), and the
// database keeps the confirmed state: broken only after two failed checks in a row, a bot wall
// is "blocked" with its redirect chain, an accepted redirect is OK until the link changes.
import type { SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLinkServer, type LinkServer } from '../support/link-servers';
import { deleteUsers } from './db-test-helpers.ts';
import {
  createAdmin,
  createConfirmedUser,
  serviceClient,
  signedInClient,
  stackEnv,
  type TestUser,
} from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';
import { OfferFixtures, primaryOf, summaryOf } from './offers-support.ts';

const service = serviceClient();
const users: TestUser[] = [];
let admin: SupabaseClient;
let shopper: SupabaseClient;
let site: LinkServer;
let cat: string;
let port: string;
const offers = new OfferFixtures();

interface Result {
  product_id: string;
  kind: string;
  offer_id: string | null;
  status: string;
  verdict: string;
  failures: number | null;
  http_code: number | null;
  detail: string | null;
}

interface Answer {
  results: Result[];
  counts: Record<string, number>;
}

async function newProduct(link: string): Promise<string> {
  const { data, error } = await service
    .from('products')
    .insert({
      title: uniqueId('Link Triage'),
      cat,
      price: '£5',
      com: 'Link triage test product',
      link,
      image: '/products/match-football.svg',
    })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  return data.id as string;
}

/** Asks the function (as the admin) to check this product: every result. */
async function checkAll(id: string): Promise<Answer> {
  const { data, error } = await admin.functions.invoke<Answer>('link-health', {
    body: { mode: 'products', ids: [id], timeoutMs: 2000 },
  });
  if (error) throw error;
  return data!;
}

/** Checks this product; its seller link's result. */
async function check(id: string): Promise<{ result: Result; counts: Record<string, number> }> {
  const data = await checkAll(id);
  const result = data.results.find((r) => r.product_id === id && r.kind === 'link');
  if (!result) throw new Error(`no result for ${id}`);
  return { result, counts: data.counts };
}

/** listing.hidden_product_ids() for a visitor while hiding is on (rolled back: store-wide). */
async function hiddenWhileHiding(): Promise<string[]> {
  const db = new pg.Client({ connectionString: stackEnv().DB_URL });
  await db.connect();
  try {
    await db.query('begin');
    await db.query('update public.link_health_settings set hide_broken_links = true where true');
    await db.query('set local role anon');
    const { rows } = await db.query<{ ids: string[] }>(
      'select listing.hidden_product_ids() as ids',
    );
    return rows[0]!.ids;
  } finally {
    await db.query('rollback');
    await db.end();
  }
}

async function stored(id: string) {
  const { data, error } = await service
    .from('link_checks')
    .select('status,failures,http_code,final_url,detail,chain')
    .eq('product_id', id)
    .eq('kind', 'link')
    .single();
  if (error) throw new Error(error.message);
  return data;
}

beforeAll(async () => {
  site = await startLinkServer();
  port = new URL(site.origin).port;
  const adminUser = await createAdmin();
  const plain = await createConfirmedUser();
  users.push(adminUser, plain);
  admin = await signedInClient(adminUser);
  shopper = await signedInClient(plain);
  cat = uniqueId('Link Triage Cat');
  const { error } = await service.from('catagories').insert({ title: cat });
  if (error) throw new Error(error.message);
});

afterAll(async () => {
  await service.from('products').delete().eq('cat', cat);
  await service.from('catagories').delete().eq('title', cat);
  await offers.tearDown();
  await deleteUsers(service, users);
  await site?.close();
});

describe('a link is broken only after two failed checks in a row', () => {
  it('one failure is "failing", a success in between resets the count, two in a row are broken', async () => {
    site.answer('/flaky', 500);
    const id = await newProduct(`${site.origin}/flaky`);

    let { result, counts } = await check(id);
    expect(result).toMatchObject({ verdict: 'broken', status: 'failing', failures: 1 });
    expect(counts).toMatchObject({ broken: 0, failing: 1 });

    site.answer('/flaky', 200);
    ({ result } = await check(id));
    expect(result).toMatchObject({ verdict: 'ok', status: 'ok', failures: 0 });

    site.answer('/flaky', 500);
    ({ result } = await check(id));
    expect(result).toMatchObject({ status: 'failing', failures: 1 });
    ({ result, counts } = await check(id));
    expect(result).toMatchObject({ verdict: 'broken', status: 'broken', failures: 2 });
    expect(counts).toMatchObject({ broken: 1, failing: 0 });
    expect(await stored(id)).toMatchObject({ status: 'broken', failures: 2, http_code: 500 });
  });

  it('hiding (when switched on) takes confirmed broken links only', async () => {
    site.answer('/once', 404);
    site.answer('/twice', 404);
    const once = await newProduct(`${site.origin}/once`);
    const twice = await newProduct(`${site.origin}/twice`);
    await check(once);
    await check(twice);
    await check(twice);
    const hidden = await hiddenWhileHiding();
    expect(hidden).toContain(twice);
    expect(hidden).not.toContain(once);
  });
});

describe('sellers that refuse bots are "blocked", not broken', () => {
  it('403 behind Cloudflare after a redirect: blocked, with each hop and the final host', async () => {
    const id = await newProduct(`${site.origin}/to-bot-wall`);
    for (let run = 0; run < 2; run++) {
      const { result, counts } = await check(id);
      expect(result).toMatchObject({ verdict: 'blocked', status: 'blocked', failures: 0 });
      expect(counts).toMatchObject({ broken: 0, blocked: 1 });
    }
    expect(await stored(id)).toEqual({
      status: 'blocked',
      failures: 0,
      http_code: 403,
      final_url: `${site.otherSiteOrigin}/bot-wall`,
      detail: 'bot wall: cf-mitigated: challenge',
      chain: [
        { code: 302, host: `127.0.0.1:${port}` },
        { code: 403, host: `localhost:${port}` },
      ],
    });
  });

  it('a plain 403 on every check is blocked too (after the second)', async () => {
    site.answer('/plain-403', 403);
    const id = await newProduct(`${site.origin}/plain-403`);
    expect((await check(id)).result).toMatchObject({ status: 'failing' });
    expect((await check(id)).result).toMatchObject({
      status: 'blocked',
      detail: '403 on every check',
    });
  });

  it('a 404 is not a bot wall, whatever the server', async () => {
    site.answer('/gone-cf', 404, { server: 'cloudflare' });
    const id = await newProduct(`${site.origin}/gone-cf`);
    await check(id);
    expect((await check(id)).result).toMatchObject({ status: 'broken' });
  });
});

describe('an admin accepts a redirect as expected', () => {
  it('per product link: OK at once and on the next check, forgotten when the link changes', async () => {
    const link = `${site.origin}/moved`;
    const id = await newProduct(link);
    expect((await check(id)).result).toMatchObject({ status: 'redirected' });

    const accept = await admin
      .from('link_redirect_acceptances')
      .insert({ product_id: id, url: link, to_host: 'localhost' });
    expect(accept.error).toBeNull();
    expect(await stored(id)).toMatchObject({ status: 'ok', detail: 'redirect accepted' });
    expect((await check(id)).result).toMatchObject({ verdict: 'redirected', status: 'ok' });

    const { error } = await admin
      .from('products')
      .update({ link: `${link}?v=2` })
      .eq('id', id);
    expect(error).toBeNull();
    const left = await admin.from('link_redirect_acceptances').select('id').eq('product_id', id);
    expect(left.data).toEqual([]);
    expect((await check(id)).result).toMatchObject({ status: 'redirected' });
  });

  it('per seller host and final host: every link of that seller, no other', async () => {
    // 127.1 is 127.0.0.1 to the checker but another seller host to the acceptance.
    const theirs = await newProduct(`http://127.1:${port}/moved`);
    const other = await newProduct(`${site.origin}/moved`);
    expect((await check(theirs)).result).toMatchObject({ status: 'redirected' });
    expect((await check(other)).result).toMatchObject({ status: 'redirected' });
    const accept = await admin
      .from('link_redirect_acceptances')
      .insert({ from_host: '127.1', to_host: 'localhost' })
      .select('id')
      .single();
    expect(accept.error).toBeNull();
    try {
      expect(await stored(theirs)).toMatchObject({ status: 'ok' });
      expect(await stored(other)).toMatchObject({ status: 'redirected' });
      // Withdrawn: redirected again at once.
      await admin.from('link_redirect_acceptances').delete().eq('id', accept.data!.id);
      expect(await stored(theirs)).toMatchObject({ status: 'redirected', detail: null });
    } finally {
      await service.from('link_redirect_acceptances').delete().eq('id', accept.data!.id);
    }
  });

  it('shoppers can neither accept a redirect nor read acceptances', async () => {
    const id = await newProduct(`${site.origin}/moved`);
    const insert = await shopper
      .from('link_redirect_acceptances')
      .insert({ product_id: id, url: `${site.origin}/moved`, to_host: 'localhost' });
    expect(insert.error).not.toBeNull();
    const read = await shopper.from('link_redirect_acceptances').select('id');
    expect(read.data ?? []).toEqual([]);
  });
});

describe('offers: every offer link is checked; Buy Now and hiding skip broken ones', () => {
  it('checks each offer link (kind offer), falls back to the next offer, hides only when all are broken', async () => {
    site.answer('/primary', 500);
    site.answer('/offer-b', 200);
    const id = await newProduct(`${site.origin}/primary`);
    const primary = await primaryOf(id);
    const b = await offers.offer(id, { link: `${site.origin}/offer-b`, price_gbp: 4 });

    // The offer's own result, keyed by offer; one primary failure moves nothing yet.
    let answer = await checkAll(id);
    expect(answer.results.find((r) => r.kind === 'offer')).toMatchObject({
      offer_id: b.id,
      status: 'ok',
    });
    expect((await summaryOf(id)).buy_offer_id).toBe(primary.id);
    expect(await hiddenWhileHiding()).not.toContain(id);

    // The primary link confirmed broken: Buy Now goes to the next current offer, still shown.
    await checkAll(id);
    const moved = await summaryOf(id);
    expect(moved.buy_offer_id).toBe(b.id);
    expect(moved.buy_link).toBe(`${site.origin}/offer-b`);
    expect(await hiddenWhileHiding()).not.toContain(id);

    // Every offer link broken: hidden (Buy Now falls back to the primary, as before).
    site.answer('/offer-b', 404);
    answer = await checkAll(id);
    expect(answer.results.find((r) => r.kind === 'offer')).toMatchObject({ status: 'failing' });
    expect(await hiddenWhileHiding()).not.toContain(id);
    answer = await checkAll(id);
    expect(answer.results.find((r) => r.kind === 'offer')).toMatchObject({ status: 'broken' });
    expect((await summaryOf(id)).buy_offer_id).toBe(primary.id);
    expect(await hiddenWhileHiding()).toContain(id);

    // The admin fixes the offer's link: its old result goes, the product is back.
    const { error } = await admin
      .from('offers')
      .update({ link: `${site.origin}/ok` })
      .eq('id', b.id);
    expect(error).toBeNull();
    expect(await hiddenWhileHiding()).not.toContain(id);
    expect((await summaryOf(id)).buy_offer_id).toBe(b.id);
  });

  it('an accepted redirect of an offer link is OK', async () => {
    const id = await newProduct(`${site.origin}/ok`);
    const link = `${site.origin}/moved`;
    const b = await offers.offer(id, { link });
    const result = async () => (await checkAll(id)).results.find((r) => r.offer_id === b.id);
    expect(await result()).toMatchObject({ status: 'redirected' });
    const accept = await admin
      .from('link_redirect_acceptances')
      .insert({ product_id: id, url: link, to_host: 'localhost' });
    expect(accept.error).toBeNull();
    expect(await result()).toMatchObject({ status: 'ok', detail: 'redirect accepted' });
  });
});
