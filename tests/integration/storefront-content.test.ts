// Storefront content (docs/decisions/0212) against the real stack over HTTP: everyone reads the
// one row (the storefront with the anon key), only admins change it, the database refuses bad
// values (links to other sites or scripts above all) with messages that name the field, a change
// is an Activity entry, and the slides' pictures go to the storefront-images bucket, which only
// admins write. The RLS matrix (rls-matrix.test.ts) covers every role × action cell of the table.
// REQ-HOME-1 (three slides), REQ-PAGE-1 (the About text).
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ABOUT_TEXT } from '../../src/features/pages/aboutText';
import { fetchStorefrontContentRow } from '../../src/lib/infra/storefrontContent';
import { texts } from '../../src/texts';
import { deleteUsers } from './db-test-helpers.ts';
import { png } from './storage-support';
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

const BUCKET = 'storefront-images';
const service = serviceClient();
const users: TestUser[] = [];
let admin: SupabaseClient;
let adminUser: TestUser;
let shopper: SupabaseClient;
let original: Record<string, unknown>;

async function current(): Promise<Record<string, unknown>> {
  const { data, error } = await service.from('storefront_content').select('*').single();
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
  const { updated_at: _u, id: _id, ...values } = original;
  await service.from('storefront_content').update(values).eq('id', true);
  await deleteUsers(service, users);
});

describe('storefront content', () => {
  it("anon reads the row; the migration's defaults are the storefront's built-in slides and About text", async () => {
    const row = await fetchStorefrontContentRow(stackEnv().API_URL, stackEnv().ANON_KEY);
    texts.storefront.banner.slides.forEach((slide, i) => {
      const n = i + 1;
      expect(row).toMatchObject({
        [`slide_${n}_image`]: slide.image,
        [`slide_${n}_alt`]: slide.alt,
        [`slide_${n}_heading`]: slide.heading,
        [`slide_${n}_text`]: slide.text,
      });
    });
    expect(row.about_text).toBe(DEFAULT_ABOUT_TEXT);
    const { data, error } = await anonClient().from('storefront_content').select('*');
    expect(error).toBeNull();
    expect(data).toHaveLength(1);
  });

  it('anon and a signed-in non-admin cannot change it', async () => {
    const before = await current();
    for (const client of [anonClient(), shopper]) {
      await client
        .from('storefront_content')
        .update({ slide_1_heading: 'Forged', about_text: 'Forged', slide_2_link: '/forged' })
        .eq('id', true);
    }
    expect(await current()).toEqual(before);
  });

  it('an admin changes it; links are tidied; the change is an Activity entry with the changed fields', async () => {
    const heading = uniqueId('New season').slice(0, 60);
    const { data, error } = await admin
      .from('storefront_content')
      .update({
        slide_2_heading: `  ${heading} `,
        slide_2_link: ' /?cat=Football ',
        slide_3_link: '',
        about_text: 'First paragraph.\r\n\r\n- one\r\n- two\r\n',
      })
      .eq('id', true)
      .select('slide_2_heading, slide_2_link, slide_3_link, about_text')
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({
      slide_2_heading: heading,
      slide_2_link: '/?cat=Football',
      slide_3_link: null,
      about_text: 'First paragraph.\n\n- one\n- two',
    });

    const { data: log, error: logError } = await admin
      .from('activity_log')
      .select('kind, subject, actor, actor_email, before, after')
      .eq('subject', 'Storefront content')
      .order('id', { ascending: false })
      .limit(1)
      .single();
    expect(logError).toBeNull();
    expect(log).toMatchObject({
      kind: 'settings_changed',
      actor: adminUser.id,
      actor_email: adminUser.email,
      after: { slide_2_heading: heading, slide_2_link: '/?cat=Football' },
    });
    expect(Object.keys(log!.after as object)).not.toContain('slide_1_heading');
  });

  const linkMessage = (n: number) =>
    `Slide ${n}'s link must be a page of this store starting with / (for example /about or /?cat=Football) or a web address starting with https:// or http://, with no spaces`;
  it('REQ-PATH-7 a slide may lead to a web address (http or https) as well as to a page of the store', async () => {
    const links = {
      slide_1_link: 'https://www.example.org/summer-sale?ref=banner#top',
      slide_2_link: 'http://shop.example:8080/kit',
      slide_3_link: '/?cat=Football',
    };
    const { error } = await admin.from('storefront_content').update(links).eq('id', true);
    expect(error).toBeNull();
    expect(await current()).toMatchObject(links);
  });

  it.each([
    ['slide_1_link', 'javascript:alert(1)', linkMessage(1)],
    ['slide_1_link', 'https://', linkMessage(1)],
    ['slide_1_link', 'ftp://files.example/kit', linkMessage(1)],
    ['slide_1_link', 'https://shop.example/summer sale', linkMessage(1)],
    ['slide_2_link', 'https:/shop.example', linkMessage(2)],
    ['slide_2_link', 'data:text/html,hello', linkMessage(2)],
    ['slide_3_link', `https://shop.example/${'x'.repeat(300)}`, linkMessage(3)],
    ['slide_2_link', '//evil.example/path', linkMessage(2)],
    ['slide_2_link', '/\\evil.example', linkMessage(2)],
    ['slide_3_link', '/?cat=Running Shoes', linkMessage(3)],
    ['slide_3_link', 'about', linkMessage(3)],
    [
      'slide_1_image',
      'https://tracker.example/pixel.png',
      "Slide 1's picture must be uploaded here (or one of the store's own pictures)",
    ],
    [
      'slide_2_image',
      'javascript:alert(1)',
      "Slide 2's picture must be uploaded here (or one of the store's own pictures)",
    ],
    ['slide_1_heading', '   ', "Slide 1's headline must be 1 to 60 characters on one line"],
    [
      'slide_2_heading',
      'x'.repeat(61),
      "Slide 2's headline must be 1 to 60 characters on one line",
    ],
    ['slide_3_text', 'two\nlines', "Slide 3's text must be 1 to 140 characters on one line"],
    ['slide_1_alt', '', "Slide 1's picture description must be 1 to 150 characters on one line"],
    ['about_text', ' \n ', 'The About text must be 1 to 6000 characters'],
    ['about_text', 'x'.repeat(6001), 'The About text must be 1 to 6000 characters'],
  ])('refuses %s = %j with a clear message naming the field', async (column, value, message) => {
    const before = await current();
    const { error } = await admin
      .from('storefront_content')
      .update({ [column]: value })
      .eq('id', true);
    expect(error).toMatchObject({ code: '23514', message, hint: column });
    expect(await current()).toEqual(before);
  });

  it('keeps exactly one row: no second row, no delete (the service role neither)', async () => {
    const { error: insertError } = await service.from('storefront_content').insert({ id: false });
    expect(insertError).not.toBeNull();
    const { error: deleteError } = await service.from('storefront_content').delete().eq('id', true);
    expect(deleteError).not.toBeNull();
    const { count } = await service.from('storefront_content').select('*', { count: 'exact' });
    expect(count).toBe(1);
  });
});

describe('storefront-images bucket', () => {
  const name = () => `${crypto.randomUUID()}/1200.png`;

  it('anon and a signed-in non-admin cannot upload; nothing is stored', async () => {
    for (const client of [anonClient(), shopper]) {
      const path = name();
      const { error } = await client.storage.from(BUCKET).upload(path, png());
      expect(error).toMatchObject({ message: 'new row violates row-level security policy' });
      const { data } = await service.storage.from(BUCKET).list(path.split('/')[0]);
      expect(data).toEqual([]);
    }
  });

  it('an admin uploads a picture that a slide then shows; anon cannot delete it, the admin can', async () => {
    const path = name();
    const { error } = await admin.storage
      .from(BUCKET)
      .upload(path, png(), { contentType: 'image/png' });
    expect(error).toBeNull();
    const url = admin.storage.from(BUCKET).getPublicUrl(path).data.publicUrl;
    expect((await fetch(url)).status).toBe(200);

    const { error: saveError } = await admin
      .from('storefront_content')
      .update({ slide_1_image: url, slide_1_alt: 'A test picture' })
      .eq('id', true);
    expect(saveError).toBeNull();
    const row = await fetchStorefrontContentRow(stackEnv().API_URL, stackEnv().ANON_KEY);
    expect(row.slide_1_image).toBe(url);

    // Another bucket's file is not a slide picture.
    const { error: otherBucket } = await admin
      .from('storefront_content')
      .update({ slide_1_image: url.replace(`/${BUCKET}/`, '/product-images/') })
      .eq('id', true);
    expect(otherBucket).toMatchObject({ code: '23514', hint: 'slide_1_image' });

    for (const client of [anonClient(), shopper]) {
      await client.storage.from(BUCKET).remove([path]);
      expect((await fetch(url)).status).toBe(200);
    }
    const { data: removed, error: removeError } = await admin.storage.from(BUCKET).remove([path]);
    expect(removeError).toBeNull();
    expect(removed).toHaveLength(1);
  });

  it('refuses an SVG (it can carry script) even from an admin', async () => {
    const svg = new Blob(
      ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
      {
        type: 'image/svg+xml',
      },
    );
    const { error } = await admin.storage
      .from(BUCKET)
      .upload(`${crypto.randomUUID()}/1200.svg`, svg);
    expect(error).not.toBeNull();
  });
});
