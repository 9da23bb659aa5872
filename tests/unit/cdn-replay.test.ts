// The CDN bench's pure parts (bench/cdn-replay.ts, REQ-CDN-8): the shoppers' mix, the
// popularity of products and the percentiles the report gives.
import { describe, expect, it } from 'vitest';
import {
  COMMON_QUERIES,
  DEFAULT_MIX,
  mixSummary,
  percentile,
  planVisits,
  prng,
  zipfSampler,
} from '../../bench/cdn-replay';

describe('CDN bench replay (REQ-CDN-8)', () => {
  it('percentile is the nearest rank of the sorted values', () => {
    const xs = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(xs, 50)).toBe(5);
    expect(percentile(xs, 99)).toBe(10);
    expect(percentile(xs, 0)).toBe(1);
    expect(percentile([42], 99)).toBe(42);
    expect(percentile([], 50)).toBeNaN();
  });

  it('Zipf popularity: the first ranks are asked far more than the tail', () => {
    const draw = zipfSampler(100_000, 1, prng(1));
    const counts = new Map<number, number>();
    for (let i = 0; i < 20_000; i++) {
      const k = draw();
      expect(k).toBeGreaterThanOrEqual(0);
      expect(k).toBeLessThan(100_000);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    // Rank 0 is about twice rank 1 and ten times rank 9 (1/(k+1)).
    expect(counts.get(0)!).toBeGreaterThan(1.5 * (counts.get(1) ?? 0));
    expect(counts.get(0)!).toBeGreaterThan(5 * (counts.get(9) ?? 0));
    // And the long tail is still visited: many distinct products.
    expect(counts.size).toBeGreaterThan(3000);
  });

  it('every visit starts at the home page; the shares follow the mix; same seed, same plan', () => {
    const categories = ['Cricket', 'Football', 'Golf', 'Tennis'];
    const plan = planVisits(10_000, { categories, products: 1000, seed: 7 });
    expect(plan).toHaveLength(10_000);
    expect(plan.every((steps) => steps[0]!.kind === 'home')).toBe(true);
    const mix = mixSummary(plan);
    expect(mix.home).toBe(10_000);
    expect(mix.category / 10_000).toBeCloseTo(DEFAULT_MIX.category, 1);
    expect(mix.search / 10_000).toBeCloseTo(DEFAULT_MIX.search, 1);
    expect(mix.more / 10_000).toBeCloseTo(DEFAULT_MIX.more, 1);
    // 1..3 products in the visits that open any: 2 on average.
    expect(mix.product / 10_000).toBeCloseTo(DEFAULT_MIX.product * 2, 1);
    for (const steps of plan)
      for (const s of steps) {
        if (s.kind === 'category') expect(categories).toContain(s.cat);
        if (s.kind === 'search') expect(COMMON_QUERIES).toContain(s.q);
        if (s.kind === 'product') expect(s.rank).toBeLessThan(1000);
      }
    expect(planVisits(50, { categories, products: 1000, seed: 7 })).toEqual(plan.slice(0, 50));
  });
});
