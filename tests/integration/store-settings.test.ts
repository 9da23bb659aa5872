// Store settings (docs/decisions/0211) against the real stack over HTTP: everyone reads the one
// row (the storefront and the host function use the anon key), only admins change it, the
// database refuses bad addresses with messages that name the field, a change is an Activity
// entry, and the host function's pages follow a change in the next answer (no rebuild). The
// RLS matrix (rls-matrix.test.ts) covers every role × action cell of the table.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  readBuildStoreSettings,
  readBuildStorefrontContent,
} from '../../scripts/vite-plugins/build-store-settings';
import { answerProductPages } from '../../src/host/productPages';
import { fetchStoreSettingsRow, STORE_SETTINGS_COLUMNS } from '../../src/lib/infra/storeSettings';
import { deleteUsers } from './db-test-helpers.ts';
import {
  anonClient,
  createConfirmedUser,
  serviceClient,
  signedInClient,
  stackEnv,
  type TestUser,
  createAdmin,
} from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

const service = serviceClient();
const users: TestUser[] = [];
let admin: SupabaseClient;
let adminUser: TestUser;
let shopper: SupabaseClient;
let original: Record<string, unknown>;

async function current(): Promise<Record<string, unknown>> {
  const { data, error } = await service
    .from('store_settings')
    .select(`${STORE_SETTINGS_COLUMNS},updated_at`)
    .single();
  if (error) throw new Error(error.message);
  return data as Record<string, unknown>;
}

beforeAll(async () => {
  adminUser = await createAdmin();
  const plain = await createConfirmedUser();
  users.push(adminUser, plain);
  admin = await signedInClient(adminUser);
  shopper = await signedInClient(plain);
  original = await current();
});

afterAll(async () => {
  const { updated_at: _ignored, ...values } = original;
  await service.from('store_settings').update(values).eq('id', true);
  await deleteUsers(service, users);
});

describe('store settings', () => {
  it('anon reads the public settings, with the seed demo social pages', async () => {
    const row = await fetchStoreSettingsRow(stackEnv().API_URL, stackEnv().ANON_KEY);
    expect(row.store_name).toBe('MAR Online Store UK');
    expect(row.instagram_url).toBe('https://www.instagram.com/maronlinestore.demo');
    expect(row.trader_name).toMatch(/demo/i);
    expect(row.trader_address).toBeTruthy();
    const { data, error } = await anonClient().from('store_settings').select('*');
    expect(error).toBeNull();
    expect(data).toHaveLength(1);
  });

  it('anon and a signed-in non-admin cannot change them', async () => {
    const before = await current();
    for (const client of [anonClient(), shopper]) {
      await client
        .from('store_settings')
        .update({ instagram_url: 'https://evil.example/x' })
        .eq('id', true);
    }
    expect(await current()).toEqual(before);
  });

  it('an admin changes them; the change is an Activity entry with the fields that changed', async () => {
    const url = `https://www.youtube.com/@${uniqueId('mar').toLowerCase()}`;
    const { data, error } = await admin
      .from('store_settings')
      .update({ youtube_url: url, company_number: 'sc 123 456' })
      .eq('id', true)
      .select('youtube_url, company_number')
      .single();
    expect(error).toBeNull();
    // Numbers are kept in capitals without spaces.
    expect(data).toEqual({ youtube_url: url, company_number: 'SC123456' });

    const { data: log, error: logError } = await admin
      .from('activity_log')
      .select('kind, subject, actor, actor_email, before, after')
      .eq('kind', 'settings_changed')
      .order('id', { ascending: false })
      .limit(1)
      .single();
    expect(logError).toBeNull();
    expect(log).toMatchObject({
      kind: 'settings_changed',
      subject: 'Store settings',
      actor: adminUser.id,
      actor_email: adminUser.email,
      after: { youtube_url: url, company_number: 'SC123456' },
    });
    expect(Object.keys(log!.after as object).sort()).toEqual(['company_number', 'youtube_url']);
  });

  it.each([
    [
      'instagram_url',
      'javascript:alert(1)',
      'The Instagram page must be a web address starting with https:// or http://',
    ],
    ['x_url', 'x.com/mar', 'The X page must be a web address starting with https:// or http://'],
    [
      'tiktok_url',
      'https://tiktok.com/@mar shop',
      'The TikTok page must be a web address starting with https:// or http://',
    ],
    [
      'site_url',
      'ftp://shop.example',
      "The site's address must start with https:// or http:// (for example https://www.example.co.uk)",
    ],
    [
      'contact_email',
      'not-an-address',
      'The contact e-mail must be an e-mail address such as shop@example.co.uk',
    ],
    ['store_name', '   ', "The store's name must be 1 to 80 characters"],
    ['vat_number', '123', 'The VAT number must be a UK VAT number such as GB123456789'],
  ])('refuses %s = %j with a clear message naming the field', async (column, value, message) => {
    const before = await current();
    const { error } = await admin
      .from('store_settings')
      .update({ [column]: value })
      .eq('id', true);
    expect(error).toMatchObject({ code: '23514', message, hint: column });
    expect(await current()).toEqual(before);
  });

  it('keeps exactly one row: no second row, no delete (the service role neither)', async () => {
    const { error: insertError } = await service
      .from('store_settings')
      .insert({ id: false, store_name: 'Second' });
    expect(insertError).not.toBeNull();
    const { error: deleteError } = await service.from('store_settings').delete().eq('id', true);
    expect(deleteError).not.toBeNull();
    const { count } = await service.from('store_settings').select('*', { count: 'exact' });
    expect(count).toBe(1);
  });

  it("the host function's pages show a new store name in the next answer, without a rebuild", async () => {
    const name = uniqueId('Renamed Store');
    const { error } = await admin
      .from('store_settings')
      .update({ store_name: name, site_url: 'https://renamed.example.co.uk/' })
      .eq('id', true);
    expect(error).toBeNull();
    const response = await answerProductPages(new URL('/p/no-such-product', 'https://x.test'), {
      supabaseUrl: stackEnv().API_URL,
      anonKey: stackEnv().ANON_KEY,
      siteUrl: 'https://build-time.example',
      shell: () => '<html><head><title>x</title></head><body><div id="root"></div></body></html>',
    });
    expect(response?.status).toBe(404);
    const robots = await answerProductPages(new URL('/robots.txt', 'https://x.test'), {
      supabaseUrl: stackEnv().API_URL,
      anonKey: stackEnv().ANON_KEY,
      siteUrl: 'https://build-time.example',
      shell: () => '',
    });
    // The address from the settings (trailing slash dropped), not the build's.
    expect(await robots!.text()).toContain('https://renamed.example.co.uk/sitemap.xml');
    const { data: seeded } = await service
      .from('products')
      .select('slug')
      .order('title')
      .limit(1)
      .single();
    const page = await answerProductPages(new URL(`/p/${seeded!.slug}`, 'https://x.test'), {
      supabaseUrl: stackEnv().API_URL,
      anonKey: stackEnv().ANON_KEY,
      siteUrl: 'https://build-time.example',
      shell: () => '<html><head><title>x</title></head><body><div id="root"></div></body></html>',
    });
    const html = await page!.text();
    expect(html).toContain(`<meta property="og:site_name" content="${name}"`);
    expect(html).toContain('https://renamed.example.co.uk/p/');
  });

  it("the host function's footer shows who runs the shop and Follow us as the row says now", async () => {
    const tiktok = `https://www.tiktok.com/@${uniqueId('mar').toLowerCase()}`;
    const { error } = await admin
      .from('store_settings')
      .update({ tiktok_url: tiktok, trader_name: 'Footer Test Trading Ltd' })
      .eq('id', true);
    expect(error).toBeNull();
    const { data: seeded } = await service
      .from('products')
      .select('slug')
      .order('title')
      .limit(1)
      .single();
    const page = await answerProductPages(new URL(`/p/${seeded!.slug}`, 'https://x.test'), {
      supabaseUrl: stackEnv().API_URL,
      anonKey: stackEnv().ANON_KEY,
      siteUrl: 'https://build-time.example',
      shell: () => '<html><head><title>x</title></head><body><div id="root"></div></body></html>',
    });
    const html = await page!.text();
    const footer = html.slice(html.indexOf('<footer>'));
    expect(footer).toContain('Footer Test Trading Ltd');
    expect(footer).toContain(`<a href="${tiktok}" target="_blank" rel="me noopener">TikTok</a>`);
    expect(footer).toContain('href="mailto:');
  });

  it('a build reads the row once; a build that cannot reach it warns and uses the defaults', async () => {
    const row = await readBuildStoreSettings({
      VITE_SUPABASE_URL: stackEnv().API_URL,
      VITE_SUPABASE_ANON_KEY: stackEnv().ANON_KEY,
    });
    expect(row).toEqual(await fetchStoreSettingsRow(stackEnv().API_URL, stackEnv().ANON_KEY));
    const warnings: string[] = [];
    const none = await readBuildStoreSettings(
      { VITE_SUPABASE_URL: 'http://127.0.0.1:9', VITE_SUPABASE_ANON_KEY: 'key' },
      (message) => warnings.push(message),
    );
    expect(none).toBeNull();
    expect(warnings.join('\n')).toMatch(
      /could not read public\.store_settings at http:\/\/127\.0\.0\.1:9/,
    );
    // A wrong key: the API refuses, the build goes on with the defaults.
    const refused = await readBuildStoreSettings(
      { VITE_SUPABASE_URL: stackEnv().API_URL, VITE_SUPABASE_ANON_KEY: 'not-a-key' },
      (message) => warnings.push(message),
    );
    expect(refused).toBeNull();
    expect(warnings.at(-1)).toMatch(/HTTP 401/);
    expect(await readBuildStoreSettings({})).toBeNull();
    // The banner and About text likewise (the pre-rendered home and About pages carry them).
    const content = await readBuildStorefrontContent({
      VITE_SUPABASE_URL: stackEnv().API_URL,
      VITE_SUPABASE_ANON_KEY: stackEnv().ANON_KEY,
    });
    expect(typeof content?.about_text).toBe('string');
    expect(
      await readBuildStorefrontContent(
        { VITE_SUPABASE_URL: 'http://127.0.0.1:9', VITE_SUPABASE_ANON_KEY: 'key' },
        (message) => warnings.push(message),
      ),
    ).toBeNull();
    expect(warnings.at(-1)).toMatch(/could not read public\.storefront_content/);
  });
});
