// Image bytes of the home page (REQ-IMG-4), part of `npm run bench -- --only home`: the seed
// catalogue as it is (SVG illustrations in public/products/), then with every seed picture
// uploaded the way the product form stores it (WebP, 1200 and 400 px wide), so the cards load
// the 400 px file through srcset. Also what the same cards would cost without srcset (the 1200 px
// files). Bytes are response bodies as received (Storage and Vite serve them uncompressed).
// The uploads stay: the bench stack is thrown away, and the later parts then see them too.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import sharp from 'sharp';
import { nodeClient } from '../stack/client.ts';
import type { StackEnv } from '../stack/stack.ts';
import {
  IMAGE_WIDTHS,
  PRODUCT_IMAGE_BUCKET,
  uploadedImage,
  uploadObjectPaths,
} from '../src/lib/domain/productImages.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The product form's WebP quality (src/features/admin/images/resizeImage.ts). */
const QUALITY = 82;
const VIEWPORTS = [
  { name: 'phone 375 px', width: 375, height: 812, deviceScaleFactor: 3 },
  { name: 'desktop 1280 px', width: 1280, height: 800, deviceScaleFactor: 1 },
] as const;

type Row = (section: string, measure: string, value: string) => void;
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

/** Bytes and URLs of every picture the home page loads once scrolled to the end of page one. */
async function homeImages(browser: Browser, appUrl: string, viewport: (typeof VIEWPORTS)[number]) {
  const context = await browser.newContext({
    viewport: { width: viewport.width, height: viewport.height },
    deviceScaleFactor: viewport.deviceScaleFactor,
  });
  const page = await context.newPage();
  const loaded = new Map<string, number>();
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'image') return;
    void response.body().then(
      (body) => loaded.set(response.url(), body.length),
      () => {},
    );
  });
  await page.goto(appUrl);
  await page.getByTestId('product-card').first().waitFor();
  // Lazy pictures load as they come near: scroll through the first page of cards.
  for (const card of await page.getByTestId('product-card').all())
    await card.scrollIntoViewIfNeeded();
  await page.waitForLoadState('networkidle');
  await context.close();
  return loaded;
}

const productBytes = (loaded: Map<string, number>) =>
  [...loaded].filter(([url]) => !url.includes('/banners/')).reduce((sum, [, n]) => sum + n, 0);

/** Uploads every seed product's picture as the form would and points the product at it. */
async function uploadSeedPictures(env: StackEnv): Promise<Map<string, number>> {
  const db = nodeClient(env.API_URL, env.SERVICE_ROLE_KEY);
  const { data, error } = await db
    .from('products')
    .select('id, image')
    .like('image', '/products/%');
  if (error) throw error;
  const largeBytes = new Map<string, number>(); // small URL → its large file's size
  for (const product of data as { id: string; image: string }[]) {
    const svg = readFileSync(path.join(ROOT, 'public', product.image));
    const paths = uploadObjectPaths(randomUUID(), 'webp');
    const encode = (width: number) =>
      sharp(svg, { density: 300 })
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: QUALITY })
        .toBuffer();
    for (const [name, width] of [
      [paths.large, IMAGE_WIDTHS.large],
      [paths.small, IMAGE_WIDTHS.small],
    ] as const) {
      const up = await db.storage
        .from(PRODUCT_IMAGE_BUCKET)
        .upload(name, await encode(width), { contentType: 'image/webp', cacheControl: '31536000' });
      if (up.error) throw up.error;
    }
    const url = db.storage.from(PRODUCT_IMAGE_BUCKET).getPublicUrl(paths.large).data.publicUrl;
    const upload = uploadedImage(url, env.API_URL);
    if (!upload) throw new Error(`not an upload URL: ${url}`);
    const large = await db.storage.from(PRODUCT_IMAGE_BUCKET).download(paths.large);
    if (large.error) throw large.error;
    largeBytes.set(upload.small, large.data.size);
    const updated = await db.from('products').update({ image: url }).eq('id', product.id);
    if (updated.error) throw updated.error;
  }
  return largeBytes;
}

export async function imageBytesPart(
  env: StackEnv,
  appUrl: string,
  row: Row,
  chromiumPath?: string,
) {
  const browser = await chromium.launch({ executablePath: chromiumPath });
  try {
    const before = await Promise.all(VIEWPORTS.map((v) => homeImages(browser, appUrl, v)));
    const largeOf = await uploadSeedPictures(env);
    for (const [i, viewport] of VIEWPORTS.entries()) {
      const after = await homeImages(browser, appUrl, viewport);
      const cards = [...after.keys()].filter((url) => largeOf.has(url));
      const without = cards.reduce((sum, url) => sum + largeOf.get(url)!, 0);
      const where = `home, ${viewport.name} (DPR ${viewport.deviceScaleFactor})`;
      row('images', `${where}: product pictures, seed SVGs`, kB(productBytes(before[i]!)));
      row(
        'images',
        `${where}: product pictures, uploaded WebP with srcset`,
        kB(productBytes(after)),
      );
      row('images', `${where}: the same cards with the 1200 px files (no srcset)`, kB(without));
    }
  } finally {
    await browser.close();
  }
}
