// The admin dialogs and states for `npm run screenshots` (scripts/screenshots.ts): each scene opens
// a tab of /admin as the demo admin and brings up one dialog or state, then the script shoots it.
// `arrangeAdminData` first makes what the scenes need in the throwaway stack (an open invitation,
// a second admin, contact messages in every delivery state).
import type { Page } from '@playwright/test';
import type { SupabaseClient } from '@supabase/supabase-js';
import { jpegWithGps } from '../tests/support/pictures.ts';
import { nodeClient } from '../stack/client.ts';
import type { StackEnv } from '../stack/stack.ts';
import { texts } from '../src/adminTexts.ts';

export const SCREENSHOT_INVITE = 'screenshot-invite@mar-online-store.test';
export const SCREENSHOT_ADMIN = 'screenshot-second-admin@mar-online-store.test';

/** Test data for the admin scenes; made once per run of the script. */
export async function arrangeAdminData(env: StackEnv): Promise<void> {
  const service: SupabaseClient = nodeClient(env.API_URL, env.SERVICE_ROLE_KEY);
  const check = (what: string, error: { message: string } | null) => {
    if (error) throw new Error(`${what}: ${error.message}`);
  };
  check(
    'invite',
    (
      await service
        .from('admin_invites')
        .insert([{ email: SCREENSHOT_INVITE }, { email: SCREENSHOT_ADMIN }])
    ).error,
  );
  // The invitation waits for its confirmation; the second admin is confirmed.
  check(
    'sign-up',
    (
      await nodeClient(env.API_URL, env.ANON_KEY).auth.signUp({
        email: SCREENSHOT_INVITE,
        password: 'secret123',
        options: { data: { display_name: 'Invited Person' } },
      })
    ).error,
  );
  check(
    'second admin',
    (
      await service.auth.admin.createUser({
        email: SCREENSHOT_ADMIN,
        password: 'secret123',
        email_confirm: true,
        user_metadata: { display_name: 'Second Admin' },
      })
    ).error,
  );
  const now = new Date().toISOString();
  const from = 'a-rather-long-sender-address@example-sports-club.co.uk';
  check(
    'messages',
    (
      await service.from('contact_messages').insert([
        {
          name: 'Sent Sam',
          email: from,
          message: 'Do you stock size 4 balls?',
          delivery_status: 'sent',
          sent_at: now,
        },
        {
          name: 'Failed Fay',
          email: from,
          message: 'Is the cricket bat English willow? '.repeat(4).trim(),
          delivery_status: 'failed',
          last_error: 'SMTP 421: service not available, closing transmission channel',
        },
        { name: 'Pending Pat', email: from, message: 'Hello', delivery_status: 'pending' },
      ])
    ).error,
  );
}

export interface Scene {
  file: string;
  tab: string;
  /** Brings up the dialog or state once the tab is open. */
  act(page: Page, width: number): Promise<void>;
}

const dialog = (page: Page) => page.getByRole('dialog');

async function openCsvImport(page: Page): Promise<void> {
  await page.getByRole('button', { name: texts.catalogueCsv.menuLabel }).click();
  await page.getByRole('menuitem', { name: texts.catalogueCsv.import }).click();
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const line = (title: string, cat = 'Football') =>
    `${title},${cat},£5.00,Imported from a spreadsheet,/products/match-football.svg,https://seller.example.com/csv`;
  const csv = [
    'title,category,price,comment,image,link',
    line(`Screenshot Ball ${stamp}`),
    line(''),
    line(`Screenshot Bat ${stamp}`, 'Cricket'),
    line('Match Football Size 5'),
    line(`Screenshot Gloves ${stamp}`, 'No Such Catagory'),
  ].join('\r\n');
  await dialog(page)
    .locator('input[type="file"]')
    .setInputFiles({
      name: 'products.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`\uFEFF${csv}`),
    });
  await dialog(page).getByTestId('csv-import-counts').waitFor();
}

export const SCENES: Scene[] = [
  {
    file: 'admin-dialog-remove-admin',
    tab: texts.team.tab,
    act: async (page) => {
      await page
        .getByTestId('team-admin')
        .filter({ hasText: SCREENSHOT_ADMIN })
        .getByRole('button', { name: texts.team.remove })
        .click();
      await dialog(page).waitFor();
    },
  },
  {
    file: 'admin-dialog-withdraw',
    tab: texts.team.tab,
    act: async (page) => {
      await page
        .getByTestId('team-invite')
        .filter({ hasText: SCREENSHOT_INVITE })
        .getByRole('button', { name: texts.team.withdraw })
        .click();
      await dialog(page).waitFor();
    },
  },
  {
    file: 'admin-dialog-bulk-delete',
    tab: texts.admin.tabs.products,
    act: async (page) => {
      await page.getByRole('checkbox', { name: texts.productTable.selectPage }).check();
      await page.getByRole('button', { name: texts.productTable.deleteSelected }).click();
      await dialog(page).waitFor();
    },
  },
  {
    file: 'admin-dialog-move-then-delete',
    tab: texts.admin.tabs.categories,
    act: async (page) => {
      const panel = page.getByRole('tabpanel', { name: texts.admin.tabs.categories });
      await panel
        .getByRole('textbox', { name: texts.categoryForm.title, exact: true })
        .fill('Football');
      await panel.getByRole('button', { name: texts.categoryForm.get, exact: true }).click();
      await page.waitForTimeout(500);
      await panel.getByRole('button', { name: texts.categoryForm.delete, exact: true }).click();
      await page.getByRole('dialog', { name: texts.productTable.moveFirstTitle }).waitFor();
    },
  },
  {
    file: 'admin-dialog-csv-preview',
    tab: texts.admin.tabs.products,
    act: openCsvImport,
  },
  {
    file: 'admin-dialog-csv-report',
    tab: texts.admin.tabs.products,
    act: async (page) => {
      await openCsvImport(page);
      await dialog(page).getByRole('button', { name: texts.catalogueCsv.apply }).click();
      await dialog(page)
        .getByTestId('csv-import-counts')
        .filter({ hasText: / added,/ })
        .waitFor();
    },
  },
  {
    file: 'admin-image-upload',
    tab: texts.admin.tabs.products,
    act: async (page) => {
      const panel = await productForm(page);
      const link = panel.getByRole('textbox', { name: texts.productForm.image, exact: true });
      await panel
        .getByTestId('image-dropzone')
        .locator('input[type=file]')
        .setInputFiles({
          name: 'photo.jpg',
          mimeType: 'image/jpeg',
          buffer: await jpegWithGps(1600, 1000),
        });
      await page.waitForFunction(
        (el) => (el as HTMLInputElement).value.includes('/storage/v1/object/public/'),
        await link.elementHandle(),
        { timeout: 60_000 },
      );
      await panel.getByTestId('image-dropzone').scrollIntoViewIfNeeded();
    },
  },
  {
    file: 'admin-image-refused',
    tab: texts.admin.tabs.products,
    act: async (page) => {
      const panel = await productForm(page);
      await panel
        .getByTestId('image-dropzone')
        .locator('input[type=file]')
        .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
      await panel.getByTestId('image-upload-error').waitFor();
      await panel.getByTestId('image-dropzone').scrollIntoViewIfNeeded();
    },
  },
];

/** The Products tab with its form showing: on a phone it opens with Add product (REQ-PATH-10). */
async function productForm(page: Page) {
  const panel = page.getByRole('tabpanel', { name: texts.admin.tabs.products });
  const add = panel.getByRole('button', { name: texts.productForm.addProduct });
  if ((page.viewportSize()?.width ?? 1280) < 992) await add.click();
  return panel;
}
