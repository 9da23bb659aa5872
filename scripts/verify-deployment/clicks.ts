// A Buy Now click, counted the way a shopper's browser counts it (public.count_buy_now_click),
// and the address the database sees for this caller (public.request_client_address, migration
// …2500). The click is real: it adds one to the product's count for today in Insights, once per
// address and product within 30 minutes (a second run within that window adds nothing: 'repeat').
// Counts cannot be removed through the API by design, so this is the one lasting change the
// check makes, and the table says so.
import { randomUUID } from 'node:crypto';
import { anonClient, BROWSER_USER_AGENT, FUNCTION_MISSING, type Options } from './context.ts';
import { fail, ok, skip, type Line } from './report.ts';
import type { SampleProduct } from './storefront.ts';

const PUSH = '`npx supabase db push` (README: Deploying to hosted Supabase, step 2)';
const ADDRESS_FIX =
  'the database must read the visitor’s address from the header the platform sets ' +
  '(docs/buy-now-clicks.md; docs/decisions/0200)';

export async function checkBuyNow(o: Options, product: SampleProduct | null): Promise<Line> {
  const check = 'Buy Now: a click is counted';
  if (!product) return skip(check, 'the catalogue is empty');
  const browser = anonClient(o, { 'User-Agent': BROWSER_USER_AGENT });
  const { data, error } = await browser.rpc('count_buy_now_click', {
    p_product_id: product.id,
    p_page: '/',
    p_page_view: randomUUID(),
  });
  if (error) return fail(check, `count_buy_now_click: ${error.message} (${error.code})`, PUSH);
  switch (data) {
    case 'counted':
      return ok(check, `counted: +1 click on “${product.title}” today (stays in Insights)`);
    case 'repeat':
      return ok(check, `repeat: this address counted it within 30 min, nothing added`);
    case 'limited':
      return ok(check, 'limited: this address is over its clicks a minute, nothing added');
    default:
      return fail(
        check,
        `answered ${JSON.stringify(data)} for a browser’s request`,
        'migration …1800’s is_counted_user_agent refuses browsers: ' + PUSH,
      );
  }
}

export async function checkClientAddress(o: Options): Promise<Line> {
  const check = 'Buy Now: address the database sees';
  const { data, error } = await anonClient(o).rpc('request_client_address');
  if (error?.code === FUNCTION_MISSING)
    return fail(
      check,
      'public.request_client_address() is missing',
      'apply migration …2500 (request_client_address): ' + PUSH,
    );
  if (error) return fail(check, `request_client_address: ${error.message}`, ADDRESS_FIX);
  const seen = String(data ?? '');
  if (seen === '') return fail(check, 'the database sees no address for this request', ADDRESS_FIX);
  if (o.expectAddress === null)
    return ok(check, `${seen} (compare with your own; --expect-address checks it)`);
  return seen === o.expectAddress
    ? ok(check, `${seen} = --expect-address`)
    : fail(check, `${seen}, but this caller is ${o.expectAddress}`, ADDRESS_FIX);
}
