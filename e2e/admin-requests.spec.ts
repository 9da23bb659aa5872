// One request per admin action (docs/decisions/0223): the product form's Update sends the
// database one RPC, which checks the title, the loaded version and the picture in one transaction.
// Counted here from the browser's side: every request to the stack's REST and Storage APIs from
// the click on, except the reads that refresh the lists after any successful write (the same
// after every action, and after the toast). A replaced uploaded picture is removed by the
// browser through the Storage API (hosted refuses deletes of storage.objects in SQL): that one
// clean-up request is counted and listed on its own.
import type { Page, Request } from '@playwright/test';
import { texts } from '../src/adminTexts.ts';
import { PRODUCT_IMAGE_BUCKET, uploadedImage } from '../src/lib/domain/productImages.ts';
import { demoAccounts, expect, test } from './support/fixtures.ts';
import { createCategory, removeCategory } from './support/catalogue.ts';
import {
  chooseCategory,
  expectToast,
  field,
  openProductsTab,
  openTab,
  getProduct,
} from './admin.helpers.ts';
import { sessionFor } from '../tests/support/session.ts';
import { uniqueName } from '../tests/support/names.ts';

let session = '';
let category = '';

test.beforeAll(async ({ stack, serviceDb }) => {
  session = await sessionFor(stack, demoAccounts.admin.email, demoAccounts.admin.password);
  category = uniqueName('E2E Req Cat');
  await createCategory(serviceDb, category);
});

test.afterAll(async ({ serviceDb }) => {
  await removeCategory(serviceDb, category);
});

/** The list refresh every successful write ends with (AdminData.reload, the product table). */
const REFRESH = [
  /^GET \/rest\/v1\/catagories\?select=/,
  /^POST \/rest\/v1\/rpc\/admin_product_page/,
  /^POST \/rest\/v1\/rpc\/admin_product_count/,
  /^GET \/rest\/v1\/rpc\/admin_product_(page|count)/,
  // The link-health badges of the table's rows; the Catagories tab's product counts.
  /^GET \/rest\/v1\/link_checks\?/,
  /^(GET|POST) \/rest\/v1\/rpc\/catagory_product_counts/,
];

/** Records the stack's REST and Storage requests as "METHOD /path?query" from now on. */
function recordRequests(page: Page, apiUrl: string): { seen: string[]; stop: () => void } {
  const api = new URL(apiUrl).origin;
  const seen: string[] = [];
  const listener = (request: Request) => {
    const url = new URL(request.url());
    if (url.origin !== api || !/^\/(rest|storage)\/v1\//.test(url.pathname)) return;
    const line = `${request.method()} ${url.pathname}${url.search}`;
    if (!REFRESH.some((r) => r.test(line))) seen.push(line);
  };
  page.on('request', listener);
  return { seen, stop: () => page.off('request', listener) };
}

test('Update Product sends one request; a replaced uploaded picture adds only its removal (REQ-PROD-6)', async ({
  page,
  stack,
  serviceDb,
}) => {
  // An uploaded picture (both widths in the bucket) shown by one product.
  const folder = crypto.randomUUID();
  const bucket = serviceDb.storage.from(PRODUCT_IMAGE_BUCKET);
  for (const width of [1200, 400]) {
    const put = await bucket.upload(
      `${folder}/${width}.webp`,
      new Blob([new Uint8Array(64)], { type: 'image/webp' }),
      {
        contentType: 'image/webp',
      },
    );
    if (put.error) throw put.error;
  }
  const picture = bucket.getPublicUrl(`${folder}/1200.webp`).data.publicUrl;
  const upload = uploadedImage(picture, stack.API_URL);
  if (!upload) throw new Error(`not an upload URL: ${picture}`);
  const title = uniqueName('E2E Req Product');
  const { error } = await serviceDb.from('products').insert({
    title,
    cat: category,
    price: '£5.00',
    com: 'Counted',
    image: picture,
    link: 'https://example.com/counted',
  });
  if (error) throw new Error(error.message);

  const form = await openProductsTab(page, stack, session);

  // 1. A new title and price, same picture: the one RPC, nothing else.
  await getProduct(page, form, title);
  const renamed = `${title} B`;
  await field(form, 'Title').fill(renamed);
  await field(form, 'Price').fill('£6.00');
  let requests = recordRequests(page, stack.API_URL);
  await form.getByRole('button', { name: 'Update', exact: true }).click();
  await expectToast(page, 'Product Updated Successfully');
  await page.waitForLoadState('networkidle');
  requests.stop();
  console.log(`Update (title, price): ${requests.seen.length} request(s)`, requests.seen);
  expect.soft(requests.seen).toEqual(['POST /rest/v1/rpc/admin_update_product']);

  // 2. A new title and the uploaded picture replaced by a link: the RPC, then the old files'
  // removal (after the toast; the database said no product shows them any more).
  await getProduct(page, form, renamed);
  const final = `${title} C`;
  await field(form, 'Title').fill(final);
  await field(form, 'Image link').fill('/products/football.svg');
  requests = recordRequests(page, stack.API_URL);
  await form.getByRole('button', { name: 'Update', exact: true }).click();
  await expectToast(page, 'Product Updated Successfully');
  await expect
    .poll(async () => (await bucket.list(folder)).data?.length, { timeout: 10_000 })
    .toBe(0);
  await page.waitForLoadState('networkidle');
  requests.stop();
  console.log(`Update (picture replaced): ${requests.seen.length} request(s)`, requests.seen);
  expect(requests.seen).toEqual([
    'POST /rest/v1/rpc/admin_update_product',
    `DELETE /storage/v1/object/${PRODUCT_IMAGE_BUCKET}`,
  ]);
  const { data } = await serviceDb
    .from('products')
    .select('title, price, image')
    .eq('title', final);
  expect(data).toEqual([{ title: final, price: '£6.00', image: '/products/football.svg' }]);
});

test('Add Product and Delete Product send one request each (REQ-PROD-3, REQ-PROD-7)', async ({
  page,
  stack,
}) => {
  const form = await openProductsTab(page, stack, session);
  const title = uniqueName('E2E Req Added');
  await field(form, 'Title').fill(title);
  await chooseCategory(page, form, category);
  await field(form, 'Price').fill('£7.00');
  await field(form, 'Comment').fill('Counted add');
  await field(form, 'Image link').fill('/products/football.svg');
  await field(form, 'Link').fill('https://example.com/counted-add');
  let requests = recordRequests(page, stack.API_URL);
  await form.getByRole('button', { name: 'Add', exact: true }).click();
  await expectToast(page, 'Product Added');
  await page.waitForLoadState('networkidle');
  requests.stop();
  console.log(`Add: ${requests.seen.length} request(s)`, requests.seen);
  expect.soft(requests.seen).toEqual(['POST /rest/v1/rpc/admin_add_product']);

  await getProduct(page, form, title);
  await form.getByRole('button', { name: 'Delete', exact: true }).click();
  requests = recordRequests(page, stack.API_URL);
  await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
  await expectToast(page, 'Product Deleted Successfully');
  await page.waitForLoadState('networkidle');
  requests.stop();
  console.log(`Delete: ${requests.seen.length} request(s)`, requests.seen);
  expect(requests.seen).toEqual(['POST /rest/v1/rpc/admin_delete_product']);
});

test('Update answers "changed since Get" and "Title Already in Use" from its one request (REQ-PROD-6)', async ({
  page,
  stack,
  serviceDb,
}) => {
  const title = uniqueName('E2E Req Stale');
  const taken = uniqueName('E2E Req Taken');
  const rows = [title, taken].map((t) => ({
    title: t,
    cat: category,
    price: '£5.00',
    com: 'Counted',
    image: '/products/football.svg',
    link: 'https://example.com/counted',
  }));
  const { error } = await serviceDb.from('products').insert(rows);
  if (error) throw new Error(error.message);
  const form = await openProductsTab(page, stack, session);

  // Another admin saves the product after this one's Get.
  await getProduct(page, form, title);
  await serviceDb.from('products').update({ price: '£5.50' }).eq('title', title);
  await field(form, 'Price').fill('£6.00');
  let requests = recordRequests(page, stack.API_URL);
  await form.getByRole('button', { name: 'Update', exact: true }).click();
  await expectToast(page, texts.product.changedSinceGet);
  requests.stop();
  // The answer is the one write's. A session ended elsewhere is answered "stale" by the database
  // too, so that answer is followed by the session check, my_admin_access (REQ-MFA-5).
  expect
    .soft(requests.seen)
    .toEqual(['POST /rest/v1/rpc/admin_update_product', 'POST /rest/v1/rpc/my_admin_access']);

  // A look-alike of another product's title.
  await getProduct(page, form, title);
  await field(form, 'Title').fill(taken.toUpperCase());
  requests = recordRequests(page, stack.API_URL);
  await form.getByRole('button', { name: 'Update', exact: true }).click();
  await expectToast(page, texts.validation.titleInUse);
  requests.stop();
  expect(requests.seen).toEqual(['POST /rest/v1/rpc/admin_update_product']);
  const { data } = await serviceDb.from('products').select('price').eq('title', title);
  expect(data).toEqual([{ price: '£5.50' }]);
});

test('Add, Update and Delete Catagory send one request each (REQ-CAT-2, REQ-CAT-4)', async ({
  page,
  stack,
}) => {
  await openProductsTab(page, stack, session);
  const form = await openTab(page, 'Catagories');
  const title = uniqueName('E2E Req Cat Added');
  const counted = async (action: () => Promise<void>, message: string, label: string) => {
    const requests = recordRequests(page, stack.API_URL);
    await action();
    await expectToast(page, message);
    await page.waitForLoadState('networkidle');
    requests.stop();
    console.log(`${label}: ${requests.seen.length} request(s)`, requests.seen);
    return requests.seen;
  };
  const getCategory = async (name: string) => {
    await field(form, 'Title').fill(name);
    await form.getByRole('button', { name: 'Get', exact: true }).click();
    await expectToast(page, 'Catagory Founded');
  };

  await field(form, 'Title').fill(title);
  const add = await counted(
    () => form.getByRole('button', { name: 'Add', exact: true }).click(),
    'Catagory Added',
    'Add Catagory',
  );
  expect.soft(add).toEqual(['POST /rest/v1/rpc/admin_add_catagory']);

  await getCategory(title);
  const renamed = `${title} B`;
  await field(form, 'Title').fill(renamed);
  const update = await counted(
    () => form.getByRole('button', { name: 'Update', exact: true }).click(),
    'Catagory Updated Successfully',
    'Update Catagory',
  );
  expect.soft(update).toEqual(['POST /rest/v1/rpc/admin_update_catagory']);

  // Pressing Delete counts the products (to offer moving them first); the confirmed delete is
  // what is counted here.
  await getCategory(renamed);
  await form.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const remove = await counted(
    () => dialog.getByRole('button', { name: 'Delete', exact: true }).click(),
    'Catagory Deleted Successfully',
    'Delete Catagory',
  );
  expect(remove).toEqual(['POST /rest/v1/rpc/admin_delete_catagory']);
});
