// The owner's path through the admin area (REQ-PATH-14..16): the Activity tab names admins as the
// rest of the admin area does, "Check all links" counts unreachable and timed-out links and says
// why and what to do, and the Messages tab is an inbox (unread count, read, archive, search,
// Reply). Changes are made with the demo admin's own session over HTTP or in the page; link
// checks reach a local server and a closed local port through the real link-health function.
import { expectAxeClean } from './support/axe.ts';
import type { Page } from '@playwright/test';
import type { SupabaseClient } from '@supabase/supabase-js';
import { nodeClient } from '../stack/client.ts';
import type { StackEnv } from '../stack/stack.ts';
import { texts } from '../src/adminOwnerTexts.ts';
import { startLinkServer, type LinkServer } from '../tests/support/link-servers.ts';
import { uniqueName } from '../tests/support/names.ts';
import { useSession } from '../tests/support/session.ts';
import { activityEntry, demoAdminFile, openTab } from './admin.helpers.ts';
import { createCategory, insertProducts, removeCategory } from './support/catalogue.ts';
import { demoAccounts, expect, test } from './support/fixtures.ts';
import net from 'node:net';

const file = demoAdminFile();

function adminApi(stack: StackEnv): SupabaseClient {
  const token = (JSON.parse(file.session()) as { access_token: string }).access_token;
  return nodeClient(stack.API_URL, stack.ANON_KEY, {
    headers: { Authorization: `Bearer ${token}` },
  });
}

async function openAdmin(page: Page, stack: StackEnv): Promise<void> {
  await useSession(page, stack, file.session());
  await page.goto('/admin');
  await expect(
    page.getByRole('heading', { name: `${texts.admin.heading} ${demoAccounts.admin.name}` }),
  ).toBeVisible({ timeout: 30_000 });
}

/** A local port with nothing listening on it: a link there gets no answer. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('REQ-PATH-14: Activity names the admin by display name, the e-mail on hover', async ({
  page,
  stack,
}) => {
  test.setTimeout(90_000);
  const cat = uniqueName('Path Cat');
  expect((await adminApi(stack).from('catagories').insert({ title: cat })).error).toBeNull();
  try {
    await openAdmin(page, stack);
    const tab = await openTab(page, 'Activity');
    const added = activityEntry(tab, texts.activity.kind.category_added, cat);
    await expect(added).toContainText(`${texts.activity.by} ${demoAccounts.admin.name}`);
    await expect(added).not.toContainText(demoAccounts.admin.email);
    await expect(added.getByText(demoAccounts.admin.name, { exact: true })).toHaveAttribute(
      'title',
      demoAccounts.admin.email,
    );
    // The "by admin" filter offers the same names.
    await tab.getByRole('combobox', { name: texts.activity.filterAdmin }).click();
    await expect(page.getByRole('option', { name: demoAccounts.admin.name })).toBeVisible();
    await page.keyboard.press('Escape');
    await expectAxeClean(page, 'activity', { screenshot: 'viewport' });
  } finally {
    await adminApi(stack).from('catagories').delete().eq('title', cat);
  }
});

test.describe('REQ-PATH-15 link health', () => {
  let site: LinkServer;
  let category = '';

  test.beforeAll(async ({ serviceDb }) => {
    site = await startLinkServer();
    category = uniqueName('E2E Path Links');
    await createCategory(serviceDb, category);
    const port = await closedPort();
    const product = (title: string, link: string, price: string) => ({
      title: `${category} ${title}`,
      cat: category,
      price,
      com: 'Owner path link test',
      image: '/products/football.svg',
      link,
    });
    await insertProducts(serviceDb, [
      // Prices far above any other test's, so these never reach another test's first page.
      product('Closed', `http://127.0.0.1:${port}/shop`, '£91,001.00'),
      product('Slow', `${site.origin}/hang`, '£91,002.00'),
    ]);
  });

  test.afterAll(async ({ serviceDb }) => {
    await removeCategory(serviceDb, category);
    await site?.close();
  });

  test('REQ-PATH-15: Check all links counts unreachable and timed-out links and says why', async ({
    page,
    stack,
  }) => {
    test.setTimeout(120_000);
    await openAdmin(page, stack);
    const form = await openTab(page, 'Products');
    await form.getByRole('combobox', { name: 'Show catagory' }).click();
    await page.getByRole('option', { name: category, exact: true }).click();
    await form.getByRole('button', { name: texts.linkHealth.checkAll }).click();
    const summary = form.getByRole('status').filter({ hasText: 'Checked 2 products' });
    await expect(summary).toHaveText('Checked 2 products: 1 unreachable link, 1 timed-out link', {
      timeout: 60_000,
    });
    const advice = form.getByRole('list', { name: texts.linkSummary.adviceLabel });
    await expect(advice.getByRole('listitem')).toHaveText([
      texts.linkSummary.advice.unreachable,
      texts.linkSummary.advice.timed_out,
    ]);
    const table = form.getByRole('table', { name: 'All products' });
    await expect(table.getByRole('row', { name: /Closed/ })).toContainText(
      texts.linkHealth.status.unreachable,
    );
    await expect(table.getByRole('row', { name: /Slow/ })).toContainText(
      texts.linkHealth.status.timed_out,
    );
    await expectAxeClean(page, 'link-health', { screenshot: true });
  });
});

test('REQ-PATH-16: Messages inbox: unread count, read, archive, search and Reply', async ({
  page,
  stack,
  serviceDb,
}) => {
  test.setTimeout(90_000);
  const token = uniqueName('Inbox').replace(/\s+/g, '-');
  const sender = `ann-${Date.now().toString(36)}@example-club.co.uk`;
  const rows = [
    { name: 'Ann Sender', email: sender, message: `Do you ship to Cork? ${token}` },
    { name: 'Bob Sender', email: `b-${sender}`, message: `Invoice please ${token}` },
  ];
  expect((await serviceDb.from('contact_messages').insert(rows)).error).toBeNull();
  const unreadInDb = async () =>
    (
      await serviceDb
        .from('contact_messages')
        .select('id', { count: 'exact', head: true })
        .eq('is_read', false)
        .eq('archived', false)
    ).count ?? -1;
  try {
    await openAdmin(page, stack);
    const tabLabel = page.getByRole('tab', { name: texts.admin.tabs.messages });
    await expect(tabLabel).toContainText(texts.inbox.unread(await unreadInDb()));
    const tab = await openTab(page, 'Messages');
    await tab.getByRole('searchbox', { name: texts.inbox.search }).fill(token);
    const cards = tab.getByTestId('contact-message-row');
    await expect(cards).toHaveCount(2);
    const ann = cards.filter({ hasText: 'Ann Sender' });
    await expect(ann.getByText(texts.inbox.newBadge, { exact: true })).toBeVisible();

    // Reply: the owner's mail program, addressed to the sender, "Re: " the first line.
    const href = await ann.getByRole('link', { name: texts.inbox.reply }).getAttribute('href');
    const reply = new URL(href!);
    expect(reply.protocol).toBe('mailto:');
    expect(reply.pathname).toBe(sender);
    expect(reply.searchParams.get('subject')).toBe(`Re: Do you ship to Cork? ${token}`);

    // Read: the card and the tab's count follow, and the database holds it.
    await ann.getByRole('button', { name: texts.inbox.markRead }).click();
    await expect(ann.getByRole('button', { name: texts.inbox.markUnread })).toBeVisible();
    await expect(ann.getByText(texts.inbox.newBadge, { exact: true })).toHaveCount(0);
    await expect(tabLabel).toContainText(texts.inbox.unread(await unreadInDb()));
    const stored = await serviceDb.from('contact_messages').select('is_read').eq('email', sender);
    expect(stored.data).toEqual([{ is_read: true }]);

    // Archive: out of the inbox, into the Archived view, and back.
    await cards
      .filter({ hasText: 'Bob Sender' })
      .getByRole('button', { name: texts.inbox.archive })
      .click();
    await expect(cards).toHaveCount(1);
    await tab.getByText(texts.inbox.views.archived, { exact: true }).click();
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText('Bob Sender');
    await expectAxeClean(page, 'messages-archived', { screenshot: true });
    await cards.first().getByRole('button', { name: texts.inbox.unarchive }).click();
    await expect(tab.getByText(texts.inbox.noMatch)).toBeVisible();
    await tab.getByText(texts.inbox.views.inbox, { exact: true }).click();
    await expect(cards).toHaveCount(2);

    // A search that matches nothing says so.
    await tab.getByRole('searchbox', { name: texts.inbox.search }).fill(`${token}-none`);
    await expect(tab.getByText(texts.inbox.noMatch)).toBeVisible();
    await tab.getByRole('searchbox', { name: texts.inbox.search }).fill(token);
    await expect(cards).toHaveCount(2);
    await expectAxeClean(page, 'messages', { screenshot: true });

    // On a phone: the same inbox, no sideways scrolling.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(tabLabel).toBeVisible();
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    await expectAxeClean(page, 'messages', { screenshot: true });
  } finally {
    await serviceDb.from('contact_messages').delete().like('message', `%${token}`);
  }
});
