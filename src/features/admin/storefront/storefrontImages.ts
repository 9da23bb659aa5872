import { supabase } from '../../../lib/infra/supabase';
import { IMAGE_EXTENSIONS, IMAGE_WIDTHS } from '../../../lib/domain/productImages';
import type { ResizedImage } from '../images/resizeImage';

// The banner's pictures in Storage (docs/decisions/0212): the public bucket storefront-images,
// made and limited like product-images (migration …2610). The admin's browser prepares a picture
// as for a product (resizeImage: decoded, EXIF dropped, 1200 px WebP); the banner shows only
// the large width, so only that is stored.

export const STOREFRONT_IMAGE_BUCKET = 'storefront-images';

/** A year: every upload has a new name, so a file never changes under its URL. */
const CACHE_SECONDS = String(365 * 24 * 60 * 60);

const bucket = () => supabase.storage.from(STOREFRONT_IMAGE_BUCKET);

/** Uploads the picture under a new folder; returns its public URL. */
export async function uploadStorefrontImage(image: ResizedImage): Promise<string> {
  const path = `${crypto.randomUUID()}/${IMAGE_WIDTHS.large}.${IMAGE_EXTENSIONS[image.type]}`;
  const { error } = await bucket().upload(path, image.large, {
    contentType: image.type,
    cacheControl: CACHE_SECONDS,
    upsert: false,
  });
  if (error) throw error;
  return bucket().getPublicUrl(path).data.publicUrl;
}

/** The object name of an upload of this bucket (its public URL), or null for anything else. */
export function storefrontObjectPath(url: string): string | null {
  const prefix = bucket().getPublicUrl('x').data.publicUrl.slice(0, -1);
  if (!url.startsWith(prefix)) return null;
  const name = url.slice(prefix.length);
  return /^[0-9a-f-]{36}\/[0-9]+\.(webp|jpg|png)$/.test(name) ? name : null;
}

/**
 * Removes uploads no slide shows any more (replaced, or uploaded and then not saved). Never
 * throws: a file left behind costs only storage, while a save must not fail because of it.
 */
export async function releaseStorefrontImages(urls: string[], inUse: string[]): Promise<void> {
  const names = [
    ...new Set(
      urls.filter((url) => !inUse.includes(url)).flatMap((url) => storefrontObjectPath(url) ?? []),
    ),
  ];
  if (names.length === 0) return;
  try {
    const { error } = await bucket().remove(names);
    if (error) throw error;
  } catch (error) {
    console.error('Removing unused banner pictures failed', error);
  }
}
