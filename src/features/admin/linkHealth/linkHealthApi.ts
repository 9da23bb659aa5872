import { supabase } from '../../../lib/infra/supabase';
import { DbError } from '../db';

/** A check's verdict (public.link_checks.status). */
export type LinkStatus = 'ok' | 'redirected' | 'broken' | 'unreachable' | 'timed_out';

/** The table's link-health filter (the 'health' key of private.admin_product_filter). */
export type LinkHealthFilter =
  'attention' | 'broken' | 'redirected' | 'unreachable' | 'ok' | 'unchecked';

export interface LinkCheck {
  product_id: string;
  kind: 'link' | 'image';
  status: LinkStatus;
  http_code: number | null;
  final_url: string | null;
  detail: string | null;
  checked_at: string;
}

const CHECK_COLUMNS = 'product_id,kind,status,http_code,final_url,detail,checked_at';

/** Worst first: what a product's badge shows when its link and image differ. */
export const SEVERITY: LinkStatus[] = ['broken', 'redirected', 'unreachable', 'timed_out', 'ok'];

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
  return (data ?? []) as LinkCheck[];
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

/** Broken and redirected links, broken first, newest checks first (Insights). */
export async function fetchProblemLinks(limit = 100): Promise<ProblemLink[]> {
  const { data, error } = await supabase
    .from('link_checks')
    .select(`${CHECK_COLUMNS},url,products(title)`)
    .in('status', ['broken', 'redirected'])
    .order('status', { ascending: true })
    .order('checked_at', { ascending: false })
    .limit(limit);
  if (error) throw new DbError(error);
  return (data ?? []) as unknown as ProblemLink[];
}
