// Visitors for the Buy Now click tests: supabase-js clients that send a browser's (or a bot's)
// User-Agent and leave from a loopback address of their own, so each is a separate source to
// the per-source limit (the gateway takes the address from the socket; decision 0020).
import type { SupabaseClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import { nodeClient } from '../../stack/client.ts';
import { fetchFrom, randomLoopbackIp } from '../support/loopback.ts';
import { sql, stackEnv } from '../support/stack.ts';

export const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';
export const BOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

export interface Visitor {
  client: SupabaseClient;
  ip: string;
  userAgent: string;
}

/**
 * An anonymous visitor with its own address; `token` signs it in (a shopper or an admin).
 * `extra.ip` reuses an address, `extra.headers` adds headers (made-up address headers).
 */
export function visitor(
  userAgent = BROWSER_UA,
  token?: string,
  extra: { ip?: string; headers?: Record<string, string> } = {},
): Visitor {
  const env = stackEnv();
  const ip = extra.ip ?? randomLoopbackIp();
  const headers: Record<string, string> = { ...extra.headers, 'User-Agent': userAgent };
  if (token) headers.Authorization = `Bearer ${token}`;
  return {
    client: nodeClient(env.API_URL, env.ANON_KEY, { headers, fetch: fetchFrom(ip) }),
    ip,
    userAgent,
  };
}

export interface ClickArgs {
  p_product_id: string;
  p_page: string;
  p_page_view: string;
  /** The offer whose Buy Now was clicked (REQ-OFF-2); none: the product's card. */
  p_offer_id?: string;
}

export async function click(v: Visitor, args: ClickArgs) {
  return v.client.rpc('count_buy_now_click', { ...args });
}

/** A click's arguments: a new page view (a new page load) unless one is given. */
export const args = (productId: string, pageView = randomUUID(), page = '/'): ClickArgs => ({
  p_product_id: productId,
  p_page: page,
  p_page_view: pageView,
});

/** The product's clicks, as the database holds them (read as the owner). */
export async function clicksOf(productId: string): Promise<number> {
  const rows = await sql<{ n: string }>(
    `select coalesce(sum(clicks), 0) as n from public.buy_now_clicks_by_product
      where product_id = $1`,
    [productId],
  );
  return Number(rows[0]!.n);
}
