// @vitest-environment jsdom
// The home page's early cards (src/features/storefront/earlyFirstPage.ts): drawn by the HTML's
// inline script from the build-time templates (entry-server.tsx), they must be exactly what React
// renders for the same products, or hydration would not match and React would replace the page.
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../src/app/AppProviders';
import { renderCardTemplates } from '../../src/entry-server';
import {
  CARDS_PER_STEP,
  drawEarlyCards,
  FIRST_STEP_CARDS,
  type EarlyFirstPage,
  type EarlyFirstPageConfig,
} from '../../src/features/storefront/earlyFirstPage';
import { PAGE_SIZE, SKELETON_CARDS } from '../../src/features/storefront/paging';
import { sealEarlyFirstPage } from '../../src/features/storefront/firstPagePrefetch';
import { ProductGrid } from '../../src/features/storefront/ProductGrid';
import type { CardProduct } from '../../src/lib/domain/tables';
import { texts } from '../../src/texts';

const API = 'https://abc.supabase.co';
const upload = `${API}/storage/v1/object/public/product-images/0b6c2c5e-8f3a-4c1d-9e2f-1a2b3c4d5e6f/1200.webp`;

const product = (n: number, patch: Partial<CardProduct> = {}): CardProduct => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  title: `Product ${n}`,
  cat: 'Football',
  image: `https://img.example.com/${n}.png`,
  price: '24.5',
  price_value: 24.5,
  com: 'A comment',
  link: `https://seller.example.com/${n}`,
  slug: `product-${n}`,
  ...patch,
});

/** Every kind of card: uploaded picture, pasted link, no or unsafe picture, no or unsafe link,
 *  text that needs escaping, an empty comment and price, a free-text price, another seller. */
const fixtures: CardProduct[] = [
  product(1, { image: upload }),
  product(2),
  product(3, { image: '', link: '' }),
  product(4, { image: 'javascript:alert(1)', link: 'javascript:alert(1)' }),
  product(5, {
    title: `<b>"Tom's" & Jerry</b> __mar_cat__`,
    cat: 'Table & <Tennis>',
    com: 'Line one\nline two <script>alert(1)</script>',
    slug: 'naïve café/?',
  }),
  product(6, { com: '', price: '' }),
  product(7, { price: 'POA' }),
  // The seller's site named beside Buy Now (decision 0210): www. dropped, another host.
  product(8, { link: 'https://www.decathlon.co.uk/p/8?size=5&colour=red' }),
  // REQ-OFF-2, REQ-OFF-3: several sellers ("from £X", "3 sellers", Buy Now to the database's
  // choice, named by its seller), one other seller's price, an old price, a hidden one.
  product(9, {
    price_value: 19.99,
    offer_count: 3,
    price_checked_at: new Date().toISOString(),
    buy_offer_id: '00000000-0000-4000-8000-0000000000f9',
    buy_link: 'https://www.sportsdirect.com/p/9?awc=store',
    buy_seller: 'Sports Direct',
  }),
  product(10, { price_value: 22, offer_count: 1, price_checked_at: new Date().toISOString() }),
  product(11, {
    price_value: null,
    offer_count: 0,
    price_checked_at: new Date(Date.now() - 8 * 86_400_000).toISOString(),
  }),
  product(12, {
    price_value: null,
    offer_count: 0,
    price_checked_at: new Date(Date.now() - 40 * 86_400_000).toISOString(),
  }),
  // Line breaks as a Windows form sends them: the card holds what the HTML parser makes of them.
  product(13, { title: 'Two\r\nlines', com: 'One\r\ntwo\rthree' }),
];

const config: EarlyFirstPageConfig = {
  url: `/api/catalogue/rpc/storefront_page?p_limit=25`,
  categoryParam: 'cat',
  supabaseUrl: API,
  fallbackAlt: texts.storefront.imageFallbackAlt,
  offerTexts: {
    from: texts.offers.from('%s'),
    sellers: texts.offers.sellers('%s'),
    stale: texts.offers.stale,
    hidden: texts.offers.hidden,
  },
  priceLimits: { staleDays: 7, hiddenDays: 30 },
};

const early = (): EarlyFirstPage => ({ cat: null, clicks: [], rows: Promise.resolve([]) });

/** A page as pre-rendered: the loading placeholder, and the templates at the end. */
async function pageWithTemplates() {
  document.body.innerHTML = `<main><div role="status" data-testid="catalogue-loading"></div></main>${await renderCardTemplates()}`;
}

/** React's own markup of the grid for these products, as a DOM element. */
function reactGrid(products: CardProduct[]): Element {
  const html = renderToString(
    <AppProviders>
      <MemoryRouter>
        <ProductGrid products={products} />
      </MemoryRouter>
    </AppProviders>,
  );
  const holder = document.createElement('div');
  holder.innerHTML = html;
  return holder.querySelector('[data-testid="product-grid"]')!;
}

/** Markup with every element's attributes in name order (their order does not matter). */
function canonical(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  for (const el of [copy, ...copy.querySelectorAll('*')]) {
    const attributes = [...el.attributes].sort((a, b) => a.name.localeCompare(b.name));
    for (const a of attributes) el.removeAttribute(a.name);
    for (const a of attributes) el.setAttribute(a.name, a.value);
  }
  return copy.outerHTML;
}

afterEach(() => {
  vi.unstubAllEnvs();
  document.body.innerHTML = '';
});

describe('the early cards', () => {
  it('are exactly the markup React renders for the same products', async () => {
    vi.stubEnv('VITE_SUPABASE_URL', API);
    await pageWithTemplates();
    const state = early();
    expect(drawEarlyCards(document, state, fixtures, config)).toBe(true);
    const drawn = document.querySelector('main [data-testid="product-grid"]')!;
    const expected = reactGrid(fixtures);
    expect(drawn.children).toHaveLength(fixtures.length);
    // Card by card first, so a difference names the card.
    [...expected.children].forEach((card, i) => {
      expect(canonical(drawn.children[i]!), fixtures[i]!.title).toBe(canonical(card));
    });
    expect(drawn.isEqualNode(expected)).toBe(true);
    expect(document.querySelector('[data-testid="catalogue-loading"]')).toBeNull();
    expect(state.drawn).toEqual({ products: fixtures, hasMore: false });
    // The uploaded picture comes in two widths; the first card's picture is fetched at once.
    const first = drawn.querySelector('img')!;
    expect(first.getAttribute('srcset')).toContain('400.webp 400w');
    expect(first.getAttribute('loading')).toBe('eager');
    // The offers' price lines (REQ-OFF-2, REQ-OFF-3) and the chosen seller's Buy Now.
    const card = (n: number) => drawn.children[n - 1]!;
    const price = (n: number) => card(n).querySelector('[data-testid="product-price"]')!;
    const note = (n: number) => card(n).querySelector('[data-testid="product-price-note"]')!;
    expect(price(9).textContent).toBe('from £19.99');
    expect(note(9).textContent).toBe('3 sellers');
    expect(card(9).querySelector('a[target="_blank"]')!.getAttribute('href')).toBe(
      'https://www.sportsdirect.com/p/9?awc=store',
    );
    expect(card(9).querySelector('[data-testid="ad-label"]')!.textContent).toBe('AdSports Direct');
    expect(price(10).textContent).toBe('£22.00');
    expect(note(2).textContent).toBe('');
    expect(note(11).textContent).toBe(texts.offers.stale);
    expect(price(12).textContent).toBe('');
    expect(note(12).textContent).toBe(texts.offers.hidden);
  });

  it('draw one page, and say whether there is more', async () => {
    await pageWithTemplates();
    const state = early();
    const rows = Array.from({ length: PAGE_SIZE + 1 }, (_, i) => product(i + 1));
    drawEarlyCards(document, state, rows, config);
    expect(document.querySelectorAll('main [data-testid="product-card"]')).toHaveLength(PAGE_SIZE);
    expect(state.drawn?.hasMore).toBe(true);
  });

  it('draw as many cards as the placeholder shows at once, then a few a step, and say so when done', async () => {
    await pageWithTemplates();
    const state = early();
    const steps: (() => void)[] = [];
    const rows = Array.from({ length: PAGE_SIZE + 1 }, (_, i) => product(i + 1));
    expect(drawEarlyCards(document, state, rows, config, (step) => steps.push(step))).toBe(true);
    const drawnCards = () => document.querySelectorAll('main [data-testid="product-card"]').length;
    // The page keeps the placeholder's shape: its 8 card outlines become 8 cards.
    expect(FIRST_STEP_CARDS).toBe(SKELETON_CARDS);
    expect(drawnCards()).toBe(FIRST_STEP_CARDS);
    expect(state.drawn, 'not all drawn yet').toBeUndefined();
    let count = FIRST_STEP_CARDS;
    while (steps.length > 0) {
      steps.shift()!();
      count = Math.min(count + CARDS_PER_STEP, PAGE_SIZE);
      expect(drawnCards()).toBe(count);
    }
    expect(count).toBe(PAGE_SIZE);
    expect(state.drawn).toEqual({ products: rows.slice(0, PAGE_SIZE), hasMore: true });
    expect(state.finish).toBeUndefined();
  });

  it('draw the rest at once when the app takes over between two steps, and nothing after', async () => {
    await pageWithTemplates();
    const state = early();
    window.__marFirstPage = state;
    const steps: (() => void)[] = [];
    const rows = Array.from({ length: PAGE_SIZE }, (_, i) => product(i + 1));
    drawEarlyCards(document, state, rows, config, (step) => steps.push(step));
    steps.shift()!();
    sealEarlyFirstPage();
    const grid = document.querySelector('main [data-testid="product-grid"]')!;
    // React hydrates exactly what is on the page: the whole first page.
    expect(grid.children).toHaveLength(PAGE_SIZE);
    expect(grid.isEqualNode(reactGrid(rows))).toBe(true);
    expect(state.drawn).toEqual({ products: rows, hasMore: false });
    // A step still scheduled finds the app in charge and draws nothing.
    steps.forEach((step) => step());
    expect(grid.children).toHaveLength(PAGE_SIZE);
    delete window.__marFirstPage;
  });

  it('leave the page untouched when one of the products cannot be drawn', async () => {
    await pageWithTemplates();
    const state = early();
    // A site-relative seller link has no site to name beside Buy Now: the app draws the page.
    const rows = [...fixtures.slice(0, 10), product(11, { link: '/go/11' })];
    expect(() => drawEarlyCards(document, state, rows, config, () => {})).toThrow();
    expect(document.querySelector('[data-testid="catalogue-loading"]')).not.toBeNull();
    expect(document.querySelector('main [data-testid="product-card"]')).toBeNull();
  });

  it('remember a Buy Now click until the app has taken over, then leave it to React', async () => {
    await pageWithTemplates();
    const state = early();
    drawEarlyCards(document, state, fixtures.slice(0, 2), config);
    const buy = document.querySelectorAll<HTMLAnchorElement>('main a[target="_blank"]');
    buy[1]!.addEventListener('click', (e) => e.preventDefault());
    buy[1]!.click();
    expect(state.clicks).toEqual([[fixtures[1]!.id, null]]);
    state.sealed = true;
    buy[1]!.click();
    expect(state.clicks).toEqual([[fixtures[1]!.id, null]]);
  });

  it('are not drawn once the app has started, for no products, or on another page', async () => {
    await pageWithTemplates();
    const sealed = { ...early(), sealed: true };
    expect(drawEarlyCards(document, sealed, fixtures, config)).toBe(false);
    expect(drawEarlyCards(document, early(), [], config)).toBe(false);
    document.querySelector('[data-testid="catalogue-loading"]')!.remove();
    expect(drawEarlyCards(document, early(), fixtures, config)).toBe(false);
    expect(document.querySelector('[data-testid="product-card"]')).toBeNull();
  });
});
