// The home page's early first page (REQ-FIND-7, decision 0190). scripts/vite-plugins/first-page.ts bundles
// this module into a small inline script in the HTML <head>. It asks for the first page of
// products while the HTML is still parsing and, on a plain `/`, draws the cards from the answer
// into the pre-rendered page before the app's JavaScript has even loaded. The app then takes
// both over (firstPagePrefetch.ts): the answer, instead of asking again, and the drawn cards,
// which React hydrates as they are. No React or Mantine here: the card markup is a copy of
// ProductCard's own, rendered at build time (entry-server.tsx) into a <template> in the page.
import { productPath } from '../../routing/paths';
import { buyTarget, cardPrice, type FreshnessLimits } from '../../lib/domain/offerPrice';
import type { CardProduct } from '../../lib/domain/tables';
import { cardImage } from './cardImage';
import { PAGE_SIZE, SKELETON_CARDS } from './paging';

/** What the early script leaves on `window.__marFirstPage` for the app. */
export interface EarlyFirstPage {
  /** The category asked for (null: all). */
  cat: string | null;
  /** The answer's rows (one more than a page when there are more); rejects on an HTTP error. */
  rows: Promise<CardProduct[]>;
  /** Set once the cards are drawn: exactly what the page shows. */
  drawn?: { products: CardProduct[]; hasMore: boolean };
  /** While cards are still being drawn, step by step: draws the rest at once. */
  finish?: () => void;
  /** Buy Now clicks on a drawn card before the app took over: product and offer ids. */
  clicks: [product: string, offer: string | null][];
  /** Set by the app just before it hydrates the page: from then on nothing is drawn. */
  sealed?: boolean;
}

declare global {
  interface Window {
    __marFirstPage?: EarlyFirstPage;
  }
}

export interface EarlyFirstPageConfig {
  /** storefront_page's URL on the site's own origin with the page size and columns, no category. */
  url: string;
  categoryParam: string;
  supabaseUrl: string;
  /** The alt text of the placeholder picture (texts.storefront.imageFallbackAlt). */
  fallbackAlt: string;
  /**
   * texts.offers with "%s" where the price or the number of sellers goes: this script carries
   * no texts module (its size is in every page's HTML).
   */
  offerTexts: { from: string; sellers: string; stale: string; hidden: string };
  /** The build's store settings' price limits, which the app hydrates with (REQ-OFF-3). */
  priceLimits: FreshnessLimits;
}

/** The <template> with the grid and card markup (scripts/vite-plugins/prerender.ts writes it). */
export const CARD_TEMPLATE_ID = 'mar-first-cards';
/** Stand-ins in the template's markup for one product's values (entry-server.tsx). */
export const CARD_TOKENS = {
  title: '__mar_title__',
  slug: '__mar_slug__',
  price: '__mar_price__',
  /** The note under the price ("3 sellers", an old price's note); put in by entry-server.tsx. */
  note: '__mar_note__',
  cat: '__mar_cat__',
  com: '__mar_com__',
  image: 'https://mar.invalid/__mar_image__',
  link: 'https://mar.invalid/__mar_link__',
  /**
   * The seller's site as the card names it (docs/decisions/0210): sellerSite(link) of the
   * stand-in link. Listed after the link, which the pattern matches first where both start.
   */
  seller: 'mar.invalid',
} as const;
/** Which card template: one whose product has a seller link, one without. */
export const CARD_KIND_ATTRIBUTE = 'data-mar-card';

const TOKEN_PATTERN = new RegExp(
  Object.values(CARD_TOKENS)
    .map((t) => t.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('|'),
  'g',
);

/** One product's value for each stand-in of the template. */
function cardValues(
  product: CardProduct,
  link: string | null,
  seller: string | null,
  config: EarlyFirstPageConfig,
): Record<string, string> {
  const t = config.offerTexts;
  const fill = (text: string, value: string | number) => text.replace('%s', () => String(value));
  const shown = cardPrice(product, config.priceLimits, Date.now(), {
    ...t,
    from: (price) => fill(t.from, price),
    sellers: (n) => fill(t.sellers, n),
  });
  return {
    [CARD_TOKENS.title]: product.title,
    [CARD_TOKENS.slug]: productPath(product.slug).slice('/p/'.length),
    [CARD_TOKENS.price]: shown.price,
    [CARD_TOKENS.note]: shown.note,
    [CARD_TOKENS.cat]: product.cat ?? '',
    [CARD_TOKENS.com]: product.com ?? '',
    [CARD_TOKENS.image]: '',
    [CARD_TOKENS.link]: link ?? '',
    [CARD_TOKENS.seller]: seller ?? '',
  };
}

/** Line breaks as the HTML parser writes them (React's markup is parsed; these values are not). */
const asParsed = (text: string) => text.replace(/\r\n?/g, '\n');

/** Whether a text holds a stand-in (without the pattern's `g`, which makes `test` stateful). */
const HAS_TOKEN = new RegExp(TOKEN_PATTERN.source);

/** Where a card template holds stand-ins: a text node, or an attribute, by child indices. */
interface Slot {
  path: number[];
  attribute: string | null;
  text: string;
}

function slotsOf(card: Element): Slot[] {
  const slots: Slot[] = [];
  const visit = (node: Node, path: number[]) => {
    if (node.nodeType === Node.TEXT_NODE && HAS_TOKEN.test(node.nodeValue ?? ''))
      slots.push({ path, attribute: null, text: node.nodeValue! });
    if (node instanceof Element)
      for (const { name, value } of node.attributes)
        if (HAS_TOKEN.test(value)) slots.push({ path, attribute: name, text: value });
    node.childNodes.forEach((child, i) => visit(child, [...path, i]));
  };
  visit(card, []);
  return slots;
}

/**
 * One card: a copy of the parsed template with the product's values put in as text and attribute
 * values, in a single pass over each stand-in. Nothing is parsed as HTML (a product's text cannot
 * become markup), and a copy costs far less than parsing a card's markup anew (decision 0267).
 */
function fillCard(card: Element, slots: Slot[], values: Record<string, string>): Element {
  const copy = card.cloneNode(true) as Element;
  const nodes = slots.map(({ path }) => path.reduce<Node>((n, i) => n.childNodes[i]!, copy));
  slots.forEach(({ attribute, text }, i) => {
    const value = asParsed(text.replace(TOKEN_PATTERN, (token) => values[token] ?? ''));
    const node = nodes[i]!;
    if (attribute) (node as Element).setAttribute(attribute, value);
    // The parser makes no text node of an empty text, and React writes none.
    else if (value) node.nodeValue = value;
    else node.parentNode?.removeChild(node);
  });
  return copy;
}

/**
 * How a later step of drawing runs: the inline script gives each its own task after the next
 * frame (`nextFrame`), the unit tests run them at once (the default).
 */
export type Later = (step: () => void) => void;

/** After the browser has drawn a frame: the cards of one step are styled, laid out and painted alone. */
export const nextFrame: Later = (step) => requestAnimationFrame(() => setTimeout(step));

/**
 * Cards drawn in the first step: as many as the loading placeholder shows (ProductGrid's
 * skeleton), so the page keeps its shape on screen; the rest go in below it, a few a step.
 * Drawn in one go, a page of cards was one long task on a phone (decision 0267).
 */
export const FIRST_STEP_CARDS = SKELETON_CARDS;
export const CARDS_PER_STEP = 4;

/**
 * Draws the first page into `doc` in place of the loading placeholder, from the templates; does
 * nothing (returns false) when the page is not as expected. The first cards are drawn at once, the
 * rest in later steps (`later`); `early.drawn` is set when the last is on the page, and
 * `early.finish` draws whatever is left at once (the app calls it before it hydrates).
 * Exported for the unit tests.
 */
export function drawEarlyCards(
  doc: Document,
  early: EarlyFirstPage,
  rows: CardProduct[],
  config: EarlyFirstPageConfig,
  later: Later = (step) => step(),
): boolean {
  if (early.sealed || !Array.isArray(rows) || rows.length === 0) return false;
  const loading = doc.querySelector('[data-testid="catalogue-loading"]');
  const template = doc.getElementById(CARD_TEMPLATE_ID) as HTMLTemplateElement | null;
  const grid = template?.content.querySelector('[data-testid="product-grid"]');
  if (!loading || !grid) return false;
  // The template's cards stay in its inert document: copies load no picture until they are
  // on the page, with their own.
  const cards = new Map(
    [...grid.querySelectorAll(`[${CARD_KIND_ATTRIBUTE}]`)].map((c) => {
      const card = c.cloneNode(true) as Element;
      card.removeAttribute(CARD_KIND_ATTRIBUTE);
      return [c.getAttribute(CARD_KIND_ATTRIBUTE), { card, slots: slotsOf(card) }];
    }),
  );
  const products = rows.slice(0, PAGE_SIZE);
  // Every card's values first: a product the template cannot draw leaves the page untouched.
  const filled = products.map((product) => {
    const target = buyTarget(product);
    const cardTemplate = cards.get(target.link ? 'link' : 'no-link');
    if (!cardTemplate) throw new Error('card template missing');
    // A link without a seller to name (the database allows none) is left to the app.
    if (target.link && !target.seller) throw new Error('no seller site');
    const values = cardValues(product, target.link, target.seller, config);
    return { target, cardTemplate, values };
  });
  const shown = grid.cloneNode(false) as Element;
  const drawCard = (i: number) => {
    const product = products[i]!;
    const { target, cardTemplate, values } = filled[i]!;
    const card = fillCard(cardTemplate.card, cardTemplate.slots, values);
    const img = card.querySelector('img');
    if (img) {
      const image = cardImage(product.image, false, config.supabaseUrl);
      img.setAttribute('src', image.src);
      img.setAttribute('alt', asParsed(image.placeholder ? config.fallbackAlt : product.title));
      for (const [name, value] of [
        ['srcset', image.srcSet],
        ['sizes', image.sizes],
        ['fetchpriority', i === 0 ? 'high' : undefined],
      ] as const)
        if (value) img.setAttribute(name, value);
        else img.removeAttribute(name);
      img.setAttribute('loading', i === 0 ? 'eager' : 'lazy');
    }
    // Counted once the app has started (HomePage); the link opens the seller as always.
    const buy = card.querySelector('a[target="_blank"]');
    const remember = () => {
      if (!early.sealed) early.clicks.push([product.id, target.offerId]);
    };
    buy?.addEventListener('click', remember);
    buy?.addEventListener('auxclick', (e) => (e as MouseEvent).button === 1 && remember());
    shown.append(card);
  };
  let next = 0;
  const drawUpTo = (end: number) => {
    for (; next < Math.min(end, products.length); next++) drawCard(next);
  };
  const finish = () => {
    drawUpTo(products.length);
    early.finish = undefined;
    early.drawn = { products, hasMore: rows.length > PAGE_SIZE };
  };
  const step = () => {
    // Sealed: the app has drawn the rest already (finish) and owns the page.
    if (early.sealed || !early.finish) return;
    drawUpTo(next + CARDS_PER_STEP);
    if (next < products.length) later(step);
    else finish();
  };
  drawUpTo(FIRST_STEP_CARDS);
  loading.replaceWith(shown);
  early.finish = finish;
  if (next < products.length) later(step);
  else finish();
  return true;
}

/** The inline script's body: asks for the first page and, on a plain `/`, draws it. */
export function startEarlyFirstPage(config: EarlyFirstPageConfig): void {
  try {
    const query = new URLSearchParams(location.search);
    let other = false;
    query.forEach((_value, key) => {
      if (key !== config.categoryParam) other = true;
    });
    if (location.pathname !== '/' || other) return;
    const cat = (query.get(config.categoryParam) ?? '').trim() || null;
    // The site's own cacheable read (/api/catalogue): no key, no cookies, one URL per catagory.
    // p_cat first, as postgrest-js writes the app's own read: the very same URL.
    const url = cat
      ? config.url.replace('?', () => `?${new URLSearchParams({ p_cat: cat })}&`)
      : config.url;
    const early: EarlyFirstPage = {
      cat,
      clicks: [],
      rows: fetch(url, { credentials: 'omit' }).then((response) => {
        if (!response.ok) throw new Error(`first page: HTTP ${response.status}`);
        return response.json() as Promise<CardProduct[]>;
      }),
    };
    window.__marFirstPage = early;
    // Only the plain `/` is hydrated from its pre-rendered markup (app/start.tsx); the app draws
    // any other view itself.
    if (location.search) return;
    const draw = (rows: CardProduct[]) => {
      try {
        drawEarlyCards(document, early, rows, config, nextFrame);
      } catch {
        // The app draws the cards as it always did.
      }
    };
    // As soon as the page is parsed ("interactive"): DOMContentLoaded would also wait for the
    // deferred app entry script to download and run.
    early.rows.then(
      (rows) => {
        if (document.readyState !== 'loading') return draw(rows);
        const parsed = () => {
          if (document.readyState === 'loading') return;
          document.removeEventListener('readystatechange', parsed);
          draw(rows);
        };
        document.addEventListener('readystatechange', parsed);
      },
      () => undefined,
    );
  } catch {
    // Nothing left behind: the app asks as usual.
  }
}
