// Visitor side in a real browser against the throwaway stack with the seed catalogue: the home
// catalogue, what the home page downloads and the static pages (the banner is in
// storefront-banner.spec.ts).
import { ADMIN_SRC } from '../bench/bundle.ts';
import { PAGE_SIZE } from '../src/features/storefront/paging.ts';
import { storeSettings } from '../src/lib/infra/storeSettings.ts';
import { constants, texts } from '../src/adminTexts.ts';
import {
  cards,
  cardTitles,
  createCategory,
  insertProducts,
  priceNumber,
  removeCategory,
  titlesInStoreOrder,
  type NewProduct,
} from './support/catalogue.ts';
import { expect, test } from './support/fixtures.ts';
import { uniqueName } from '../tests/support/names.ts';

// A view's first products, read after the page loads: on a busy 2-core runner that once took
// more than the 10 s an expectation waits by default.
const FIRST_DATA = { timeout: 30_000 };
const heading = (page: import('@playwright/test').Page) => page.getByTestId('catalogue-heading');
const categoryButtons = (page: import('@playwright/test').Page) =>
  page.getByTestId('category-buttons');

test.describe('home catalogue', () => {
  test('All: heading, one button per category and the first page ordered by price', async ({
    page,
    serviceDb,
  }) => {
    await page.goto('/');
    await expect(heading(page)).toHaveText(texts.home.all);
    await expect(page).toHaveTitle(texts.brand.title);

    const { data: categories, error } = await serviceDb.from('catagories').select('title');
    expect(error).toBeNull();
    const buttons = categoryButtons(page).getByRole('button');
    await expect(buttons.first()).toHaveText(texts.home.all);
    await expect(buttons.first()).toHaveAttribute('aria-pressed', 'true');
    for (const { title } of categories as { title: string }[]) {
      await expect(
        categoryButtons(page).getByRole('button', { name: title, exact: true }),
      ).toBeVisible();
    }

    // The seed has more than one page of products.
    await expect(cards(page)).toHaveCount(PAGE_SIZE);
    const prices = (await page.getByTestId('product-price').allTextContents()).map(priceNumber);
    const numbers = prices.filter((p): p is number => p !== null);
    expect(numbers.length).toBeGreaterThan(0);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    // Prices without a number come after every priced product.
    const firstUnpriced = prices.indexOf(null);
    if (firstUnpriced >= 0) expect(prices.slice(firstUnpriced).every((p) => p === null)).toBe(true);
  });

  test('a category filters from the database, shows its name and stays in the URL', async ({
    page,
    serviceDb,
  }) => {
    const expected = await titlesInStoreOrder(serviceDb, 'Football');
    expect(expected.length).toBeGreaterThan(0);

    await page.goto('/');
    await categoryButtons(page).getByRole('button', { name: 'Football', exact: true }).click();
    await expect(page).toHaveURL(/\/\?cat=Football$/);
    await expect(heading(page)).toHaveText('Football');
    await expect(cards(page)).toHaveCount(expected.length, FIRST_DATA);
    expect(await cardTitles(page)).toEqual(expected);
    for (const category of await page.getByTestId('product-category').allTextContents()) {
      expect(category).toBe('Football');
    }
    await expect(page).toHaveTitle(`Football | ${texts.brand.title}`);

    // The filtered view survives a reload and can be shared.
    await page.reload();
    await expect(heading(page)).toHaveText('Football');
    await expect(
      categoryButtons(page).getByRole('button', { name: 'Football', exact: true }),
    ).toHaveAttribute('aria-pressed', 'true');
    await expect(cards(page)).toHaveCount(expected.length);

    await categoryButtons(page).getByRole('button', { name: texts.home.all, exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(heading(page)).toHaveText(texts.home.all);
    await expect(cards(page)).toHaveCount(PAGE_SIZE, FIRST_DATA);

    // Browser back returns to the filtered view.
    await page.goBack();
    await expect(heading(page)).toHaveText('Football');
    await expect(cards(page)).toHaveCount(expected.length);
  });

  test.describe('with test products', () => {
    let cat: string;
    const link = (n: number) => `https://seller.example.com/e2e/product-${n}`;

    test.beforeEach(async ({ serviceDb }) => {
      cat = uniqueName('E2E Cards');
      await createCategory(serviceDb, cat);
      const rows: NewProduct[] = [
        {
          title: `${cat} Ball`,
          cat,
          image: '/products/match-football.svg',
          price: '12.5',
          com: 'A plain-number price, shown in pounds.',
          link: link(1),
        },
        {
          title: `${cat} Racket`,
          cat,
          image: '/products/does-not-exist.svg',
          price: 'From £30 (sale)',
          com: 'Text price shown as entered; broken image shows the placeholder.',
          link: link(2),
        },
        {
          title: `${cat} Bike`,
          cat,
          image: '/products/road-bike.svg',
          price: 'Price on request',
          com: 'No number in the price: listed last.',
          link: link(3),
        },
      ];
      await insertProducts(serviceDb, rows);
    });

    test.afterEach(async ({ serviceDb }) => {
      await removeCategory(serviceDb, cat);
    });

    test('every card field, the order and the placeholder for a broken image', async ({ page }) => {
      await page.goto(`/?cat=${encodeURIComponent(cat)}`);
      await expect(heading(page)).toHaveText(cat);
      await expect(cards(page)).toHaveCount(3, FIRST_DATA);
      expect(await cardTitles(page)).toEqual([`${cat} Ball`, `${cat} Racket`, `${cat} Bike`]);

      const first = cards(page).nth(0);
      await expect(first.getByTestId('product-price')).toHaveText('£12.50');
      await expect(first.getByRole('heading', { name: `${cat} Ball` })).toBeVisible();
      await expect(first.getByTestId('product-category')).toHaveText(cat);
      await expect(first.getByTestId('product-comment')).toHaveText(
        'A plain-number price, shown in pounds.',
      );
      const image = first.getByRole('img', { name: `${cat} Ball` });
      await expect(image).toHaveAttribute('src', '/products/match-football.svg');
      // The first card's picture is the likely largest paint: fetched at once, with priority.
      await expect(image).toHaveAttribute('loading', 'eager');
      await expect(image).toHaveAttribute('fetchpriority', 'high');
      await expect(image).toHaveAttribute('width', '400');
      await expect(image).toHaveAttribute('height', '300');
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
        .toBe(true);
      const buy = first.getByRole('link', { name: new RegExp(texts.home.buyNow) });
      await expect(buy).toHaveAttribute('href', link(1));
      await expect(buy).toHaveAttribute('target', '_blank');
      await expect(buy).toHaveAttribute('rel', 'sponsored noopener noreferrer');

      const second = cards(page).nth(1);
      await expect(second.getByTestId('product-price')).toHaveText('From £30.00 (sale)');
      const placeholder = second.getByRole('img', { name: texts.storefront.imageFallbackAlt });
      await expect(placeholder).toHaveAttribute('src', '/product-placeholder.svg');
      await expect
        .poll(() =>
          placeholder.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
        )
        .toBe(true);

      await expect(cards(page).nth(2).getByTestId('product-price')).toHaveText('Price on request');

      // Cards in a row are the same height whatever their content.
      const heights = await cards(page).evaluateAll((els) =>
        els.map((el) => Math.round(el.getBoundingClientRect().height)),
      );
      expect(new Set(heights).size).toBe(1);
    });

    test('Buy Now opens the seller page in a new tab without access to the store', async ({
      page,
      context,
    }) => {
      // The outside seller is not reachable from here; answer for it so the new tab can load.
      await context.route('https://seller.example.com/**', (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: '<title>Seller</title><h1>Seller page</h1>',
        }),
      );
      await page.goto(`/?cat=${encodeURIComponent(cat)}`);
      const popupPromise = context.waitForEvent('page');
      await cards(page)
        .nth(0)
        .getByRole('link', { name: new RegExp(texts.home.buyNow) })
        .click();
      const popup = await popupPromise;
      await popup.waitForLoadState();
      expect(popup.url()).toBe(link(1));
      expect(await popup.evaluate(() => window.opener)).toBeNull();
      // The store stays open where it was.
      await expect(heading(page)).toHaveText(cat);
      await popup.close();
    });
  });

  test('"No Products" for a category without products', async ({ page, serviceDb }) => {
    const cat = uniqueName('E2E Empty');
    await createCategory(serviceDb, cat);
    try {
      await page.goto('/');
      await categoryButtons(page).getByRole('button', { name: cat, exact: true }).click();
      await expect(heading(page)).toHaveText(cat);
      await expect(page.getByText(texts.home.noProducts, { exact: true })).toBeVisible();
      await expect(cards(page)).toHaveCount(0);
    } finally {
      await removeCategory(serviceDb, cat);
    }
  });

  test('paging: Load more reads beyond the first page until the list is complete', async ({
    page,
    serviceDb,
  }) => {
    const cat = uniqueName('E2E Paging');
    const total = PAGE_SIZE + 7;
    await createCategory(serviceDb, cat);
    try {
      // Prices are inserted out of order; the store lists them by price ascending.
      const rows: NewProduct[] = Array.from({ length: total }, (_, i) => {
        const n = (i * 7) % total;
        return {
          title: `${cat} Item ${String(n).padStart(2, '0')}`,
          cat,
          image: '/products/kickboard.svg',
          price: String(n + 1),
          com: `Paging item ${n}`,
          link: `https://seller.example.com/e2e/paging-${n}`,
        };
      });
      await insertProducts(serviceDb, rows);
      const expected = Array.from(
        { length: total },
        (_, n) => `${cat} Item ${String(n).padStart(2, '0')}`,
      );

      await page.goto(`/?cat=${encodeURIComponent(cat)}`);
      await expect(cards(page)).toHaveCount(PAGE_SIZE, FIRST_DATA);
      expect(await cardTitles(page)).toEqual(expected.slice(0, PAGE_SIZE));
      await page.getByRole('button', { name: texts.storefront.loadMore }).click();
      await expect(cards(page)).toHaveCount(total);
      expect(await cardTitles(page)).toEqual(expected);
      await expect(page.getByRole('button', { name: texts.storefront.loadMore })).toHaveCount(0);
    } finally {
      await removeCategory(serviceDb, cat);
    }
  });

  test('paging on All loads the whole catalogue without duplicates', async ({ page }) => {
    await page.goto('/');
    await expect(cards(page)).toHaveCount(PAGE_SIZE, FIRST_DATA);
    const loadMore = page.getByRole('button', { name: texts.storefront.loadMore });
    // The first cards may be drawn by the HTML before the app runs (decision 0190); Load more
    // comes with the app.
    await expect(loadMore).toBeVisible();
    while ((await loadMore.count()) > 0) {
      const before = await cards(page).count();
      await loadMore.click();
      await expect.poll(() => cards(page).count()).toBeGreaterThan(before);
    }
    const titles = await cardTitles(page);
    expect(titles.length).toBeGreaterThan(PAGE_SIZE);
    expect(new Set(titles).size).toBe(titles.length);
  });
});

test.describe('what the home page downloads', () => {
  test('no admin code or supabase-js, one page of products, images only near the screen', async ({
    page,
    request,
  }) => {
    // The build's own chunk list names the files: the admin page, supabase-js (auth; the
    // catalogue is read with postgrest-js alone) and zod (forms).
    const manifest = (await (await request.get('/.vite/manifest.json')).json()) as Record<
      string,
      { file: string }
    >;
    const chunk = (key: string | undefined) => {
      expect(key && manifest[key], `chunk ${key} in the manifest`).toBeTruthy();
      return `/${manifest[key!]!.file}`;
    };
    const sharedChunk = (name: string) =>
      chunk(Object.keys(manifest).find((key) => key.startsWith(`_${name}-`)));
    const adminOnly = [chunk(ADMIN_SRC), sharedChunk('supabase'), sharedChunk('zod')];

    const requested: URL[] = [];
    page.on('request', (r) => requested.push(new URL(r.url())));
    const productQueries: Record<string, unknown>[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      // The store's own cacheable read (REQ-CDN-1): a GET with the arguments in the URL.
      if (!url.pathname.endsWith('/api/catalogue/rpc/storefront_page')) return;
      productQueries.push({ p_limit: Number(url.searchParams.get('p_limit')) });
    });
    // A phone: two products a row, 12 rows, so the first page reaches far below Chromium's
    // lazy-loading distance (1,250 to 2,500 px past the screen).
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/');
    await expect(cards(page)).toHaveCount(PAGE_SIZE, FIRST_DATA);
    await page.waitForLoadState('networkidle');

    const scripts = requested.filter((u) => u.pathname.endsWith('.js')).map((u) => u.pathname);
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((file) => adminOnly.includes(file))).toEqual([]);

    expect(productQueries).toHaveLength(1);
    // One page plus one row (to learn whether there is another page), never the whole catalogue.
    expect(productQueries[0]).toMatchObject({ p_limit: PAGE_SIZE + 1 });

    const productImages = () =>
      new Set(requested.filter((u) => u.pathname.startsWith('/products/')).map((u) => u.pathname));
    const imageCount = await page
      .getByTestId('product-image')
      .evaluateAll(
        (imgs) => new Set(imgs.map((img) => new URL((img as HTMLImageElement).src).pathname)).size,
      );
    const before = productImages().size;
    expect(before, 'images far below the fold wait').toBeLessThan(imageCount);
    // Scrolling down the list, as a visitor does, brings in the rest.
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 400) {
        window.scrollTo(0, y);
        await new Promise((r) => setTimeout(r, 30));
      }
    });
    await expect.poll(() => productImages().size).toBe(imageCount);
  });
});

test.describe('static pages', () => {
  test('About Us shows the logo and the store text', async ({ page }) => {
    await page.goto('/about');
    await expect(
      page.getByRole('heading', { level: 1, name: texts.pages.aboutHeading }),
    ).toBeVisible();
    const logo = page.getByRole('main').getByRole('img', { name: /logo/i });
    await expect(logo).toBeVisible();
    await expect
      .poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth > 0))
      .toBe(true);
    await expect(page.getByRole('main')).toContainText('sports-goods storefront');
    await expect(page).toHaveTitle(`${texts.pages.aboutHeading} | ${texts.brand.title}`);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute(
      'content',
      texts.meta.about,
    );
  });

  test('Privacy Policy covers every required topic and links the contact page', async ({
    page,
  }) => {
    await page.goto('/policy');
    const main = page.getByRole('main');
    await expect(
      main.getByRole('heading', { level: 1, name: texts.pages.policyHeading }),
    ).toBeVisible();
    await expect(main).toContainText('June 2023');
    for (const topic of [
      /data we collect/i,
      /cookies/i,
      /how we use/i,
      /how long we keep/i,
      /international transfers/i,
      /deleting your data/i,
      new RegExp(`children under ${constants.privacyAgeThreshold}`, 'i'),
      /links to other websites/i,
      /changes to this policy/i,
      /contact us/i,
    ]) {
      await expect(main.getByRole('heading', { level: 2, name: topic })).toBeVisible();
    }
    await expect(
      main.getByRole('link', { name: storeSettings.contactEmail }).first(),
    ).toHaveAttribute('href', `mailto:${storeSettings.contactEmail}`);
    await main.getByRole('link', { name: texts.nav.contact }).first().click();
    await expect(page).toHaveURL(/\/contact$/);
  });

  test('any other path shows the 404 page with a Go Back link home', async ({ page }) => {
    // HTTP 404, not a 200 with the not-found page drawn by the app (REQ-PATH-8).
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: texts.notFound.title })).toBeVisible();
    await expect(page).toHaveTitle(`${texts.notFound.title} | ${texts.brand.title}`);
    await page.getByRole('link', { name: texts.notFound.goBack }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(heading(page)).toHaveText(texts.home.all);
  });
});
