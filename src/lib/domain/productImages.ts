// The shape of an uploaded product picture's public URL, shared by the storefront (srcset) and the
// admin (clean-up, orphans). Kept free of supabase-js so the storefront bundle does not grow.

/** The public Storage bucket of uploaded product pictures (created by a migration). */
export const PRODUCT_IMAGE_BUCKET = 'product-images';

/** The widths every upload is stored in: large for big views, small for catalogue cards. */
export const IMAGE_WIDTHS = { large: 1200, small: 400 } as const;

/** File types an upload is stored as: WebP, or JPEG where the browser cannot encode WebP. */
export const IMAGE_EXTENSIONS = { 'image/webp': 'webp', 'image/jpeg': 'jpg' } as const;
export type StoredImageType = keyof typeof IMAGE_EXTENSIONS;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const PUBLIC_PATH = new RegExp(
  `^/storage/v1/object/public/${PRODUCT_IMAGE_BUCKET}/(${UUID})/${IMAGE_WIDTHS.large}\\.(webp|jpg)$`,
);

/** The build's Supabase URL; undefined outside Vite (the Node scripts pass theirs). */
function storeSupabaseUrl(): string | undefined {
  const env = import.meta.env as Partial<ImportMetaEnv> | undefined;
  return env?.VITE_SUPABASE_URL;
}

/** The object names of one upload in the bucket: `<uuid>/1200.webp` and `<uuid>/400.webp`. */
export function uploadObjectPaths(
  folder: string,
  extension: string,
): { large: string; small: string } {
  return {
    large: `${folder}/${IMAGE_WIDTHS.large}.${extension}`,
    small: `${folder}/${IMAGE_WIDTHS.small}.${extension}`,
  };
}

export interface UploadedImage {
  /** Public URLs of both widths. */
  large: string;
  small: string;
  /** Object names of both widths in the bucket. */
  paths: { large: string; small: string };
}

/**
 * The upload a product's image URL points at, or null for anything else (a pasted link, a site
 * path). Only URLs on this store's own Supabase origin count: a look-alike path on another host
 * is someone else's file and is shown as a plain link.
 */
export function uploadedImage(
  url: string | null | undefined,
  supabaseUrl: string | undefined = storeSupabaseUrl(),
): UploadedImage | null {
  if (!url || !supabaseUrl) return null;
  let parsed: URL;
  let base: URL;
  try {
    parsed = new URL(url);
    base = new URL(supabaseUrl);
  } catch {
    return null;
  }
  if (parsed.origin !== base.origin || parsed.search || parsed.hash) return null;
  // A project URL may carry a path prefix (a proxy); the object path follows it.
  const prefix = base.pathname.replace(/\/+$/, '');
  if (!parsed.pathname.startsWith(`${prefix}/`)) return null;
  const match = PUBLIC_PATH.exec(parsed.pathname.slice(prefix.length));
  if (!match) return null;
  const [, folder = '', extension = ''] = match;
  const paths = uploadObjectPaths(folder, extension);
  const dir = parsed.href.slice(0, parsed.href.lastIndexOf('/') + 1);
  return { large: parsed.href, small: `${dir}${IMAGE_WIDTHS.small}.${extension}`, paths };
}
