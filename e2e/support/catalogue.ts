// Test-data helpers for the catalogue (service role; each test uses its own category names).
import type { Locator, Page } from '@playwright/test';
import type { SupabaseClient } from '@supabase/supabase-js';
import { inStoreOrder } from '../../src/lib/domain/storeOrder.ts';
import type { ProductFields } from '../../src/lib/domain/tables.ts';

/** A product to insert: the fields an admin fills in. */
export type NewProduct = ProductFields;

export async function createCategory(db: SupabaseClient, title: string): Promise<void> {
  const { error } = await db.from('catagories').insert({ title });
  if (error) throw new Error(`insert category ${title}: ${error.message}`);
}

export async function insertProducts(db: SupabaseClient, rows: NewProduct[]): Promise<void> {
  const { error } = await db.from('products').insert(rows);
  if (error) throw new Error(`insert products: ${error.message}`);
}

/** Removes a test category and its products (products first: the FK restricts). */
export async function removeCategory(db: SupabaseClient, title: string): Promise<void> {
  const products = await db.from('products').delete().eq('cat', title);
  if (products.error) throw new Error(`delete products of ${title}: ${products.error.message}`);
  const category = await db.from('catagories').delete().eq('title', title);
  if (category.error) throw new Error(`delete category ${title}: ${category.error.message}`);
}

/** Titles in the store's order, straight from the database. */
export async function titlesInStoreOrder(db: SupabaseClient, cat?: string): Promise<string[]> {
  const titles: string[] = [];
  for (let from = 0; ; from += 1000) {
    let query = inStoreOrder(db.from('products').select('title')).range(from, from + 999);
    if (cat) query = query.eq('cat', cat);
    const { data, error } = await query;
    if (error) throw new Error(error.message);
    titles.push(...(data as { title: string }[]).map((r) => r.title));
    if (data.length < 1000) return titles;
  }
}

export function cards(page: Page): Locator {
  return page.getByTestId('product-card');
}

export async function cardTitles(page: Page): Promise<string[]> {
  return page.getByTestId('product-title').allTextContents();
}

/** The first number in a displayed price ("£1,249.00" → 1249), null when there is none. */
export function priceNumber(text: string): number | null {
  const match = /\d[\d,]*(?:\.\d+)?/.exec(text);
  return match ? Number(match[0].replace(/,/g, '')) : null;
}
