// The pure parts of the CDN bench (bench/cdn.ts, REQ-CDN-8): which shoppers come, in which
// order they do what, and the percentiles of their waits. No I/O here (tests/unit/cdn-replay.test.ts).

import { prng } from '../scripts/seed-bulk.ts';

// The seed-bulk script's PRNG: the same seed gives the same shoppers.
export { prng };

/**
 * Zipf-like popularity over n items (rank 0 the most popular): P(rank k) ∝ 1 / (k + 1)^s.
 * A cumulative table and a binary search: 100,000 items cost 800 kB once.
 */
export function zipfSampler(n: number, s: number, rand: () => number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) cdf[k] = sum += 1 / Math.pow(k + 1, s);
  return () => {
    const u = rand() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** The p-th percentile (0..100) by nearest rank; NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** One thing a shopper does after the home page. */
export type Step =
  | { kind: 'home' }
  | { kind: 'category'; cat: string }
  | { kind: 'more' }
  | { kind: 'product'; rank: number }
  | { kind: 'search'; q: string };

/** Shares of visits that do each thing (independent), and how many products at most. */
export interface Mix {
  category: number;
  more: number;
  product: number;
  maxProducts: number;
  search: number;
  /** Zipf exponent of product popularity. */
  zipf: number;
}

/**
 * Most visits look at the home page and leave; a third click a category, fewer than half open
 * a product or two, some search, a quarter of the listings get a Load more.
 */
export const DEFAULT_MIX: Mix = {
  category: 0.3,
  more: 0.25,
  product: 0.4,
  maxProducts: 3,
  search: 0.15,
  zipf: 1,
};

/** What shoppers of a sports shop type most (the popular head of the search log). */
export const COMMON_QUERIES = [
  'football',
  'running shoes',
  'tennis racket',
  'helmet',
  'gloves',
  'yoga mat',
  'golf balls',
  'goggles',
  'cricket bat',
  'water bottle',
  'junior',
  'boots',
  'kettlebell',
  'bike light',
  'swim cap',
  'pro',
] as const;

/**
 * n visits, each a list of steps starting with the home page. Categories and queries are
 * Zipf-popular too (a few are asked far more than the rest); products by rank in `products`.
 */
export function planVisits(
  n: number,
  opts: { categories: readonly string[]; products: number; seed: number; mix?: Mix },
): Step[][] {
  const mix = opts.mix ?? DEFAULT_MIX;
  const rand = prng(opts.seed);
  const product = zipfSampler(opts.products, mix.zipf, rand);
  const category = zipfSampler(opts.categories.length, 1, rand);
  const query = zipfSampler(COMMON_QUERIES.length, 1, rand);
  const visits: Step[][] = [];
  for (let v = 0; v < n; v++) {
    const steps: Step[] = [{ kind: 'home' }];
    // A Load more on the home page's own listing, or on the category's.
    if (rand() < mix.category) steps.push({ kind: 'category', cat: opts.categories[category()]! });
    if (rand() < mix.more) steps.push({ kind: 'more' });
    if (rand() < mix.search) steps.push({ kind: 'search', q: COMMON_QUERIES[query()]! });
    if (rand() < mix.product) {
      const count = 1 + Math.floor(rand() * mix.maxProducts);
      for (let i = 0; i < count; i++) steps.push({ kind: 'product', rank: product() });
    }
    visits.push(steps);
  }
  return visits;
}

/** How many visits do each kind of step, and the steps in all (for the report). */
export function mixSummary(visits: readonly Step[][]): Record<Step['kind'], number> {
  const out: Record<Step['kind'], number> = {
    home: 0,
    category: 0,
    more: 0,
    product: 0,
    search: 0,
  };
  for (const steps of visits) for (const s of steps) out[s.kind]++;
  return out;
}
