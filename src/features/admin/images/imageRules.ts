import { texts } from '../../../adminTexts';

// What an upload may be (REQ-IMG-1): the rules run before any work, each with its own message.

/** Larger files are refused before reading them (a phone photo is 2-6 MB). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Larger pictures are refused after reading the size: decoding them needs 160 MB and more. */
export const MAX_UPLOAD_PIXELS = 40_000_000;

const t = texts.productImages;

/** Why a chosen file cannot be used, judged by what the browser says about it; null if it may. */
export function fileRefusal(file: Pick<File, 'type' | 'size'>): string | null {
  if (!file.type.startsWith('image/')) return t.notAnImage;
  if (file.size > MAX_UPLOAD_BYTES) return t.tooLarge;
  return null;
}

/** The first bytes of the picture formats browsers decode (JPEG, PNG, GIF, WebP, BMP, ICO, TIFF). */
const SIGNATURES: [offset: number, bytes: number[]][] = [
  [0, [0xff, 0xd8, 0xff]],
  [0, [0x89, 0x50, 0x4e, 0x47]],
  [0, [0x47, 0x49, 0x46, 0x38]],
  [8, [0x57, 0x45, 0x42, 0x50]],
  [0, [0x42, 0x4d]],
  [0, [0x00, 0x00, 0x01, 0x00]],
  [0, [0x49, 0x49, 0x2a, 0x00]],
  [0, [0x4d, 0x4d, 0x00, 0x2a]],
  // ISO media (AVIF, HEIC): "ftyp" after the box size.
  [4, [0x66, 0x74, 0x79, 0x70]],
];

/**
 * REQ-PATH-13: whether a file's first bytes are a picture's. A text or PDF saved as "photo.jpg"
 * has an image type by its name and failed to decode with "this browser cannot read this
 * picture", which blamed the browser for a file that is no picture at all.
 */
export function looksLikePicture(head: Uint8Array): boolean {
  return SIGNATURES.some(([at, bytes]) => bytes.every((b, i) => head[at + i] === b));
}

/** Why a decoded picture cannot be used; null if it may. */
export function pixelRefusal(width: number, height: number): string | null {
  if (!(width > 0 && height > 0)) return t.cannotDecode;
  if (width * height > MAX_UPLOAD_PIXELS) return t.tooManyPixels;
  return null;
}

/** The size to draw a `width`×`height` picture at for a target width: never wider than it is. */
export function scaledSize(
  width: number,
  height: number,
  targetWidth: number,
): { width: number; height: number } {
  if (width <= targetWidth) return { width, height };
  return { width: targetWidth, height: Math.max(1, Math.round((height * targetWidth) / width)) };
}

/** A refusal the admin can act on (as opposed to a failure of the browser or the network). */
export class ImageRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageRefusedError';
  }
}
