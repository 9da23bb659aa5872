// REQ-IMG-1 to REQ-IMG-4: pictures uploaded in the product form, against the real local stack and
// its Storage service. The browser resizes to WebP and drops EXIF; the stored bytes are read back
// to prove it.
import type { Locator, Page } from '@playwright/test';
import { PRODUCT_IMAGE_BUCKET, uploadedImage } from '../src/lib/domain/productImages.ts';
import { texts } from '../src/adminTexts.ts';
import { findOrphans } from '../scripts/images-orphans.ts';
import { demoAccounts, expect, test } from './support/fixtures.ts';
import { createCategory, removeCategory } from './support/catalogue.ts';
import { jpegWithGps, pictureFacts } from '../tests/support/pictures.ts';
import { chooseCategory, expectToast, field, openProductsTab } from './admin.helpers.ts';
import { sessionFor } from '../tests/support/session.ts';
import { uniqueName } from '../tests/support/names.ts';

const t = texts.productImages;
let session = '';
let category = '';

test.beforeAll(async ({ stack, serviceDb }) => {
  session = await sessionFor(stack, demoAccounts.admin.email, demoAccounts.admin.password);
  category = uniqueName('E2E Img Cat');
  await createCategory(serviceDb, category);
});

test.afterAll(async ({ serviceDb }) => {
  await serviceDb.from('products').delete().eq('cat', category);
  await removeCategory(serviceDb, category);
});

async function fillAllButImage(page: Page, form: Locator, title: string): Promise<void> {
  await field(form, 'Title').fill(title);
  await chooseCategory(page, form, category);
  await field(form, 'Price').fill('£9.99');
  await field(form, 'Comment').fill('Uploaded picture');
  await field(form, 'Link').fill('https://example.com/uploaded');
}

/** Chooses `file` in the upload area, as the file picker (or a phone's camera roll) would. */
async function upload(form: Locator, name: string, mimeType: string, buffer: Buffer) {
  await form.getByTestId('image-dropzone').locator('input[type=file]').setInputFiles({
    name,
    mimeType,
    buffer,
  });
}

/** Uploads a picture and waits until the Image link is its public URL; returns that URL. */
async function uploadPicture(page: Page, form: Locator, buffer: Buffer): Promise<string> {
  const before = await field(form, 'Image link').inputValue();
  await upload(form, 'photo.jpg', 'image/jpeg', buffer);
  // Decoding, resizing and encoding twice, then two uploads: seconds on a busy 2-core machine.
  await expect(field(form, 'Image link')).not.toHaveValue(before, { timeout: 30_000 });
  await expectToast(page, t.uploaded);
  const url = await field(form, 'Image link').inputValue();
  expect(url).toMatch(/\/storage\/v1\/object\/public\/product-images\/[0-9a-f-]{36}\/1200\.webp$/);
  return url;
}

async function download(serviceDb: import('@supabase/supabase-js').SupabaseClient, name: string) {
  const { data, error } = await serviceDb.storage.from(PRODUCT_IMAGE_BUCKET).download(name);
  if (error) throw error;
  return Buffer.from(await data.arrayBuffer());
}

async function stored(serviceDb: import('@supabase/supabase-js').SupabaseClient, folder: string) {
  const { data, error } = await serviceDb.storage.from(PRODUCT_IMAGE_BUCKET).list(folder);
  if (error) throw error;
  return data.map((o) => o.name).sort();
}

test('an uploaded JPEG with GPS is stored as EXIF-free WebP in two widths, shown with srcset, and replacing or deleting it leaves no orphan', async ({
  page,
  stack,
  serviceDb,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const photo = await jpegWithGps(2400, 1600);
  // The fixture really carries what must be dropped (else the checks below prove nothing).
  expect(await pictureFacts(photo)).toMatchObject({ hasExif: true, hasMarks: true });

  const form = await openProductsTab(page, stack, session);
  const title = uniqueName('E2E Uploaded');
  await fillAllButImage(page, form, title);
  const first = await uploadPicture(page, form, photo);
  await expect(form.getByRole('img', { name: 'Image preview' })).toHaveAttribute('src', first);
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expectToast(page, 'Product Added');

  // The stored files: WebP, 1200 and 400 px wide (3:2 kept), no EXIF and none of its bytes.
  const firstUpload = uploadedImage(first, stack.API_URL);
  if (!firstUpload) throw new Error(`not an upload URL: ${first}`);
  const large = await pictureFacts(await download(serviceDb, firstUpload.paths.large));
  const small = await pictureFacts(await download(serviceDb, firstUpload.paths.small));
  expect(large).toEqual({
    format: 'webp',
    width: 1200,
    height: 800,
    hasExif: false,
    hasMarks: false,
  });
  expect(small).toEqual({
    format: 'webp',
    width: 400,
    height: 267,
    hasExif: false,
    hasMarks: false,
  });
  const served = await fetch(firstUpload.small);
  expect(served.headers.get('content-type')).toBe('image/webp');

  // A shopper's browser (nothing cached: the admin's has the 1200 px file from the preview, and
  // Chrome takes a cached larger candidate) loads the 400 px file in the card.
  const shopper = await browser.newContext({ baseURL });
  const shop = await shopper.newPage();
  await shop.goto(`/?cat=${encodeURIComponent(category)}`);
  const card = shop.getByTestId('product-card').filter({ hasText: title });
  const img = card.getByRole('img', { name: title });
  // The catalogue is read after the page starts: on a busy machine that can take a while.
  await expect(img).toBeVisible({ timeout: 30_000 });
  await expect(img).toHaveAttribute(
    'srcset',
    `${firstUpload.small} 400w, ${firstUpload.large} 1200w`,
  );
  await expect(img).toHaveAttribute('sizes', /./);
  await img.scrollIntoViewIfNeeded();
  await expect
    .poll(() => img.evaluate((e: HTMLImageElement) => e.currentSrc))
    .toBe(firstUpload.small);
  // Loaded, not swapped for the placeholder (naturalWidth is density-corrected by srcset).
  await expect
    .poll(() => img.evaluate((e: HTMLImageElement) => e.complete && e.naturalWidth > 0))
    .toBe(true);
  await expect(img).toHaveAttribute('src', firstUpload.small);
  await shopper.close();

  // Replace the picture (a smaller one: never scaled up); the first upload's files are gone.
  const page2 = await openProductsTab(page, stack, session);
  await field(page2, 'Title').fill(title);
  await page2.getByRole('button', { name: 'Get Product' }).click();
  await expectToast(page, 'Product Details Loaded');
  const second = await uploadPicture(page, page2, await jpegWithGps(900, 600));
  await page2.getByRole('button', { name: 'Update' }).click();
  await expectToast(page, 'Product Updated Successfully');
  const secondUpload = uploadedImage(second, stack.API_URL);
  if (!secondUpload) throw new Error(`not an upload URL: ${second}`);
  expect(await stored(serviceDb, firstUpload.paths.large.split('/')[0]!)).toEqual([]);
  expect(await stored(serviceDb, secondUpload.paths.large.split('/')[0]!)).toEqual([
    '1200.webp',
    '400.webp',
  ]);
  expect((await pictureFacts(await download(serviceDb, secondUpload.paths.large))).width).toBe(900);
  expect(await findOrphans(serviceDb, stack.API_URL)).toEqual([]);

  // Deleting the product removes its picture too.
  await field(page2, 'Title').fill(title);
  await page2.getByRole('button', { name: 'Get Product' }).click();
  await expectToast(page, 'Product Details Loaded');
  await page2.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Product Deleted Successfully');
  expect(await stored(serviceDb, secondUpload.paths.large.split('/')[0]!)).toEqual([]);
  expect(await findOrphans(serviceDb, stack.API_URL)).toEqual([]);
});

test('a file that is not a picture, or one the browser cannot read, is refused and changes nothing', async ({
  page,
  stack,
}) => {
  const form = await openProductsTab(page, stack, session);
  await field(form, 'Image link').fill('/products/match-football.svg');

  await upload(form, 'notes.txt', 'text/plain', Buffer.from('not a picture'));
  await expect(form.getByTestId('image-upload-error')).toHaveText(t.notAnImage);
  await expect(field(form, 'Image link')).toHaveValue('/products/match-football.svg');

  // Text named like a photo is no picture either (REQ-PATH-13).
  await upload(form, 'notes.jpg', 'image/jpeg', Buffer.from('this is no JPEG at all'));
  await expect(form.getByTestId('image-upload-error')).toHaveText(t.notAnImage);
  await expect(field(form, 'Image link')).toHaveValue('/products/match-football.svg');

  // A JPEG's first bytes with nothing decodable after them: a picture this browser cannot read.
  const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('cut off')]);
  await upload(form, 'broken.jpg', 'image/jpeg', broken);
  await expect(form.getByTestId('image-upload-error')).toHaveText(t.cannotDecode);
  await expect(field(form, 'Image link')).toHaveValue('/products/match-football.svg');
});

test('an image link that does not load shows a warning, and the product can still be saved', async ({
  page,
  stack,
}) => {
  const form = await openProductsTab(page, stack, session);
  const title = uniqueName('E2E Broken Link');
  await fillAllButImage(page, form, title);
  await field(form, 'Image link').fill('https://127.0.0.1:9/no-such-picture.png');
  const preview = form.getByRole('figure', { name: 'Image preview' });
  await expect(preview.getByText(t.linkBroken)).toBeVisible();
  await expect(preview.getByRole('img')).toHaveCount(0);
  // A working address brings the preview back.
  await field(form, 'Image link').fill('/products/match-football.svg');
  await expect(preview.getByRole('img', { name: 'Image preview' })).toBeVisible();
  await field(form, 'Image link').fill('https://127.0.0.1:9/no-such-picture.png');
  await expect(preview.getByText(t.linkBroken)).toBeVisible();
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expectToast(page, 'Product Added');
});
