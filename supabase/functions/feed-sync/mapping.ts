// Column mappings: which feed column fills which staged field (REQ-FEED-1). Presets for Awin
// CSV and Google Merchant; a suggestion for the preview from a file's header names.

export const FIELDS = [
  'id',
  'gtin',
  'title',
  'link',
  'price',
  'sale_price',
  'currency',
  'delivery',
  'availability',
  'image',
  'brand',
] as const;
export type Field = (typeof FIELDS)[number];
export type Mapping = Partial<Record<Field, string>>;
export type StagedRow = { line: number } & Partial<Record<Field, string>>;
export type Format = 'csv' | 'tsv' | 'google_xml' | 'google_tsv' | 'awin_csv';

export const AWIN_PRESET: Mapping = {
  id: 'merchant_product_id',
  gtin: 'ean',
  title: 'product_name',
  link: 'aw_deep_link',
  price: 'search_price',
  currency: 'currency',
  delivery: 'delivery_cost',
  availability: 'in_stock',
  image: 'merchant_image_url',
  brand: 'brand_name',
};

/** Google Merchant attribute names (without the g: prefix); shipping's price is delivery. */
export const GOOGLE_PRESET: Mapping = {
  id: 'id',
  gtin: 'gtin',
  title: 'title',
  link: 'link',
  price: 'price',
  sale_price: 'sale_price',
  availability: 'availability',
  image: 'image_link',
  brand: 'brand',
  delivery: 'shipping',
};

/** The mapping a run uses: the format's preset, with the source's own entries over it. */
export function effectiveMapping(format: Format, own: Mapping): Mapping {
  if (format === 'google_xml') return GOOGLE_PRESET;
  if (format === 'google_tsv') return { ...GOOGLE_PRESET, ...own };
  if (format === 'awin_csv') return { ...AWIN_PRESET, ...own };
  return own;
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/^g:/, '')
    .replace(/[^a-z0-9]/g, '');

/** Header names that usually carry a field, best first. */
const SYNONYMS: Record<Field, string[]> = {
  id: ['id', 'merchantproductid', 'sku', 'productid', 'itemid', 'awproductid'],
  gtin: ['gtin', 'ean', 'upc', 'barcode', 'gtin13', 'isbn'],
  title: ['title', 'productname', 'name'],
  link: ['link', 'awdeeplink', 'url', 'producturl', 'deeplink', 'merchantdeeplink'],
  price: ['price', 'searchprice', 'storeprice', 'displayprice'],
  sale_price: ['saleprice'],
  currency: ['currency'],
  delivery: ['shipping', 'deliverycost', 'delivery', 'shippingcost'],
  availability: ['availability', 'instock', 'stock', 'stockstatus'],
  image: ['imagelink', 'merchantimageurl', 'image', 'imageurl', 'awimageurl'],
  brand: ['brand', 'brandname', 'manufacturer'],
};

/** A mapping from header names (the preview's suggestion; the admin confirms it). */
export function suggestMapping(columns: string[], format: Format): Mapping {
  const out: Mapping = {};
  const byNorm = new Map(columns.map((c) => [norm(c), c]));
  const preset =
    format === 'awin_csv' ? AWIN_PRESET : format.startsWith('google') ? GOOGLE_PRESET : {};
  for (const f of FIELDS) {
    const p = preset[f];
    if (p && byNorm.has(norm(p))) {
      out[f] = byNorm.get(norm(p));
      continue;
    }
    const hit = SYNONYMS[f].find((s) => byNorm.has(s));
    if (hit) out[f] = byNorm.get(hit);
  }
  return out;
}

/** A record's values by column name: an XML item's Map, or a CSV row read through its header. */
export interface RecordValues {
  get(column: string): string | undefined;
}

/** A staged row from one record (header name -> value); values trimmed, empty = absent. */
export function mapRecord(line: number, record: RecordValues, mapping: Mapping): StagedRow {
  const row: StagedRow = { line };
  for (const f of FIELDS) {
    const col = mapping[f];
    if (!col) continue;
    const v = record.get(col)?.trim();
    if (v) row[f] = v;
  }
  return row;
}
