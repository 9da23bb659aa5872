import { describe, expect, it } from 'vitest';
import {
  fileRefusal,
  MAX_UPLOAD_BYTES,
  MAX_UPLOAD_PIXELS,
  pixelRefusal,
  scaledSize,
} from '../../src/features/admin/images/imageRules';
import { uploadedImage, uploadObjectPaths } from '../../src/lib/domain/productImages';
import { texts } from '../../src/adminTexts';

const t = texts.productImages;

describe('upload refusal rules', () => {
  it('refuses a file that is not a picture, whatever its size', () => {
    expect(fileRefusal({ type: 'application/pdf', size: 1000 })).toBe(t.notAnImage);
    expect(fileRefusal({ type: 'text/html', size: 10 })).toBe(t.notAnImage);
    expect(fileRefusal({ type: '', size: 10 })).toBe(t.notAnImage);
  });

  it('takes a picture up to 10 MB and refuses one byte more', () => {
    expect(fileRefusal({ type: 'image/jpeg', size: MAX_UPLOAD_BYTES })).toBeNull();
    expect(fileRefusal({ type: 'image/jpeg', size: MAX_UPLOAD_BYTES + 1 })).toBe(t.tooLarge);
    expect(MAX_UPLOAD_BYTES).toBe(10 * 1024 * 1024);
  });

  it('takes up to 40 megapixels and refuses more', () => {
    expect(pixelRefusal(8000, 5000)).toBeNull();
    expect(MAX_UPLOAD_PIXELS).toBe(40_000_000);
    expect(pixelRefusal(8001, 5000)).toBe(t.tooManyPixels);
    expect(pixelRefusal(40_000_001, 1)).toBe(t.tooManyPixels);
  });

  it('treats a picture without a size as one the browser cannot read', () => {
    expect(pixelRefusal(0, 100)).toBe(t.cannotDecode);
    expect(pixelRefusal(100, Number.NaN)).toBe(t.cannotDecode);
  });

  it('scales down to the target width keeping the shape, and never scales up', () => {
    expect(scaledSize(4000, 3000, 1200)).toEqual({ width: 1200, height: 900 });
    expect(scaledSize(4000, 3000, 400)).toEqual({ width: 400, height: 300 });
    expect(scaledSize(800, 600, 1200)).toEqual({ width: 800, height: 600 });
    expect(scaledSize(1200, 10, 400)).toEqual({ width: 400, height: 3 });
    expect(scaledSize(100_000, 1, 400)).toEqual({ width: 400, height: 1 });
  });
});

describe('uploaded picture URLs', () => {
  const api = 'https://abc.supabase.co';
  const folder = '0b9d3c1e-5f2a-4c8e-9a7b-1d2e3f405060';
  const large = `${api}/storage/v1/object/public/product-images/${folder}/1200.webp`;

  it('finds both widths and object names of an upload on this store’s origin', () => {
    expect(uploadedImage(large, api)).toEqual({
      large,
      small: `${api}/storage/v1/object/public/product-images/${folder}/400.webp`,
      paths: uploadObjectPaths(folder, 'webp'),
    });
    expect(uploadObjectPaths(folder, 'jpg')).toEqual({
      large: `${folder}/1200.jpg`,
      small: `${folder}/400.jpg`,
    });
  });

  it('keeps a path prefix of the project URL', () => {
    const prefixed = 'http://127.0.0.1:8000/api';
    const url = `${prefixed}/storage/v1/object/public/product-images/${folder}/1200.jpg`;
    expect(uploadedImage(url, prefixed)?.small).toBe(
      `${prefixed}/storage/v1/object/public/product-images/${folder}/400.jpg`,
    );
  });

  it('leaves pasted links, site paths and look-alikes alone', () => {
    for (const url of [
      '/products/football.svg',
      'https://img.example.com/ball.png',
      large.replace(api, 'https://evil.example.com'),
      large.replace('1200.webp', '400.webp'),
      large.replace('product-images', 'other-bucket'),
      large.replace(folder, '../secret'),
      `${large}?x=1`,
      `${large}#x`,
      large.replace('.webp', '.svg'),
      'not a url',
    ]) {
      expect(uploadedImage(url, api), url).toBeNull();
    }
    expect(uploadedImage(large, undefined)).toBeNull();
    expect(uploadedImage(null, api)).toBeNull();
  });
});
