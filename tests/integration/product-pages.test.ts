// Product pages and the sitemap (REQ-FIND-3 to REQ-FIND-6) against the real stack: slugs made by
// the database (accents, symbols, collisions, renames, deletes, nobody else writes them or their
// history), public.product_page as the visitor, and the server's answers (src/host/productPages.ts,
// the code `npm start` and `vite preview` run) for /p/<slug>, an old slug, an unknown one and the
// sitemap after an add, a rename and a delete.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerProductPages, type ProductPagesOptions } from '../../src/host/productPages';
import { deleteUsers, productFields } from './db-test-helpers.ts';
import {
  anonClient,
  createConfirmedUser,
  serviceClient,
  signedInClient,
  stackEnv,
  type TestUser,
  createAdmin,
} from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

const service = serviceClient();
const users: TestUser[] = [];
const CAT = uniqueId('Slug Cat');
/** A word every title of this file starts with, so slugs are predictable and ours alone. */
const MARK = uniqueId('zq')
  .toLowerCase()
  .replace(/[^a-z0-9]/g, '');
let admin: SupabaseClient;
let shopper: SupabaseClient;

const SHELL =
  '<!doctype html><html lang="en-GB"><head><meta name="description" content="x" />' +
  '<title>Shell</title></head><body><div id="root"></div></body></html>';
const SITE = 'https://shop.example.co.uk';
const options = (): ProductPagesOptions => ({
  supabaseUrl: stackEnv().API_URL,
  anonKey: stackEnv().ANON_KEY,
  siteUrl: SITE,
  shell: () => SHELL,
});
const get = async (path: string) => {
  const response = await answerProductPages(new URL(path, SITE), options());
  if (!response) throw new Error(`${path}: not answered`);
  return response;
};

async function addProduct(title: string, price = '£12.50') {
  const { data, error } = await admin
    .from('products')
    .insert(productFields(CAT, title, price))
    .select('id, slug')
    .single();
  if (error) throw new Error(error.message);
  return data as { id: string; slug: string };
}

async function slugOf(id: string): Promise<string> {
  const { data, error } = await service.from('products').select('slug').eq('id', id).single();
  if (error) throw new Error(error.message);
  return (data as { slug: string }).slug;
}

async function page(slug: string) {
  const { data, error } = await anonClient().rpc('product_page', { p_slug: slug });
  if (error) throw new Error(error.message);
  return data as { status: string; slug?: string; product?: Record<string, unknown> };
}

beforeAll(async () => {
  const adminUser = await createAdmin();
  const plainUser = await createConfirmedUser();
  users.push(adminUser, plainUser);
  admin = await signedInClient(adminUser);
  shopper = await signedInClient(plainUser);
  const { error } = await service.from('catagories').insert({ title: CAT });
  if (error) throw new Error(error.message);
});

afterAll(async () => {
  await service.from('products').delete().eq('cat', CAT);
  await service.from('catagories').delete().eq('title', CAT);
  await deleteUsers(service, users);
});

describe('slugs made by the database', () => {
  it('folds accents, spells out & and drops symbols and apostrophes', async () => {
    const cases: Array<[string, string]> = [
      [`${MARK} Crème Brûlée Ball`, `${MARK}-creme-brulee-ball`],
      [`${MARK} Bat & Ball (Size 5) — 100%!`, `${MARK}-bat-and-ball-size-5-100`],
      [`${MARK} Men's Straße Shoes`, `${MARK}-mens-strasse-shoes`],
      [`${MARK}   ÆØ Łódź  `, `${MARK}-aeo-lodz`],
    ];
    for (const [title, slug] of cases) expect((await addProduct(title)).slug).toBe(slug);
  });

  it('gives a title without Latin letters "product", and cuts long titles at a word', async () => {
    // CJK characters only (random, so the title is new): nothing Latin is left.
    const cjk = Array.from({ length: 6 }, () =>
      String.fromCodePoint(0x4e00 + Math.floor(Math.random() * 0x5000)),
    ).join('');
    const chinese = await addProduct(`足球 ${cjk}`);
    expect(chinese.slug).toMatch(/^product(-\d+)?$/);
    const long = await addProduct(`${MARK} ${'marathon '.repeat(10).trim()}`);
    expect(long.slug.length).toBeLessThanOrEqual(80);
    expect(long.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(long.slug.endsWith('-marathon')).toBe(true);
  });

  it('adds a suffix when two titles ask for the same slug', async () => {
    const first = await addProduct(`${MARK} Twin Ball!`);
    const second = await addProduct(`${MARK} Twin Ball?`);
    const third = await addProduct(`${MARK} Twin-Ball`);
    expect(first.slug).toBe(`${MARK}-twin-ball`);
    expect(second.slug).toBe(`${MARK}-twin-ball-2`);
    expect(third.slug).toBe(`${MARK}-twin-ball-3`);
  });

  it('ignores a slug sent by a client, on insert and on update', async () => {
    const { data, error } = await admin
      .from('products')
      .insert({ ...productFields(CAT, `${MARK} Typed Slug`), slug: 'chosen-by-hand' })
      .select('id, slug')
      .single();
    expect(error).toBeNull();
    expect(data!.slug).toBe(`${MARK}-typed-slug`);
    const update = await admin.from('products').update({ slug: 'hijack' }).eq('id', data!.id);
    expect(update.error).toBeNull();
    expect(await slugOf(data!.id)).toBe(`${MARK}-typed-slug`);
  });

  it('keeps the slug when a rename does not change it (case, punctuation)', async () => {
    const product = await addProduct(`${MARK} Quiet Rename`);
    await admin
      .from('products')
      .update({ title: `${MARK} QUIET rename!` })
      .eq('id', product.id);
    expect(await slugOf(product.id)).toBe(product.slug);
    expect(await page(product.slug)).toMatchObject({ status: 'found' });
  });

  it('redirects old slugs after renames, and a rename back makes the old slug current', async () => {
    const product = await addProduct(`${MARK} Old Name`);
    const rename = async (title: string) => {
      const { error } = await admin.from('products').update({ title }).eq('id', product.id);
      expect(error).toBeNull();
      return slugOf(product.id);
    };
    const second = await rename(`${MARK} New Name`);
    expect(second).toBe(`${MARK}-new-name`);
    expect(await page(product.slug)).toEqual({ status: 'moved', slug: second });
    expect(await page(second)).toMatchObject({ status: 'found', product: { id: product.id } });

    const third = await rename(`${MARK} Newest Name`);
    expect(await page(product.slug)).toEqual({ status: 'moved', slug: third });
    expect(await page(second)).toEqual({ status: 'moved', slug: third });

    // Another product cannot take an old slug: old links keep leading to the renamed product.
    const other = await addProduct(`${MARK} Old Name`);
    expect(other.slug).toBe(`${MARK}-old-name-2`);
    expect(await page(product.slug)).toEqual({ status: 'moved', slug: third });

    expect(await rename(`${MARK} New Name`)).toBe(second);
    expect(await page(second)).toMatchObject({ status: 'found' });
    expect(await page(third)).toEqual({ status: 'moved', slug: second });
  });

  it("forgets a deleted product's slugs: they answer missing", async () => {
    const product = await addProduct(`${MARK} Short Lived`);
    await admin
      .from('products')
      .update({ title: `${MARK} Shorter Lived` })
      .eq('id', product.id);
    const current = await slugOf(product.id);
    const { error } = await admin.from('products').delete().eq('id', product.id);
    expect(error).toBeNull();
    expect(await page(current)).toEqual({ status: 'missing' });
    expect(await page(product.slug)).toEqual({ status: 'missing' });
    const history = await service
      .from('product_slug_history')
      .select('slug')
      .eq('product_id', product.id);
    expect(history.data).toEqual([]);
  });

  it('lets nobody write the slug history but the trigger (service role included)', async () => {
    const product = await addProduct(`${MARK} Guarded`);
    await admin
      .from('products')
      .update({ title: `${MARK} Guarded Twice` })
      .eq('id', product.id);
    for (const client of [anonClient(), shopper, admin, service]) {
      const insert = await client
        .from('product_slug_history')
        .insert({ slug: uniqueId('forged').toLowerCase(), product_id: product.id });
      expect(insert.error?.code).toBe('42501');
      const update = await client
        .from('product_slug_history')
        .update({ product_id: product.id })
        .eq('slug', product.slug);
      expect(update.error?.code).toBe('42501');
      const remove = await client.from('product_slug_history').delete().eq('slug', product.slug);
      expect(remove.error?.code).toBe('42501');
    }
    expect(await page(product.slug)).toMatchObject({ status: 'moved' });
  });
});

describe('the server: product pages without JavaScript', () => {
  it('answers /p/<slug> with the content, canonical, Open Graph and JSON-LD', async () => {
    const product = await addProduct(`${MARK} Match Football`, '£24.99');
    const response = await get(`/p/${product.slug}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain(`<title>${MARK} Match Football | MAR Online.Store UK</title>`);
    expect(html).toContain(`<h1>${MARK} Match Football</h1>`);
    expect(html).toContain('£24.99');
    expect(html).toContain('Integration test product');
    expect(html).toContain(`<link rel="canonical" href="${SITE}/p/${product.slug}" />`);
    expect(html).toContain('<meta property="og:type" content="product" />');
    expect(html).toMatch(
      /<meta name="description" content="£24.99 · Integration test product" \/>/,
    );
    const jsonLd = JSON.parse(
      /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)![1]!,
    ) as Record<string, unknown>;
    expect(jsonLd).toMatchObject({
      '@type': 'Product',
      name: `${MARK} Match Football`,
      url: `${SITE}/p/${product.slug}`,
      offers: {
        '@type': 'Offer',
        price: '24.99',
        priceCurrency: 'GBP',
        url: 'https://shop.example.com/test',
        seller: { '@type': 'Organization', name: 'shop.example.com' },
      },
    });
    // An affiliate page claims nothing it does not know (docs/decisions/0210).
    expect(JSON.stringify(jsonLd)).not.toMatch(/availability|shippingDetails|MerchantReturn/);
    // The Buy Now is an ad, marked and "sponsored", under the disclosure line, without JavaScript.
    expect(html).toContain(
      '<a href="https://shop.example.com/test" target="_blank" rel="sponsored noopener noreferrer">Buy Now</a>',
    );
    expect(html).toContain('<strong>Ad</strong> shop.example.com</span>');
    expect(html).toMatch(
      /<strong>Ad:<\/strong> we earn a commission from the seller .*"\/how-we-earn"/,
    );
  });

  it('leaves the Offer out when the price has no number, and escapes markup in texts', async () => {
    const title = `${MARK} <script>alert(1)</script> Ball`;
    const product = await addProduct(title, 'Ask the seller');
    const html = await (await get(`/p/${product.slug}`)).text();
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const blocks = [
      ...html.matchAll(/<script type="application\/(?:ld\+)?json"[^>]*>(.*?)<\/script>/g),
    ];
    expect(blocks).toHaveLength(2);
    const jsonLd = JSON.parse(blocks[0]![1]!) as Record<string, unknown>;
    expect(jsonLd.name).toBe(title);
    expect(jsonLd).not.toHaveProperty('offers');
  });

  it('redirects an old slug with 301, and answers an unknown one with the 404 page', async () => {
    const product = await addProduct(`${MARK} Before Rename`);
    await admin
      .from('products')
      .update({ title: `${MARK} After Rename` })
      .eq('id', product.id);
    const moved = await get(`/p/${product.slug}`);
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(`/p/${MARK}-after-rename`);
    const body = await moved.text();
    expect(body).toContain(`<link rel="canonical" href="${SITE}/p/${MARK}-after-rename" />`);
    expect(body).toContain('http-equiv="refresh"');

    const missing = await get(`/p/${MARK}-never-was`);
    expect(missing.status).toBe(404);
    const html = await missing.text();
    expect(html).toContain('<h1>Oops! Page Not Found</h1>');
    expect(html).toContain('<meta name="robots" content="noindex" />');
    expect((await get('/p/%E0%A4%A')).status).toBe(404);
  });

  it('leaves other paths to the host', async () => {
    expect(await answerProductPages(new URL('/contact', SITE), options())).toBeNull();
    expect(await answerProductPages(new URL('/p/a/b', SITE), options())).toBeNull();
  });
});

describe('sitemap', () => {
  const productLocs = async () => {
    const index = await (await get('/sitemap.xml')).text();
    const files = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    expect(files[0]).toBe('/sitemap-pages.xml');
    const locs: string[] = [];
    for (const file of files.slice(1)) {
      const xml = await (await get(file)).text();
      locs.push(...[...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!));
    }
    return locs;
  };

  it('lists every product page, fresh after an add, a rename and a delete', async () => {
    // Other test files share the stack: check this file's products, all of them listed.
    const ours = await service.from('products').select('slug').eq('cat', CAT);
    const before = await productLocs();
    expect(ours.data!.length).toBeGreaterThan(5);
    for (const { slug } of ours.data as Array<{ slug: string }>) {
      expect(before).toContain(`${SITE}/p/${slug}`);
    }
    expect(new Set(before).size).toBe(before.length);

    const product = await addProduct(`${MARK} Sitemap Entry`);
    expect(await productLocs()).toContain(`${SITE}/p/${product.slug}`);

    await admin
      .from('products')
      .update({ title: `${MARK} Sitemap Renamed` })
      .eq('id', product.id);
    const renamed = await productLocs();
    expect(renamed).toContain(`${SITE}/p/${MARK}-sitemap-renamed`);
    expect(renamed).not.toContain(`${SITE}/p/${product.slug}`);

    await admin.from('products').delete().eq('id', product.id);
    const after = await productLocs();
    expect(after).not.toContain(`${SITE}/p/${MARK}-sitemap-renamed`);
  });

  it('lists more than the 1,000-row cap of PostgREST in one products file', async () => {
    const rows = Array.from({ length: 1001 }, (_, i) =>
      productFields(CAT, `${MARK} Bulk ${String(i).padStart(4, '0')}`),
    );
    const { error } = await service.from('products').insert(rows);
    expect(error).toBeNull();
    // Counted as the service role: anon reads products only through the RPCs (nothing is hidden
    // here, so both see the same catalogue).
    const { count } = await service.from('products').select('id', { count: 'exact', head: true });
    const locs = await productLocs();
    expect(locs.length).toBeGreaterThan(1001);
    // Other files may add or remove products meanwhile: allow their few.
    expect(Math.abs(locs.length - count!)).toBeLessThan(50);
    expect(locs).toContain(`${SITE}/p/${MARK}-bulk-1000`);
  });

  it('lists the static public pages, and robots.txt points at the sitemap', async () => {
    const pages = await (await get('/sitemap-pages.xml')).text();
    expect([...pages.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual(
      ['/', '/contact', '/about', '/policy', '/how-we-earn'].map((p) => `${SITE}${p}`),
    );
    const robots = await (await get('/robots.txt')).text();
    expect(robots).toMatch(new RegExp(`^Sitemap: ${SITE}/sitemap.xml$`, 'm'));
    expect(robots).toMatch(/^Disallow: \/admin$/m);
    // A products file past the end is not there.
    expect((await get('/sitemap-products-99.xml')).status).toBe(404);
  });
});
