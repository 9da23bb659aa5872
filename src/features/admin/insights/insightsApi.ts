import { supabase } from '../../../lib/infra/supabase';

/** The periods the tab offers, in days (today included). */
export const INSIGHT_PERIODS = [7, 30, 90] as const;
export type InsightPeriod = (typeof INSIGHT_PERIODS)[number];

/** Rows the tab shows of each list; the CSV export pages through all of them. */
export const TOP_LIMIT = 20;
export const UNCLICKED_LIMIT = 50;
/** PostgREST's max rows: one export request reads at most this many. */
export const EXPORT_PAGE_SIZE = 1000;

export interface DayClicks {
  day: string;
  clicks: number;
}
export interface ProductClicks {
  product_id: string;
  title: string;
  category: string;
  clicks: number;
}
export interface CategoryClicks {
  category: string;
  clicks: number;
}
export interface UnclickedProducts {
  products: { product_id: string; title: string; category: string }[];
  /** How many products had no clicks in all (the list stops at UNCLICKED_LIMIT). */
  total: number;
}

export interface ClickInsights {
  days: InsightPeriod;
  perDay: DayClicks[];
  total: number;
  topProducts: ProductClicks[];
  topCategories: CategoryClicks[];
  unclicked: UnclickedProducts;
}

function must<T>(result: { data: T | null; error: { message: string } | null }): T {
  if (result.error) throw new Error(result.error.message);
  return result.data ?? ([] as T);
}

/** Products by clicks in the period, most first, `limit` from `offset` (admins only). */
export async function fetchTopProducts(
  days: InsightPeriod,
  limit: number,
  offset: number,
): Promise<ProductClicks[]> {
  return must(
    await supabase.rpc('insights_top_products', {
      p_days: days,
      p_limit: limit,
      p_offset: offset,
    }),
  );
}

/**
 * Everything the tab shows for a period, in four requests at once. The database refuses anyone
 * but an admin (42501), which arrives here as an error.
 */
export async function fetchClickInsights(days: InsightPeriod): Promise<ClickInsights> {
  const [perDay, topProducts, topCategories, unclicked] = await Promise.all([
    supabase.rpc('insights_clicks_per_day', { p_days: days }).then(must),
    fetchTopProducts(days, TOP_LIMIT, 0),
    supabase.rpc('insights_top_categories', { p_days: days, p_limit: TOP_LIMIT }).then(must),
    supabase
      .rpc('insights_products_without_clicks', { p_days: days, p_limit: UNCLICKED_LIMIT })
      .then(must),
  ]);
  return {
    days,
    perDay,
    total: perDay.reduce((sum, d) => sum + d.clicks, 0),
    topProducts,
    topCategories,
    unclicked: {
      products: unclicked.map(({ product_id, title, category }) => ({
        product_id,
        title,
        category,
      })),
      total: unclicked[0]?.total ?? 0,
    },
  };
}
