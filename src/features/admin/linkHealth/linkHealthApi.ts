import { supabase } from '../../../lib/infra/supabase';
import { DbError } from '../db';

/**
 * A link's confirmed state (public.link_checks.status): 'broken' only after two failed checks in
 * a row, 'failing' after one; 'blocked' = the seller's bot wall refused the checker (REQ-OFF-6).
 */
export type LinkStatus =
  'ok' | 'redirected' | 'failing' | 'broken' | 'blocked' | 'unreachable' | 'timed_out';

/** The table's link-health filter (the 'health' key of private.admin_product_filter). */
export type LinkHealthFilter =
  | 'attention'
  | 'broken'
  | 'failing'
  | 'blocked'
  | 'redirected'
  | 'unreachable'
  | 'ok'
  | 'unchecked';

/** One hop of the checker's redirect chain. */
export interface Hop {
  code: number | null;
  host: string;
}

export interface LinkCheck {
  product_id: string;
  kind: 'link' | 'image' | 'offer';
  url: string;
  status: LinkStatus;
  failures: number;
  http_code: number | null;
  final_url: string | null;
  detail: string | null;
  chain: Hop[];
  checked_at: string;
}

const CHECK_COLUMNS =
  'product_id,kind,url,status,failures,http_code,final_url,detail,chain,checked_at';

/** Worst first: what a product's badge shows when its link and image differ. */
export const SEVERITY: LinkStatus[] = [
  'broken',
  'failing',
  'redirected',
  'blocked',
  'unreachable',
  'timed_out',
  'ok',
];

export function worstOf(checks: LinkCheck[]): LinkCheck | null {
  return (
    [...checks].sort((a, b) => SEVERITY.indexOf(a.status) - SEVERITY.indexOf(b.status))[0] ?? null
  );
}

/** The latest checks of these products (admins only: RLS). */
export async function fetchLinkChecks(
  productIds: string[],
  signal?: AbortSignal,
): Promise<LinkCheck[]> {
  if (productIds.length === 0) return [];
  let request = supabase.from('link_checks').select(CHECK_COLUMNS).in('product_id', productIds);
  if (signal) request = request.abortSignal(signal);
  const { data, error } = await request;
  if (error) throw new DbError(error);
  return (data ?? []) as unknown as LinkCheck[];
}

export interface CheckAnswer {
  products: number;
  checked: number;
  counts: Record<LinkStatus, number>;
  next: string | null;
}

async function invoke(body: object): Promise<CheckAnswer> {
  const { data, error } = await supabase.functions.invoke<CheckAnswer>('link-health', { body });
  if (error) throw error;
  if (!data || typeof data.checked !== 'number') throw new Error('link-health gave no answer');
  return data;
}

/** Checks these products' link and image now ("Re-check"). */
export function recheckProducts(ids: string[]): Promise<CheckAnswer> {
  return invoke({ mode: 'products', ids });
}

/** Checks the next products by id after `after`, of one category or all ("Check all"). */
export function checkPage(
  after: string | null,
  limit: number,
  cat: string | null,
): Promise<CheckAnswer> {
  return invoke({ mode: 'page', after, limit, cat });
}

export async function fetchHideBroken(): Promise<boolean> {
  const { data, error } = await supabase
    .from('link_health_settings')
    .select('hide_broken_links')
    .maybeSingle();
  if (error) throw new DbError(error);
  return data?.hide_broken_links ?? false;
}

export async function saveHideBroken(hide: boolean): Promise<void> {
  const { data, error } = await supabase
    .from('link_health_settings')
    .update({ hide_broken_links: hide })
    .eq('id', true)
    .select('hide_broken_links');
  if (error) throw new DbError(error);
  if (!data || data.length !== 1) throw new Error('The setting was not saved');
}

export interface ProblemLink extends LinkCheck {
  url: string;
  products: { title: string } | null;
}

/** Links that need a look (broken, failing, redirected, blocked), worst first, newest first. */
export async function fetchProblemLinks(limit = 100): Promise<ProblemLink[]> {
  const { data, error } = await supabase
    .from('link_checks')
    .select(`${CHECK_COLUMNS},products(title)`)
    .in('status', ['broken', 'failing', 'redirected', 'blocked'])
    .order('checked_at', { ascending: false })
    .limit(limit);
  if (error) throw new DbError(error);
  const rows = (data ?? []) as unknown as ProblemLink[];
  return rows.sort((a, b) => SEVERITY.indexOf(a.status) - SEVERITY.indexOf(b.status));
}

/** A URL's host as the database compares acceptances (private.link_host). */
export function linkHost(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '') || null;
  } catch {
    return null;
  }
}

/**
 * Accepts a redirect as expected (admins only, RLS): for this product link (forgotten when the
 * link changes) or, with `hostPair`, for every link from the link's host to the final host.
 */
export async function acceptRedirect(check: LinkCheck, hostPair: boolean): Promise<void> {
  const toHost = check.final_url ? linkHost(check.final_url) : null;
  const fromHost = linkHost(check.url);
  if (!toHost || !fromHost) throw new Error('The redirect has no host to accept');
  const row: {
    from_host: string | null;
    product_id: string | null;
    url: string | null;
    to_host: string;
  } = hostPair
    ? { from_host: fromHost, product_id: null, url: null, to_host: toHost }
    : { from_host: null, product_id: check.product_id, url: check.url, to_host: toHost };
  const { error } = await supabase.from('link_redirect_acceptances').insert(row);
  // Accepted already (another admin, another tab): the same outcome.
  if (error && error.code !== '23505') throw new DbError(error);
}
