import { supabase } from '../../../lib/infra/supabase';
import {
  IMAGE_EXTENSIONS,
  PRODUCT_IMAGE_BUCKET,
  uploadedImage,
  uploadObjectPaths,
} from '../../../lib/domain/productImages';
import type { ResizedImage } from './resizeImage';

// Uploaded product pictures in Storage (REQ-IMG-1, REQ-IMG-3): upload both widths, and remove an
// upload once no product uses it. Deletes go through the Storage API: hosted Supabase refuses
// direct deletes from storage.objects, and the API also removes the files themselves.

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
 * may have been given the same URL): a picture uploaded in the form and never saved. Links and
 * site paths are left alone. Never throws: a file left behind is found by `npm run
 * images:orphans`, while a failed save must not follow from it.
 */
export async function releaseProductImage(url: string | null | undefined): Promise<void> {
  if (!uploadedImage(url) || !url) return;
  try {
    const { count, error } = await supabase
      .from('products')
      .select('id', { count: 'exact', head: true })
      .eq('image', url);
    if (error) throw error;
    if (count === 0) await removeUnusedImage(url);
  } catch (error) {
    console.error('Removing an unused product picture failed', error);
  }
}

/**
 * Removes the files of an upload that the database said no product shows any more (a save's
 * "unused_image", docs/decisions/0223). Never throws, as above.
 */
export async function removeUnusedImage(url: string | null | undefined): Promise<void> {
  const upload = uploadedImage(url);
  if (!upload) return;
  try {
    const removed = await bucket().remove([upload.paths.large, upload.paths.small]);
    if (removed.error) throw removed.error;
  } catch (error) {
    console.error('Removing an unused product picture failed', error);
  }
}
