import type { PostgrestError } from '@supabase/supabase-js';
import { supabase } from '../../../lib/infra/supabase';
import { selectList, type Row } from '../../../lib/domain/tables';
import { check, DbError } from '../db';
import { siteOrigin, type SellerValues } from './sellerSchema';

/** What the Sellers tab shows and edits of a seller (public.sellers, REQ-OFF-1). */
const SELLER_COLUMNS = [
  'id',
  'name',
  'site',
  'host',
  'logo',
  'network',
  'affiliate_param',
  'affiliate_value',
  'updated_at',
] as const;
export type Seller = Pick<Row<'sellers'>, (typeof SELLER_COLUMNS)[number]>;
export type SellerWithCount = Seller & { offers: number };

const COLUMNS = selectList(SELLER_COLUMNS);

/** Every seller by name, with how many offers use it (an embedded count: one request). */
export async function listSellers(): Promise<SellerWithCount[]> {
  const rows = check(
    await supabase
      .from('sellers')
      .select(`${COLUMNS},offers(count)`)
      .order('name', { ascending: true })
      .retry(false),
  );
  return rows.map(({ offers, ...seller }) => ({
    ...seller,
    offers: (offers as unknown as { count: number }[])[0]?.count ?? 0,
  }));
}

/** The seller whose site has this host (the database's `host`), or null. */
export async function findSellerByHost(host: string): Promise<Seller | null> {
  const rows = check(await supabase.from('sellers').select(COLUMNS).eq('host', host).limit(1));
  return rows[0] ?? null;
}

/** The form's values as the table's columns: empty optional fields are null. */
function columns(v: SellerValues) {
  const optional = (s: string) => (s.trim() === '' ? null : s.trim());
  return {
    name: v.name.trim(),
    site: siteOrigin(v.site),
    logo: optional(v.logo),
    network: optional(v.network),
    affiliate_param: optional(v.affiliate_param),
    affiliate_value: optional(v.affiliate_value),
  };
}

function written(result: { data: Seller | null; error: PostgrestError | null }): Seller | null {
  if (result.error) throw new DbError(result.error);
  return result.data;
}

export async function addSeller(values: SellerValues): Promise<Seller> {
  const row = written(
    await supabase.from('sellers').insert(columns(values)).select(COLUMNS).single(),
  );
  if (!row) throw new Error('The database returned no seller');
  return row;
}

/** Writes only the version the list showed: null when someone changed or deleted it since. */
export async function updateSeller(
  id: string,
  loadedUpdatedAt: string,
  values: SellerValues,
): Promise<Seller | null> {
  return written(
    await supabase
      .from('sellers')
      .update(columns(values))
      .eq('id', id)
      .eq('updated_at', loadedUpdatedAt)
      .select(COLUMNS)
      .maybeSingle(),
  );
}

/** False when nothing was deleted; a seller that offers still use is refused (23503). */
export async function deleteSeller(id: string): Promise<boolean> {
  const rows = check(await supabase.from('sellers').delete().eq('id', id).select('id'));
  return rows.length > 0;
}

export type SellerChoice = Pick<Seller, 'id' | 'name' | 'host'>;

/** The sellers an offer may name, by name (the offers panel's select; no counting). */
export async function listSellerChoices(): Promise<SellerChoice[]> {
  return check(
    await supabase.from('sellers').select('id,name,host').order('name', { ascending: true }),
  );
}
