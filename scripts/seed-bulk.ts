// Fills the local database with N realistic products across the existing categories, for the
// performance figures (bench/run.ts) and for trying the storefront with a large catalogue.
//
//   npm run seed:bulk -- 10000              # the running `npm start` stack (.stack/data)
//   npm run seed:bulk -- 1000 --db-url postgres://…   # or DB_URL=… / STACK_DATA_DIR=…
//   npm run seed:bulk -- 0                  # only remove the bulk rows again
//   npm run seed:bulk -- 1000000 --offers 3  # 3 offers a product (seed-bulk-offers.ts)
//
// Bulk rows are recognisable by their seller link (https://bulk-seed.example.com/…); every run
// first deletes the rows an earlier run added, so N is the number of bulk rows afterwards. The
// demo products of supabase/seed.sql are left alone. Deterministic (seeded PRNG): the same N
// gives the same catalogue.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import type { ProductFields } from '../src/lib/domain/tables.ts';
import { DEFAULT_DATA_DIR, readState } from '../stack/stack.ts';
import {
  deleteBulkOffers,
  ensureBulkSellers,
  FAST_BATCH_SQL,
  hasOffers,
  SLOW_BATCH_SQL,
  staleDays,
} from './seed-bulk-offers.ts';

export const BULK_LINK_PREFIX = 'https://bulk-seed.example.com/';
/** Tables the fast path handles like products once offers exist (migration …2800). */
const OFFER_TABLES = ['public.offers', 'public.offer_price_history'];

/** Base products per category, with the seed's illustration for each (public/products). */
const BASES: Record<string, [string, string][]> = {
  Football: [
    ['Match Football', 'match-football'],
    ['Football Boots', 'football-boots'],
    ['Goalkeeper Gloves', 'goalkeeper-gloves'],
    ['Shin Guards', 'shin-guards'],
  ],
  Running: [
    ['Running Shoes', 'running-shoes'],
    ['Running Jacket', 'running-jacket'],
    ['Water Bottle', 'water-bottle'],
    ['Sports Watch', 'sports-watch'],
  ],
  Tennis: [
    ['Tennis Racket', 'tennis-racket'],
    ['Tennis Balls', 'tennis-balls'],
    ['Tennis Cap', 'tennis-cap'],
    ['Tennis Kit Bag', 'tennis-bag'],
  ],
  Cricket: [
    ['Cricket Bat', 'cricket-bat'],
    ['Cricket Ball', 'cricket-ball'],
    ['Batting Helmet', 'batting-helmet'],
    ['Batting Pads', 'batting-pads'],
  ],
  Cycling: [
    ['Cycling Helmet', 'cycling-helmet'],
    ['Bike Light Set', 'bike-lights'],
    ['Road Bike', 'road-bike'],
    ['Cycling Gloves', 'cycling-gloves'],
  ],
  Swimming: [
    ['Swimming Goggles', 'swim-goggles'],
    ['Swim Cap', 'swim-cap'],
    ['Kickboard', 'kickboard'],
    ['Swim Towel', 'swim-towel'],
  ],
  Fitness: [
    ['Dumbbell Pair', 'dumbbells'],
    ['Yoga Mat', 'yoga-mat'],
    ['Kettlebell', 'kettlebell'],
    ['Skipping Rope', 'skipping-rope'],
  ],
  Golf: [
    ['Golf Balls', 'golf-balls'],
    ['Golf Driver', 'golf-driver'],
    ['Golf Glove', 'golf-glove'],
    ['Golf Umbrella', 'golf-umbrella'],
  ],
};
const FALLBACK_BASES: [string, string][] = [['Training Kit', 'water-bottle']];

const ADJECTIVES = [
  'Pro',
  'Club',
  'Junior',
  'Elite',
  'Classic',
  'Lightweight',
  'All-Weather',
  'Training',
  'Academy',
  'Performance',
  'Tour',
  'Essential',
];
const COLOURS = ['Black', 'Navy', 'Red', 'White', 'Teal', 'Orange', 'Grey', 'Royal Blue'];
const COMMENTS = [
  'Built for weekly club sessions and match days alike, with materials chosen to last a full season.',
  'A dependable pick for beginners and improvers: comfortable, easy to care for and fairly priced.',
  'Tested by coaches in all weathers; stitched seams and a reinforced finish where wear is highest.',
  'Light, breathable and made to move with you, from the first warm-up to the final whistle.',
  'Trusted by UK clubs and schools; covered by the seller’s 12-month guarantee.',
];

/** Small seeded PRNG (mulberry32) so runs are reproducible (the CDN bench's shoppers too). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A bulk product: the fields an admin fills in. */
export type BulkProduct = ProductFields;

/** N products spread round-robin over the categories; titles unique (the database insists). */
export function makeBulkProducts(n: number, categories: string[]): BulkProduct[] {
  return Array.from(bulkProducts(n, categories));
}

/**
 * The same products one at a time, so a million never sit in memory at once. Every string is
 * already as the database stores it (plain ASCII, an en dash, no outer spaces: NFKC-stable), which
 * lets seedBulk skip the normalising triggers.
 */
export function* bulkProducts(n: number, categories: string[]): Generator<BulkProduct> {
  if (categories.length === 0) throw new Error('no categories: seed the database first');
  const rand = prng(20260101);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  for (let i = 0; i < n; i++) {
    const cat = categories[i % categories.length]!;
    const [base, image] = pick(BASES[cat] ?? FALLBACK_BASES);
    const serial = String(i + 1).padStart(5, '0');
    // Prices from £3 to about £900, skewed towards the cheap end like a real sports shop.
    const pounds = Math.floor(3 + 900 * rand() ** 3);
    const price = `£${pounds.toLocaleString('en-GB')}.${pick(['00', '49', '50', '95', '99'])}`;
    yield {
      title: `${pick(ADJECTIVES)} ${base} – ${pick(COLOURS)} (BK-${serial})`,
      cat,
      image: `/products/${image}.svg`,
      price,
      com: pick(COMMENTS),
      link: `${BULK_LINK_PREFIX}${cat.toLowerCase().replace(/[^a-z0-9]+/g, '-')}/bk-${serial}`,
    };
  }
}

/**
 * Replaces the earlier bulk rows with N new ones, each with `offers` offers (1: only the primary
 * offer, as the products trigger gives every product; more: scripts/seed-bulk-offers.ts); returns
 * the catalogue size afterwards.
 *
 * A million rows through the row triggers and the look-alike title index took about 9 minutes on
 * the 2-core machine (private.title_key costs ~0.14 ms a row). So, inside ONE transaction (other
 * sessions wait on the table lock and then see either the old or the new catalogue, never a
 * half-built one): the user triggers are switched off (the rows are generated already normalised:
 * see bulkProducts; ids and timestamps come from the column defaults; foreign keys still hold),
 * the secondary indexes are dropped and built again afterwards from their own definitions (a
 * sorted build instead of a million random inserts; `create unique index` re-checks uniqueness).
 * With offers, the same holds for public.offers and public.offer_price_history, and the products'
 * offer summary is written with the product (seed-bulk-offers.ts). Change logs (if any) do not
 * record seed rows. The figure is in bench/RESULTS.md.
 */
export async function seedBulk(
  dbUrl: string,
  n: number,
  log = (_: string) => {},
  offers = 1,
): Promise<number> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const withOffers = await hasOffers(client);
    if (offers !== 1 && !withOffers) throw new Error('--offers needs the offers migration');
    const tables = ['public.products', ...(withOffers ? OFFER_TABLES : [])];
    await client.query('begin');
    await client.query(`lock table ${tables.join(', ')} in access exclusive mode`);
    const cats = await client.query<{ title: string }>(
      'select title from public.catagories order by title',
    );
    // Small runs (tests) go through the triggers like any write; big ones take the fast path.
    const fast = n >= 20_000;
    // The slow path's primary offers come from the products trigger (which adds their seller).
    const sellers = withOffers && (fast || offers > 1) ? await ensureBulkSellers(client) : null;
    const stale = withOffers ? await staleDays(client) : 0;
    if (fast) {
      for (const t of tables) await client.query(`alter table ${t} disable trigger user`);
    }
    // Before the indexes go: the foreign keys' cascades look rows up by them. With the triggers
    // on, the offers go with their products (a primary offer cannot be deleted on its own).
    if (withOffers && fast) await deleteBulkOffers(client, BULK_LINK_PREFIX, log);
    const removed = await client.query('delete from public.products where link like $1', [
      `${BULK_LINK_PREFIX}%`,
    ]);
    log(`removed ${removed.rowCount} earlier bulk products`);
    const indexes = fast
      ? (
          await client.query<{ name: string; def: string }>(
            `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
               from pg_index i
              where i.indrelid = any($1::regclass[])
                and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
            [tables],
          )
        ).rows
      : [];
    for (const ix of indexes) await client.query(`drop index ${ix.name}`);
    const BATCH = 5000;
    let batch: BulkProduct[] = [];
    const flush = async () => {
      const col = (k: keyof BulkProduct) => batch.map((r) => r[k]);
      const cols = [col('title'), col('cat'), col('image'), col('price'), col('com'), col('link')];
      const offerParams = [offers, sellers?.primary, sellers?.ids, sellers?.sites];
      if (fast && withOffers) {
        await client.query(FAST_BATCH_SQL, [...cols, ...offerParams, stale]);
      } else {
        // unnest: one statement per batch, parameters as arrays (no SQL built from data).
        // The fast path skips the slug trigger too: the titles are ASCII with a unique serial, so
        // the trigger's slug is this expression (lower-case words joined by '-').
        await client.query(
          `insert into public.products (title, cat, image, price, com, link${fast ? ', slug' : ''})
           select t.*${fast ? ", btrim(regexp_replace(lower(t.title), '[^a-z0-9]+', '-', 'g'), '-')" : ''}
             from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
               as t (title, cat, image, price, com, link)`,
          cols,
        );
        if (withOffers && offers > 1)
          await client.query(SLOW_BATCH_SQL, [col('link'), ...offerParams]);
      }
      batch = [];
    };
    for (const row of bulkProducts(
      n,
      cats.rows.map((r) => r.title),
    )) {
      batch.push(row);
      if (batch.length === BATCH) await flush();
    }
    if (batch.length) await flush();
    if (fast) {
      log(`inserted ${n}; building ${indexes.length} indexes again`);
      // Two workers per build where the server allows them (the title_key index is the slow one).
      await client.query("set local maintenance_work_mem = '256MB'");
      await client.query('set local max_parallel_maintenance_workers = 2');
      for (const ix of indexes) {
        const t0 = performance.now();
        await client.query(ix.def);
        log(`  ${ix.name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      }
      for (const t of tables) await client.query(`alter table ${t} enable trigger user`);
      // The search's word list (kept by the triggers just skipped) is rebuilt in one pass.
      const t0 = performance.now();
      await client.query('select private.catalogue_words_rebuild()');
      log(`  catalogue_words: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    await client.query('commit');
    // Fresh statistics so the planner sees the new size straight away.
    for (const t of tables) await client.query(`analyze ${t}`);
    const total = await client.query<{ n: string }>('select count(*) as n from public.products');
    return Number(total.rows[0]!.n);
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

function dbUrlFromArgs(args: string[]): string {
  const i = args.indexOf('--db-url');
  if (i >= 0 && args[i + 1]) return args[i + 1]!;
  if (process.env.DB_URL) return process.env.DB_URL;
  const dataDir = path.resolve(process.env.STACK_DATA_DIR ?? DEFAULT_DATA_DIR);
  const state = readState(dataDir);
  if (!state) {
    throw new Error(`no running stack in ${dataDir}: run \`npm start\`, or pass --db-url / DB_URL`);
  }
  return state.env.DB_URL;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const n = Number(args.find((a, i) => /^\d+$/.test(a) && !args[i - 1]?.startsWith('--')));
  const o = args.indexOf('--offers');
  // `--offers` alone: 3; without it, 1 (the primary offer every product has).
  const offers = o < 0 ? 1 : /^\d+$/.test(args[o + 1] ?? '') ? Number(args[o + 1]) : 3;
  if (!Number.isInteger(n) || n < 0 || n > 1_000_000 || offers < 1 || offers > 8) {
    console.error('Usage: npm run seed:bulk -- <N> [--offers 1..8] [--db-url postgres://…]');
    process.exit(2);
  }
  const t0 = performance.now();
  const total = await seedBulk(dbUrlFromArgs(args), n, (l) => console.log(l), offers);
  console.log(
    `inserted ${n} bulk products (${offers} offers each) in ${((performance.now() - t0) / 1000).toFixed(1)} s; catalogue now has ${total}`,
  );
}
