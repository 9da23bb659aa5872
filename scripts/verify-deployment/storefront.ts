// The storefront's reads, made the way the SPA makes them (src/features/storefront): the
// categories, the first page (public.storefront_page), a search (public.storefront_search) and a
// product page (public.product_page), all as an anonymous visitor. Read only.
import type { SupabaseClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import { fail, ok, skip, type Line } from './report.ts';

export interface SampleProduct {
  id: string;
  title: string;
  cat: string;
  price: string;
  com: string;
  image: string;
  link: string;
  slug: string;
}

const COLUMNS = 'id,title,cat,image,price,com,link,slug';
const PUSH = '`npx supabase db push` (README: Deploying to hosted Supabase, step 2)';

export async function checkStorefront(
  anon: SupabaseClient,
): Promise<{ lines: Line[]; product: SampleProduct | null }> {
  const lines: Line[] = [];
  // The one-row tables every page reads: the store settings (0211) and the banner and About text
  // (0212). Missing, the storefront shows the built-in defaults and the footer loses its details.
  for (const [table, column] of [
    ['store_settings', 'store_name'],
    ['storefront_content', 'slide_1_heading'],
  ] as const) {
    const row = await anon.from(table).select(column).single();
    lines.push(
      row.error
        ? fail(`storefront: ${table}`, row.error.message, PUSH)
        : ok(`storefront: ${table}`, 'the one row is readable by visitors'),
    );
  }
  const cats = await anon.from('catagories').select('id,title').order('title');
  lines.push(
    cats.error
      ? fail('storefront: categories', cats.error.message, PUSH)
      : ok('storefront: categories', `${cats.data.length} categories readable by visitors`),
  );

  const page = await anon.rpc('storefront_page', { p_limit: 25 }).select(COLUMNS);
  if (page.error) {
    lines.push(fail('storefront: first page (storefront_page)', page.error.message, PUSH));
    return { lines, product: null };
  }
  const rows = page.data as unknown as SampleProduct[];
  const product = rows[0] ?? null;
  if (!product) {
    lines.push(
      ok('storefront: first page (storefront_page)', 'answers, but the catalogue is empty'),
      skip('storefront: search, product page', 'no product to look for (add one, run again)'),
    );
    return { lines, product: null };
  }
  lines.push(ok('storefront: first page (storefront_page)', `${rows.length} products`));

  // Every word of the title must match: the product itself is among the results.
  const search = await anon
    .rpc('storefront_search', { p_query: product.title, p_sort: 'price-asc', p_limit: 100 })
    .select('id,title,created_at');
  if (search.error) {
    lines.push(fail('storefront: search (storefront_search)', search.error.message, PUSH));
  } else {
    const results = search.data as unknown as { id: string }[];
    const found = results.some((r) => r.id === product.id);
    lines.push(
      found
        ? ok('storefront: search (storefront_search)', `“${product.title}” finds it`)
        : fail(
            'storefront: search (storefront_search)',
            `searching “${product.title}” does not find it (${results.length} results)`,
            'the search words are rebuilt by migration …1900’s triggers: ' + PUSH,
          ),
    );
  }

  const found = await anon.rpc('product_page', { p_slug: product.slug });
  const missing = await anon.rpc('product_page', { p_slug: `no-such-product-${randomUUID()}` });
  const foundOk =
    !found.error &&
    (found.data as { status?: string; product?: { id?: string } })?.product?.id === product.id;
  const missingOk = !missing.error && (missing.data as { status?: string })?.status === 'missing';
  lines.push(
    foundOk && missingOk
      ? ok('storefront: product_page', `/${product.slug} found; an unknown slug is missing`)
      : fail(
          'storefront: product_page',
          found.error?.message ??
            missing.error?.message ??
            `answers ${JSON.stringify(found.data)} / ${JSON.stringify(missing.data)}`,
          PUSH,
        ),
  );
  // Offers (REQ-OFF-1, REQ-OFF-4): every product has its primary offer since migration …2800.
  const offers = await anon.rpc('product_offers', { p_product_id: product.id });
  const history = await anon.rpc('product_price_history', { p_product_id: product.id });
  const offerCount = Array.isArray(offers.data) ? offers.data.length : 0;
  lines.push(
    !offers.error && !history.error && offerCount > 0
      ? ok(
          'storefront: offers',
          `${offerCount} offer(s) for “${product.title}”; price history reads`,
        )
      : fail(
          'storefront: offers',
          offers.error?.message ?? history.error?.message ?? 'the product has no offer',
          PUSH,
        ),
  );
  return { lines, product };
}
