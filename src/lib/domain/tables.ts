import type { Database } from '../infra/database.types';

/**
 * The catalogue's row types and column lists, derived from the generated `Database` types
 * (`npm run db:types`). Column lists are typed: a misspelt or renamed column fails `tsc` here,
 * and postgrest-js infers each query's row type from the same list passed to `.select()`.
 */
type Tables = Database['public']['Tables'];
export type TableName = keyof Tables;
export type Row<T extends TableName> = Tables[T]['Row'];

export type ProductRow = Row<'products'>;
export type CategoryRow = Row<'catagories'>;

/** Joins column names into a select list whose type is the literal list ('id,title'). */
type Joined<C extends readonly string[]> = C extends readonly [infer Only extends string]
  ? Only
  : C extends readonly [infer First extends string, ...infer Rest extends readonly string[]]
    ? `${First},${Joined<Rest>}`
    : string;

/** A select list for `.select()`, typed so postgrest-js infers the row from it. */
export function selectList<const C extends readonly string[]>(columns: C): Joined<C> {
  return columns.join(',') as Joined<C>;
}

type ColumnsOf<T extends TableName> = readonly (keyof Row<T> & string)[];

/** The columns an admin edits (and a new product needs): the form's fields. */
export const PRODUCT_FIELDS = [
  'title',
  'cat',
  'price',
  'com',
  'image',
  'link',
] as const satisfies ColumnsOf<'products'>;
export type ProductFields = Pick<ProductRow, (typeof PRODUCT_FIELDS)[number]>;

/** Everything the admin area reads of a product (updated_at: the version Get loaded). */
export const ADMIN_PRODUCT_COLUMNS = [
  'id',
  ...PRODUCT_FIELDS,
  'created_at',
  'updated_at',
  'price_value',
  // When the shown price was last confirmed (the table's "Price checked", REQ-OFF-3).
  'price_checked_at',
  // The product page's address (made by the database; the export reads admin rows too).
  'slug',
] as const satisfies ColumnsOf<'products'>;
export type AdminProduct = Pick<ProductRow, (typeof ADMIN_PRODUCT_COLUMNS)[number]>;

export const ADMIN_CATEGORY_COLUMNS = [
  'id',
  'title',
  'created_at',
] as const satisfies ColumnsOf<'catagories'>;
export type AdminCategory = Pick<CategoryRow, (typeof ADMIN_CATEGORY_COLUMNS)[number]>;

/** What the storefront shows of a product: no timestamps; price_value for the paging cursor. */
export const STORE_PRODUCT_COLUMNS = [
  'id',
  'title',
  'cat',
  'image',
  'price',
  'price_value',
  'com',
  'link',
  'slug',
] as const satisfies ColumnsOf<'products'>;
export type StoreProduct = Pick<ProductRow, (typeof STORE_PRODUCT_COLUMNS)[number]>;

/** The offers summary the database keeps on a product, which a card shows (REQ-OFF-2, REQ-OFF-3). */
export const OFFER_SUMMARY_COLUMNS = [
  'offer_count',
  'price_checked_at',
  'buy_offer_id',
  'buy_link',
  'buy_seller',
] as const satisfies ColumnsOf<'products'>;

/** A catalogue card's columns: the product and its offers summary. */
export const CARD_PRODUCT_COLUMNS = [...STORE_PRODUCT_COLUMNS, ...OFFER_SUMMARY_COLUMNS] as const;
/** A card's product; without the summary (a row read before it existed) it shows as before. */
export type CardProduct = StoreProduct &
  Partial<Pick<ProductRow, (typeof OFFER_SUMMARY_COLUMNS)[number]>>;

/** The admin's Messages tab: a contact message and its delivery (not the sender's IP). */
export const ADMIN_MESSAGE_COLUMNS = [
  'id',
  'name',
  'email',
  'message',
  'created_at',
  'delivery_status',
  'attempts',
  'last_error',
  'sent_at',
  'is_read',
  'archived',
] as const satisfies ColumnsOf<'contact_messages'>;
export type ContactMessage = Pick<Row<'contact_messages'>, (typeof ADMIN_MESSAGE_COLUMNS)[number]>;

export const STORE_CATEGORY_COLUMNS = ['id', 'title'] as const satisfies ColumnsOf<'catagories'>;
export type StoreCategory = Pick<CategoryRow, (typeof STORE_CATEGORY_COLUMNS)[number]>;
