// Link-health triage in the admin area (REQ-OFF-6, docs/decisions/0234): a seller whose bot wall
// refuses the checker shows "Blocked our checker" with the evidence (the bot wall's sign, each
// hop's code and host, the final host), never "Broken"; a redirect the admin expects is accepted
// with "Accept redirect" and shows as OK. The seller site is a local server on loopback
// (tests/support/link-servers.ts); the real link-health function checks it.
import { expectAxeClean } from './support/axe.ts';
import { expect, test, demoAccounts } from './support/fixtures.ts';
import { createCategory, insertProducts, removeCategory } from './support/catalogue.ts';
import { openProductsTab } from './admin.helpers.ts';
import { startLinkServer, type LinkServer } from '../tests/support/link-servers.ts';
import { sessionFor } from '../tests/support/session.ts';
import { uniqueName } from '../tests/support/names.ts';

let session = '';
let category = '';
let site: LinkServer;

test.beforeAll(async ({ stack, serviceDb }) => {
  site = await startLinkServer();
  session = await sessionFor(stack, demoAccounts.admin.email, demoAccounts.admin.password);
  category = uniqueName('E2E Triage');
  await createCategory(serviceDb, category);
  const product = (title: string, path: string, price: string) => ({
    title: `${category} ${title}`,
    cat: category,
    price,
    com: 'Link triage browser test',
    image: '/products/football.svg',
    link: `${site.origin}${path}`,
  });
  await insertProducts(serviceDb, [
    // Prices far above any other test's, so these never reach another test's first page.
    product('Walled', '/to-bot-wall', '£91,001.00'),
    product('Moved', '/moved', '£91,002.00'),
  ]);
});

test.afterAll(async ({ serviceDb }) => {
  await removeCategory(serviceDb, category);
  await site?.close();
});

test('Blocked our checker with its evidence, and Accept redirect', async ({ page, stack }) => {
  test.setTimeout(120_000);
  const port = new URL(site.origin).port;
  const form = await openProductsTab(page, stack, session);
  const table = form.getByRole('table', { name: 'All products' });
  const rowOf = (title: string) => table.getByRole('row', { name: new RegExp(title) });

  await form.getByRole('combobox', { name: 'Show catagory' }).click();
  await page.getByRole('option', { name: category, exact: true }).click();
  await form.getByRole('button', { name: 'Check all links' }).click();
  await expect(form.getByRole('status').filter({ hasText: 'Checked 2 products' })).toHaveText(
    'Checked 2 products: 1 redirected link, 1 link blocked our checker',
    { timeout: 30_000 },
  );
  await expect(rowOf('Walled')).toContainText('Blocked our checker');
  await expect(rowOf('Moved')).toContainText('Redirected');

  // The evidence, in the form of the product loaded.
  await rowOf('Walled').click();
  const health = form.getByRole('group', { name: 'Link health' });
  const evidence = health.getByRole('group', { name: 'Blocked our checker' });
  await expect(evidence).toContainText('Evidence: bot wall: cf-mitigated: challenge');
  await expect(evidence).toContainText(
    `Status chain: 302 127.0.0.1:${port} → 403 localhost:${port}`,
  );
  await expect(evidence).toContainText(`Final host: localhost:${port}`);

  // The redirect the admin expects: accepted for this link, OK at once.
  await rowOf('Moved').click();
  await expect(health).toContainText('Redirected');
  await expect(health).toContainText(`Final host: localhost:${port}`);
  await expect(
    health.getByRole('button', { name: 'Accept every redirect from 127.0.0.1 to localhost' }),
  ).toBeVisible();
  await health.getByRole('button', { name: 'Accept redirect', exact: true }).click();
  await expect(health).toContainText('OK');
  await expect(health).toContainText('Redirect accepted as expected');
  await expect(rowOf('Moved')).toContainText('OK');

  await expectAxeClean(page, 'link-triage', {
    closeToasts: true,
    beforeScan: () => rowOf('Walled').click(),
  });
});
