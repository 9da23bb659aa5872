import { IMAGE_WIDTHS, type StoredImageType } from '../../../lib/domain/productImages';
import { texts } from '../../../adminTexts';
import {
  fileRefusal,
  ImageRefusedError,
  looksLikePicture,
  pixelRefusal,
  scaledSize,
} from './imageRules';

// The admin's browser turns a chosen picture into the stored files (decision 0110): decoded, drawn
// on a canvas at 1200 px and 400 px wide and encoded as WebP. Drawing on a canvas keeps only the
// pixels, so EXIF (GPS position, camera, time) never leaves the admin's device.

/** WebP quality: photos look the same as at 0.9 and are about a third smaller. */
const QUALITY = 0.82;

export interface ResizedImage {
  type: StoredImageType;
  large: Blob;
  small: Blob;
  /** The large file's size in pixels. */
  width: number;
  height: number;
}

type Drawable = ImageBitmap | HTMLCanvasElement;

function drawAt(source: Drawable, width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('The browser gave no 2D canvas');
  context.imageSmoothingEnabled = true;
  context.imageSmoothingQuality = 'high';
  context.drawImage(source, 0, 0, width, height);
  return canvas;
}

/**
 * Scales down in halving steps, then once to the exact size: one big step samples too few source
 * pixels and aliases (moiré on fabrics and nets); halving keeps every pixel in the average.
 */
function scaleTo(source: ImageBitmap, width: number, height: number): HTMLCanvasElement {
  let current: Drawable = source;
  while (current.width / 2 >= width && current.height / 2 >= 1) {
    current = drawAt(current, Math.round(current.width / 2), Math.round(current.height / 2));
  }
  return drawAt(current, width, height);
}

function toBlob(canvas: HTMLCanvasElement, type: string): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, type, QUALITY));
}

/** WebP where the browser encodes it; JPEG otherwise (older Safari returns PNG for WebP). */
async function encode(canvas: HTMLCanvasElement): Promise<{ type: StoredImageType; blob: Blob }> {
  const webp = await toBlob(canvas, 'image/webp');
  if (webp?.type === 'image/webp') return { type: 'image/webp', blob: webp };
  const jpeg = await toBlob(canvas, 'image/jpeg');
  if (jpeg?.type === 'image/jpeg') return { type: 'image/jpeg', blob: jpeg };
  throw new Error('The browser could not encode the picture');
}

async function decode(file: Blob): Promise<ImageBitmap> {
  try {
    // Turned as the camera's orientation tag says, before the tag is dropped with the rest.
    return await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    throw new ImageRefusedError(texts.productImages.cannotDecode);
  }
}

/**
 * The large and small files of an upload. Throws ImageRefusedError with the message to show for
 * a file that is not a usable picture.
 */
export async function resizeImage(file: File): Promise<ResizedImage> {
  const refusal = fileRefusal(file);
  if (refusal) throw new ImageRefusedError(refusal);
  // A file named like a picture whose bytes are no picture's is named as such (REQ-PATH-13).
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  if (!looksLikePicture(head)) throw new ImageRefusedError(texts.productImages.notAnImage);
  const bitmap = await decode(file);
  try {
    const tooBig = pixelRefusal(bitmap.width, bitmap.height);
    if (tooBig) throw new ImageRefusedError(tooBig);
    const largeSize = scaledSize(bitmap.width, bitmap.height, IMAGE_WIDTHS.large);
    const smallSize = scaledSize(bitmap.width, bitmap.height, IMAGE_WIDTHS.small);
    const large = await encode(scaleTo(bitmap, largeSize.width, largeSize.height));
    const small = await encode(scaleTo(bitmap, smallSize.width, smallSize.height));
    // Both files of one upload share a type, so one URL shape finds the other width.
    if (small.type !== large.type)
      throw new Error('The browser encoded the two widths differently');
    return { type: large.type, large: large.blob, small: small.blob, ...largeSize };
  } finally {
    bitmap.close();
  }
}
