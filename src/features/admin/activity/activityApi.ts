import { supabase } from '../../../lib/infra/supabase';
import { selectList, type Row } from '../../../lib/domain/tables';
import { texts } from '../../../adminTexts';

/** Entries per page: one keyset page of the log (id < cursor, newest first). */
export const ACTIVITY_PAGE_SIZE = 25;

export type ActivityKind = keyof typeof texts.activity.kind;
export const ACTIVITY_KINDS = Object.keys(texts.activity.kind) as ActivityKind[];

/** The admin filter's value for entries without a signed-in account (actor is null). */
export const SYSTEM_ACTOR = 'system';

export interface ActivityFilters {
  /** An admin's user id, SYSTEM_ACTOR, or null for anyone. */
  actor: string | null;
  kind: ActivityKind | null;
  productId: string | null;
}

export const NO_FILTERS: ActivityFilters = { actor: null, kind: null, productId: null };

const ENTRY_COLUMNS = [
  'id',
  'created_at',
  'actor',
  'actor_email',
  'kind',
  'product_id',
  'subject',
  'before',
  'after',
] as const;
export type ActivityEntry = Pick<Row<'activity_log'>, (typeof ENTRY_COLUMNS)[number]>;

export interface ActivityPage {
  entries: ActivityEntry[];
  /** The cursor for the next page, or null when this page is the last. */
  nextBefore: number | null;
}

/**
 * One page of the log, newest first, older than `before` (keyset paging: every page is an index
 * range scan however deep the admin scrolls). One extra row tells whether another page exists.
 * RLS returns rows to admins only.
 */
export async function fetchActivityPage(
  filters: ActivityFilters,
  before: number | null,
): Promise<ActivityPage> {
  let query = supabase.from('activity_log').select(selectList(ENTRY_COLUMNS));
  if (filters.actor === SYSTEM_ACTOR) query = query.is('actor', null);
  else if (filters.actor) query = query.eq('actor', filters.actor);
  if (filters.kind) query = query.eq('kind', filters.kind);
  if (filters.productId) query = query.eq('product_id', filters.productId);
  if (before !== null) query = query.lt('id', before);
  const { data, error } = await query
    .order('id', { ascending: false })
    .limit(ACTIVITY_PAGE_SIZE + 1);
  if (error) throw new Error(error.message);
  const entries = data.slice(0, ACTIVITY_PAGE_SIZE);
  const more = data.length > ACTIVITY_PAGE_SIZE;
  return { entries, nextBefore: more ? entries[entries.length - 1]!.id : null };
}

export interface AdminAccount {
  user_id: string;
  email: string;
  /** The display name, as the Admins tab shows it; null when the account has none. */
  name: string | null;
}

/**
 * The admins, for the "by admin" filter and to name each entry's admin (REQ-PATH-14): the same
 * admin_team() the Admins tab reads (admins only), sorted by the name shown.
 */
export async function listAdminAccounts(): Promise<AdminAccount[]> {
  const { data, error } = await supabase.rpc('admin_team');
  if (error) throw new Error(error.message);
  return (data as AdminAccount[])
    .map(({ user_id, email, name }) => ({ user_id, email, name }))
    .sort((a, b) => (a.name ?? a.email).localeCompare(b.name ?? b.email, 'en-GB'));
}

export function isActivityKind(kind: string): kind is ActivityKind {
  return Object.hasOwn(texts.activity.kind, kind);
}
