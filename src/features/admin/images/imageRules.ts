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
