// The owner's storefront content (docs/decisions/0212) in the running app: an admin changes a
// banner slide's headline, uploads its picture, gives it a link and changes the About text on the
// Storefront tab; the home banner (REQ-HOME-1: still three slides) and /about (REQ-PAGE-1) show
// them after a reload, without a rebuild, and the home page stays free of axe violations. The
// row and the bucket are put back afterwards, so other tests see the built-in content.
import { expectAxeClean } from './support/axe.ts';
import type { SupabaseClient } from '@supabase/supabase-js';
import { texts } from '../src/adminTexts.ts';
import { demoAdminFile, expectToast, field } from './admin.helpers.ts';
import { jpegWithGps } from '../tests/support/pictures.ts';
import { demoAccounts, expect, test } from './support/fixtures.ts';
import { useSession } from '../tests/support/session.ts';

const t = texts.storefrontContent;
const BUCKET = 'storefront-images';
const file = demoAdminFile();
let original: Record<string, unknown> = {};

async function readRow(serviceDb: SupabaseClient): Promise<Record<string, unknown>> {
  const { data, error } = await serviceDb.from('storefront_content').select('*').single();
  if (error) throw new Error(error.message);
  const { id: _id, updated_at: _u, ...values } = data as Record<string, unknown>;
  return values;
}

test.beforeAll(async ({ serviceDb }) => {
  original = await readRow(serviceDb);
});

test.afterAll(async ({ serviceDb }) => {
  const { error } = await serviceDb.from('storefront_content').update(original).eq('id', true);
  if (error) throw new Error(error.message);
  // Every picture this test uploaded: the bucket holds only the tests' files.
  const { data: folders } = await serviceDb.storage.from(BUCKET).list();
  for (const folder of folders ?? []) {
    const { data: files } = await serviceDb.storage.from(BUCKET).list(folder.name);
    const names = (files ?? []).map((f) => `${folder.name}/${f.name}`);
    if (names.length) await serviceDb.storage.from(BUCKET).remove(names);
  }
});

test.use({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });

test('an admin changes a slide (headline, picture, link) and the About text; home and /about show them', async ({
  page,
  stack,
  serviceDb,
}) => {
  // Preparing and uploading a picture and two axe scans: over a minute on a busy 2-core machine.
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const headline = `Spring kit ${stamp}`;
  const about = `We are a family shop ${stamp}.\n\n- Honest reviews\n- Fair sellers`;

  await useSession(page, stack, file.session());
  await page.goto('/admin');
  await expect(
    page.getByRole('heading', { name: `${texts.admin.heading} ${demoAccounts.admin.name}` }),
  ).toBeVisible();
  await page.getByRole('tab', { name: t.tab }).click();
  const tab = page.getByRole('tabpanel', { name: t.tab });
  const slide = tab.getByTestId('slide-editor-1');
  await expect(field(slide, t.heading)).toHaveValue(texts.storefront.banner.slides[0].heading);

  // The picture: prepared in the browser and uploaded to the storefront-images bucket.
  await slide.locator('input[type=file]').setInputFiles({
    name: 'spring.jpg',
    mimeType: 'image/jpeg',
    buffer: await jpegWithGps(1600, 600),
  });
  await expectToast(page, t.uploaded);
  const picture = slide.getByTestId('slide-picture');
  await expect(picture).toHaveAttribute(
    'src',
    /\/storage\/v1\/object\/public\/storefront-images\/[0-9a-f-]{36}\/1200\.webp$/,
    { timeout: 30_000 },
  );
  const uploaded = (await picture.getAttribute('src'))!;

  await field(slide, t.heading).fill(headline);
  await field(slide, t.alt).fill('Spring football boots on grass');
  // A link to another site or a script is explained under its field and not saved.
  await field(slide, t.link).fill('javascript:alert(1)');
  await tab.getByRole('button', { name: t.save }).click();
  await expect(slide.getByText(t.linkInvalid(1))).toBeVisible();
  await field(slide, t.link).fill('/about');
  await field(tab, t.about).fill(about);
  await tab.getByRole('button', { name: t.save }).click();
  await expectToast(page, t.saved);
  expect(await readRow(serviceDb)).toMatchObject({
    slide_1_heading: headline,
    slide_1_image: uploaded,
    slide_1_link: '/about',
    about_text: about,
  });

  // The storefront, after a reload: the stored slide, still three of them, one a link. The
  // pre-rendered defaults hydrate first, then the stored row replaces them: no hydration error.
  const reactErrors: string[] = [];
  page.on('console', (message) => {
    if (
      message.type() === 'error' &&
      /hydrat|Minified React error #4(18|19|23|25)/i.test(message.text())
    )
      reactErrors.push(message.text());
  });
  await page.goto('/');
  const slides = page.getByTestId('banner-slide');
  await expect(slides).toHaveCount(texts.storefront.banner.slides.length);
  const first = slides.first();
  await expect(first).toContainText(headline);
  const link = first.getByRole('link');
  await expect(link).toHaveAttribute('href', '/about');
  const image = link.getByRole('img', { name: 'Spring football boots on grass' });
  await expect(image).toHaveAttribute('src', uploaded);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1200);
  await expectAxeClean(page, 'home');

  // A click on the slide goes where the admin said.
  await link.click();
  await expect(page).toHaveURL(/\/about$/);
  const text = page.getByTestId('about-text');
  await expect(text).toContainText(`We are a family shop ${stamp}.`);
  await expect(text.getByRole('listitem')).toHaveText(['Honest reviews', 'Fair sellers']);
  await page.reload();
  await expect(page.getByTestId('about-text')).toContainText(`We are a family shop ${stamp}.`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(texts.pages.aboutHeading);
  expect(reactErrors).toEqual([]);
});
