import { supabase } from '../../../lib/infra/supabase';
import {
  IMAGE_EXTENSIONS,
  PRODUCT_IMAGE_BUCKET,
  uploadedImage,
  uploadObjectPaths,
} from '../../../lib/domain/productImages';
import type { ResizedImage } from './resizeImage';

// Uploaded product pictures in Storage (issue 15): upload both widths, and remove an upload once
// no product uses it. Deletes go through the Storage API: hosted Supabase refuses direct deletes
// from storage.objects, and the API also removes the files themselves.

/** A year: every upload has a new name, so a file never changes under its URL. */
const CACHE_SECONDS = String(365 * 24 * 60 * 60);

const bucket = () => supabase.storage.from(PRODUCT_IMAGE_BUCKET);

/** Uploads both widths under a new folder; returns the large file's public URL. */
export async function uploadProductImage(image: ResizedImage): Promise<string> {
  const paths = uploadObjectPaths(crypto.randomUUID(), IMAGE_EXTENSIONS[image.type]);
  const options = { contentType: image.type, cacheControl: CACHE_SECONDS, upsert: false };
  const large = await bucket().upload(paths.large, image.large, options);
  if (large.error) throw large.error;
  const small = await bucket().upload(paths.small, image.small, options);
  if (small.error) {
    // Half an upload is of no use to anyone: take the large file back (best effort).
    await bucket().remove([paths.large]);
    throw small.error;
  }
  return bucket().getPublicUrl(paths.large).data.publicUrl;
}

/**
 * Removes the files of an uploaded picture unless some product still shows it (another product
 * may have been given the same URL). Links and site paths are left alone. Never throws: a file
 * left behind is found by `npm run images:orphans`, while a failed save must not follow from it.
 */
export async function releaseProductImage(url: string | null | undefined): Promise<void> {
  const upload = uploadedImage(url);
  if (!upload || !url) return;
  try {
    const { count, error } = await supabase
      .from('products')
      .select('id', { count: 'exact', head: true })
      .eq('image', url);
    if (error) throw error;
    if (count !== 0) return;
    const removed = await bucket().remove([upload.paths.large, upload.paths.small]);
    if (removed.error) throw removed.error;
  } catch (error) {
    console.error('Removing an unused product picture failed', error);
  }
}

/**
 * The image a product shows now (read before a change, to release it after); null when it cannot
 * be read: the change goes ahead and a file left behind is an orphan for the check to find.
 */
export async function currentProductImage(id: string): Promise<string | null> {
  try {
    const { data, error } = await supabase.from('products').select('image').eq('id', id).limit(1);
    if (error) throw error;
    return data[0]?.image ?? null;
  } catch (error) {
    console.error('Reading the product picture before a change failed', error);
    return null;
  }
}
