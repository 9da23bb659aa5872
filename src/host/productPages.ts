// The server side of product pages and the sitemap (REQ-FIND-3 to REQ-FIND-6): answers
// /p/<slug>, its price-drop feed /p/<slug>/prices.atom (REQ-OFF-5, src/host/priceFeed.ts),
// /sitemap.xml (an index), /sitemap-pages.xml, /sitemap-products-<n>.xml and
// /robots.txt from the database, so a crawler gets the content without running JavaScript.
// Web-standard code only (URL, fetch, Response), so any host that runs fetch-style functions can
// serve it: Vite's dev server (`npm start`) and `vite preview` (the browser tests) through
// scripts/vite-plugins/product-pages.ts, Netlify through netlify/functions/product-pages.ts.
// Why not build-time pre-rendering or a Supabase edge function: docs/decisions/0150.
import { formatPrice, safeUrl, sellerSite } from '../lib/domain/format.ts';
import {
  PRODUCT_DATA_ID,
  productHead,
  scriptJson,
  seoSettings,
  type ProductPageAnswer,
  type ProductPageProduct,
  type SeoSettings,
} from '../lib/domain/productSeo.ts';
import { paths, priceFeedPath, productPath } from '../routing/paths.ts';
import { PRERENDERED_ROUTES } from '../routing/prerender.ts';
import {
  fetchStoreSettingsRow,
  settingsFromRow,
  storeSettings,
  type StoreSettings,
  type StoreSettingsRow,
} from '../lib/infra/storeSettings.ts';
import { disclosureParts } from '../lib/domain/disclosure.ts';
import { IMAGE_WIDTHS, uploadedImage } from '../lib/domain/productImages.ts';
import { texts } from '../texts.ts';
import { securityHeadersFor } from './securityHeaders.ts';
import { escapeHtml } from './html.ts';
import { buyNowHtml, offersMarkup } from './productOffers.ts';
import type { ProductOffer } from '../lib/domain/offers.ts';
import { texts as offerTexts } from '../offerTexts.ts';
import { FEED_ENTRIES, feedNotFound, priceFeedResponse, type PriceDrop } from './priceFeed.ts';
import { texts as adminTexts } from '../adminTexts.ts';
import { answerCatalogue } from './catalogueApi.ts';
import { cacheTag, CATALOGUE_TAG, finishCaching, publicHeaders } from './httpCache.ts';

/** The protocol's limit of URLs in one sitemap file (public.sitemap_products pages by it). */
export const SITEMAP_FILE_URLS = 50_000;
/** The static public pages the sitemap lists: the pre-rendered ones. */
const STATIC_PAGES: readonly string[] = PRERENDERED_ROUTES;
const ROOT_ELEMENT = '<div id="root"></div>';

export interface ProductPagesOptions {
  supabaseUrl: string;
  anonKey: string;
  /** Absolute origin for canonical URLs and the sitemap. */
  siteUrl: string;
  /** The app's HTML shell (spa.html in a build), which the page's markup and tags go into. */
  shell: () => Promise<string> | string;
  /** VITE_TURNSTILE_SITE_KEY: the CSP then allows the contact form's human check (0203). */
  turnstileSiteKey?: string;
}

async function rpc<T>(options: ProductPagesOptions, name: string, args: object): Promise<T> {
  const response = await fetch(`${options.supabaseUrl}/rest/v1/rpc/${name}`, {
    method: 'POST',
    headers: {
      apikey: options.anonKey,
      Authorization: `Bearer ${options.anonKey}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(args),
  });
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

/** The shell with a page's title, description and extra head tags, and markup in #root. */
function fillShell(shell: string, title: string, description: string, head: string, body: string) {
  if (!shell.includes(ROOT_ELEMENT)) throw new Error(`the app shell has no ${ROOT_ELEMENT}`);
  // Replacer functions: product text is data, so a `$&` or `$'` in it is never a pattern.
  return shell
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>\n    ${head}`)
    .replace(
      /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/,
      () => `<meta name="description" content="${escapeHtml(description)}" />`,
    )
    .replace(ROOT_ELEMENT, () => `<div id="root">${body}</div>`);
}

/** The product's picture: an upload's 1200 px file with srcset, a pasted link as it is. */
function pictureFor(product: ProductPageProduct, supabaseUrl: string) {
  const image = safeUrl(product.image) ?? '/product-placeholder.svg';
  const upload = uploadedImage(image, supabaseUrl);
  return {
    src: upload?.large ?? image,
    srcset: upload
      ? `${upload.small} ${IMAGE_WIDTHS.small}w, ${upload.large} ${IMAGE_WIDTHS.large}w`
      : null,
  };
}

/** The SEO values and the store settings as read for this answer. */
export type PageSettings = SeoSettings & { store?: StoreSettings };

/**
 * Who runs the shop and "Follow us", as the app's footer shows them (src/lib/ui/StoreDetails.tsx):
 * a visitor without JavaScript reaches the trader's details from every page (reg. 6).
 */
export function storeFooterHtml(store: StoreSettings): string {
  const t = texts.storefront.trader;
  const trader = [store.trader.name, store.trader.address].filter(Boolean).join(', ');
  const parts = [
    trader ? escapeHtml(trader) : '',
    `${escapeHtml(t.email)} <a href="mailto:${escapeHtml(store.contactEmail)}">${escapeHtml(
      store.contactEmail,
    )}</a>`,
    store.trader.companyNumber
      ? `${escapeHtml(t.companyNumber)} ${escapeHtml(store.trader.companyNumber)}`
      : '',
    store.trader.vatNumber
      ? `${escapeHtml(t.vatNumber)} ${escapeHtml(store.trader.vatNumber)}`
      : '',
  ].filter(Boolean);
  const follow = store.social.length
    ? `<p data-testid="follow-us">${escapeHtml(texts.brand.followUs)} ${store.social
        .map(
          ({ network, url }) =>
            `<a href="${escapeHtml(url)}" target="_blank" rel="me noopener">${escapeHtml(
              texts.storefront.social[network],
            )}</a>`,
        )
        .join(' · ')}</p>`
    : '';
  return `<footer>
${follow}<address data-testid="trader-details" style="font-style:normal"><strong>${escapeHtml(
    t.heading,
  )}</strong>: ${parts.join(' · ')}</address>
</footer>`;
}

/**
 * A product's page. `offers`: public.product_offers' rows (REQ-OFF-2), or null when they could
 * not be read: then the product's own link and price, as before offers.
 */
export function productHtml(
  shell: string,
  answer: Extract<ProductPageAnswer, { status: 'found' }>,
  settings: PageSettings,
  supabaseUrl: string,
  offers: readonly ProductOffer[] | null = null,
): string {
  const store = settings.store ?? storeSettings;
  const disclosure = disclosureParts(store.disclosure);
  const { product } = answer;
  const picture = pictureFor(product, supabaseUrl);
  const shown = offers ? offersMarkup(product, offers, store.priceLimits, disclosure.label) : null;
  const head = productHead(product, settings, picture.src, shown?.jsonLd);
  const feed = priceFeedPath(product.slug);
  const follow = `${offerTexts.priceHistory.follow} ${offerTexts.priceHistory.followHint}`;
  const tags = [
    `<link rel="canonical" href="${escapeHtml(head.canonical)}" />`,
    `<link rel="alternate" type="application/atom+xml" title="${escapeHtml(follow)}" href="${escapeHtml(feed)}" />`,
    ...head.openGraph.map(
      ([property, content]) => `<meta property="${property}" content="${escapeHtml(content)}" />`,
    ),
    `<script type="application/ld+json">${scriptJson(head.jsonLd)}</script>`,
    `<script type="application/json" id="${PRODUCT_DATA_ID}">${scriptJson(offers ? { ...answer, offers } : answer)}</script>`,
  ].join('\n    ');
  const link = safeUrl(product.link);
  const ad = disclosure.label;
  // Plain semantic markup: what a crawler reads, and what a visitor sees until the app starts
  // (it then renders the same page in its own layout). The affiliate disclosure and the
  // "sponsored" link are here too, as in the app (docs/decisions/0210).
  const body = `<main style="max-width:60rem;margin:0 auto;padding:1rem">
<p><a href="/">${escapeHtml(settings.siteName)}</a></p>
${breadcrumbHtml(product)}
<p data-testid="ad-disclosure"><strong>${escapeHtml(ad)}:</strong> ${escapeHtml(
    disclosure.line,
  )} <a href="${paths.howWeEarn}">${escapeHtml(texts.disclosure.more)}</a></p>
<article>
<img src="${escapeHtml(picture.src)}"${
    picture.srcset
      ? ` srcset="${escapeHtml(picture.srcset)}" sizes="(min-width: 62em) 36rem, 100vw"`
      : ''
  } alt="${escapeHtml(product.title)}" width="1200" height="900" style="max-width:100%;height:auto" />
<h1>${escapeHtml(product.title)}</h1>
<p data-testid="product-price">${escapeHtml(shown?.price ?? formatPrice(product.price))}</p>
${shown?.note ? `<p data-testid="product-price-note">${escapeHtml(shown.note)}</p>\n` : ''}<p>${escapeHtml(product.cat)}</p>
<p style="white-space:pre-line">${escapeHtml(product.com)}</p>
${shown?.body ?? buyNowHtml(link, sellerSite(link), ad)}
<p><a href="${escapeHtml(feed)}" type="application/atom+xml" data-testid="price-feed-link">${escapeHtml(
    offerTexts.priceHistory.follow,
  )}</a> ${escapeHtml(offerTexts.priceHistory.followHint)}</p>
</article>
</main>
${storeFooterHtml(store)}`;
  return fillShell(shell, head.title, head.description, tags, body);
}

/** Home › Catagory › Product, as the app draws it (REQ-PATH-1, ProductTrail.tsx). */
function breadcrumbHtml(product: ProductPageProduct): string {
  // `cat`: the home page's catagory parameter (storeView.ts's CATEGORY_PARAM).
  const listing = `${paths.home}?${new URLSearchParams({ cat: product.cat })}`;
  const name = ['aria-label', `"${escapeHtml(texts.productPage.breadcrumb)}"`].join('=');
  return `<nav ${name}><ol>
<li><a href="${paths.home}">${escapeHtml(texts.nav.home)}</a></li>
<li><a href="${escapeHtml(listing)}">${escapeHtml(product.cat)}</a></li>
<li aria-current="page">${escapeHtml(product.title)}</li>
</ol></nav>`;
}

function notFoundHtml(shell: string, settings: SeoSettings): string {
  return fillShell(
    shell,
    `${texts.notFound.title} | ${settings.titleSuffix}`,
    texts.meta.notFound,
    '<meta name="robots" content="noindex" />',
    `<main><h1>${escapeHtml(texts.notFound.title)}</h1><p><a href="/">${escapeHtml(
      texts.notFound.goBack,
    )}</a></p></main>`,
  );
}

/** An old slug: a permanent redirect, and for clients that ignore it a canonical + refresh. */
function movedResponse(slug: string, settings: SeoSettings): Response {
  const target = `${settings.siteUrl}${productPath(slug)}`;
  const html = `<!doctype html><html lang="en-GB"><head><meta charset="utf-8" /><title>${escapeHtml(
    settings.siteName,
  )}</title><link rel="canonical" href="${escapeHtml(target)}" /><meta http-equiv="refresh" content="0; url=${escapeHtml(
    target,
  )}" /></head><body><p><a href="${escapeHtml(target)}">${escapeHtml(target)}</a></p></body></html>`;
  return new Response(html, {
    status: 301,
    headers: { Location: productPath(slug), 'Content-Type': 'text/html; charset=utf-8' },
  });
}

// Browsers ask again every time (a rename or delete shows at once); a CDN may keep an answer
// for a minute and serve it 30 s more while it asks again (httpCache.ts, decision 0255).
const xml = (body: string) =>
  new Response(`<?xml version="1.0" encoding="UTF-8"?>\n${body}\n`, {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', ...publicHeaders() },
  });
const html = (body: string, status = 200, tags: string[] = [CATALOGUE_TAG]) =>
  new Response(body, {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', ...publicHeaders(tags) },
  });

async function sitemapIndex(options: ProductPagesOptions, settings: SeoSettings) {
  const summary = await rpc<{ products: number; last_modified: string | null }>(
    options,
    'sitemap_summary',
    {},
  );
  const files = Math.ceil(summary.products / SITEMAP_FILE_URLS);
  const site = escapeHtml(settings.siteUrl);
  const entries = [`<sitemap><loc>${site}/sitemap-pages.xml</loc></sitemap>`];
  for (let n = 1; n <= files; n++) {
    const lastmod = summary.last_modified ? `<lastmod>${summary.last_modified}</lastmod>` : '';
    entries.push(`<sitemap><loc>${site}/sitemap-products-${n}.xml</loc>${lastmod}</sitemap>`);
  }
  return xml(
    `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</sitemapindex>`,
  );
}

function sitemapPages(settings: SeoSettings) {
  const urls = STATIC_PAGES.map((p) => `<url><loc>${escapeHtml(settings.siteUrl + p)}</loc></url>`);
  return xml(
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>`,
  );
}

async function sitemapProducts(options: ProductPagesOptions, settings: SeoSettings, n: number) {
  const rows = await rpc<Array<[slug: string, updatedAt: string]>>(options, 'sitemap_products', {
    p_page: n,
  });
  if (rows.length === 0 && n > 1) return null;
  const urls = rows.map(
    ([slug, updatedAt]) =>
      `<url><loc>${escapeHtml(`${settings.siteUrl}${productPath(slug)}`)}</loc><lastmod>${
        updatedAt
      }</lastmod></url>`,
  );
  return xml(
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>`,
  );
}

function robotsTxt(settings: SeoSettings) {
  const body = `# The storefront is public; the admin area and its sign-in page are not for search engines
# (they also carry <meta name="robots" content="noindex">).
User-agent: *
Allow: /
Disallow: /admin
Disallow: /login

Sitemap: ${settings.siteUrl}/sitemap.xml
`;
  return new Response(body, {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', ...publicHeaders() },
  });
}

/**
 * The SEO values and the store settings (name, address, disclosure, who runs the shop, Follow us)
 * as the store settings row says now: read per request (one primary-key row, milliseconds; a
 * product page gets it in its own read), so an admin's change shows in the next answer (and
 * through a CDN within its s-maxage of 60 s) without a rebuild (docs/decisions/0211). When the
 * row cannot be read, the build's values.
 */
async function liveSeoSettings(options: ProductPagesOptions): Promise<PageSettings> {
  try {
    return pageSettings(options, await fetchStoreSettingsRow(options.supabaseUrl, options.anonKey));
  } catch (error) {
    console.error('product pages: store settings:', error);
    return pageSettings(options, null);
  }
}

function pageSettings(options: ProductPagesOptions, row: StoreSettingsRow | null): PageSettings {
  const base = seoSettings(options.siteUrl, storeSettings.name);
  if (!row) return base;
  return {
    ...base,
    siteName: row.store_name || base.siteName,
    siteUrl: row.site_url ? row.site_url.replace(/\/+$/, '') : base.siteUrl,
    store: settingsFromRow(row, storeSettings),
  };
}

/** public.product_page_whole's answer: the page, its offers when found, the settings row. */
type WholeProductPage = ProductPageAnswer & { settings: StoreSettingsRow | null };

/**
 * /p/<slug>: one Data API read for the product, its offers (REQ-OFF-2) and the store settings
 * (REQ-CDN-12). An old slug: 301 to the current one; unknown: the 404 page; an outage: 503 with
 * the empty shell (the app then shows its error and a crawler comes back later).
 */
async function productPage(options: ProductPagesOptions, encodedSlug: string): Promise<Response> {
  const slug = slugOf(encodedSlug);
  try {
    if (slug === null)
      return html(notFoundHtml(await options.shell(), await liveSeoSettings(options)), 404);
    const { settings: row, ...answer } = await rpc<WholeProductPage>(
      options,
      'product_page_whole',
      { p_slug: slug },
    );
    const settings = pageSettings(options, row);
    if (answer.status === 'moved') return movedResponse(answer.slug, settings);
    if (answer.status === 'missing')
      return html(notFoundHtml(await options.shell(), settings), 404);
    const page = productHtml(
      await options.shell(),
      answer,
      settings,
      options.supabaseUrl,
      answer.offers ?? null,
    );
    return html(page, 200, [CATALOGUE_TAG, cacheTag('product', answer.product.id)]);
  } catch (error) {
    console.error('product pages:', error);
    return new Response(await options.shell(), {
      status: 503,
      headers: { 'Content-Type': 'text/html; charset=utf-8', 'Retry-After': '60' },
    });
  }
}

/** A slug from the address: null when it is malformed or longer than any product's. */
function slugOf(encoded: string): string | null {
  try {
    const slug = decodeURIComponent(encoded);
    return slug.length > 200 ? null : slug;
  } catch {
    return null;
  }
}

/**
 * /p/<slug>/prices.atom: the product as its page finds it (hidden or unknown: 404 with the
 * spec's "Product Not Foound", as plain text; an old slug: 301 to the feed's new address), then
 * its drops (docs/decisions/0232).
 */
async function priceFeed(
  options: ProductPagesOptions,
  settings: PageSettings,
  encodedSlug: string,
  requestHeaders: Headers,
): Promise<Response> {
  const notFound = () => feedNotFound(adminTexts.product.notFound);
  const slug = slugOf(encodedSlug);
  if (slug === null) return notFound();
  const answer = await rpc<ProductPageAnswer>(options, 'product_page', { p_slug: slug });
  if (answer.status === 'missing') return notFound();
  if (answer.status === 'moved') {
    return new Response(null, {
      status: 301,
      headers: { Location: `${productPath(answer.slug)}/prices.atom` },
    });
  }
  const drops = await rpc<PriceDrop[]>(options, 'product_price_drops', {
    p_product_id: answer.product.id,
    p_limit: FEED_ENTRIES,
  });
  return priceFeedResponse(
    { product: answer.product, drops, storeName: settings.siteName, siteUrl: settings.siteUrl },
    requestHeaders,
  );
}

/**
 * The answer for one GET, or null when the path is not one of ours (the host serves it as
 * usual). A database outage gives 503 with the empty shell: the app then shows its error and a
 * crawler comes back later. `requestHeaders`: the request's (If-None-Match for the feed).
 */
export async function answerProductPages(
  url: URL,
  options: ProductPagesOptions,
  requestHeaders: Headers = new Headers(),
): Promise<Response | null> {
  const pathname = url.pathname;
  const product = /^\/p\/([^/]+)\/?$/.exec(pathname);
  const feed = /^\/p\/([^/]+)\/prices\.atom$/.exec(pathname);
  const productsFile = /^\/sitemap-products-([1-9][0-9]{0,4})\.xml$/.exec(pathname);
  const ours = ['/robots.txt', '/sitemap-pages.xml', '/sitemap.xml'].includes(pathname);
  if (!product && !feed && !productsFile && !ours) return null;
  if (product) return productPage(options, product[1]!);
  const settings = await liveSeoSettings(options);
  if (pathname === '/robots.txt') return robotsTxt(settings);
  if (pathname === '/sitemap-pages.xml') return sitemapPages(settings);
  try {
    if (pathname === '/sitemap.xml') return await sitemapIndex(options, settings);
    if (productsFile) {
      const file = await sitemapProducts(options, settings, Number(productsFile[1]));
      return file ?? new Response('Not Found', { status: 404 });
    }
    return await priceFeed(options, settings, feed![1]!, requestHeaders);
  } catch (error) {
    console.error('product pages:', error);
    return new Response('Service Unavailable', { status: 503, headers: { 'Retry-After': '60' } });
  }
}

/**
 * What the host's function sends for a path it serves (netlify/functions/product-pages.ts, and
 * `vite preview` for the same paths): the answer (the catalogue reads of catalogueApi.ts too), 404
 * for a path of its routes that is not a page, 405 for a method other than GET or HEAD,
 * and on every answer the full security header set of public/_headers. Hosts apply `_headers`
 * to static files only, so a function's responses carry none unless it sends them. The CSP's
 * script hashes are those of the shell the pages are built from (docs/decisions/0206).
 */
export async function functionAnswer(
  url: URL,
  options: ProductPagesOptions,
  requestHeaders: Headers = new Headers(),
  method = 'GET',
): Promise<Response> {
  let shell: Promise<string> | undefined;
  const once = () => (shell ??= Promise.resolve().then(options.shell));
  const catalogue = await answerCatalogue(url, method, requestHeaders, options);
  const pages = () =>
    method === 'GET' || method === 'HEAD'
      ? answerProductPages(url, { ...options, shell: once }, requestHeaders)
      : Promise.resolve(
          new Response('Method Not Allowed', { status: 405, headers: { Allow: 'GET, HEAD' } }),
        );
  const found = await (catalogue ? Promise.resolve(catalogue) : pages()).then(
    (answer) => answer ?? new Response('Not Found', { status: 404 }),
    // Only when the shell itself cannot be read (answerProductPages catches the rest).
    () => new Response('Service Unavailable', { status: 503, headers: { 'Retry-After': '60' } }),
  );
  // ETag and 304, and never a shared copy of a signed-in or cookie-carrying request (REQ-CDN-2).
  const answer = await finishCaching(found, requestHeaders, options.anonKey);
  // No shell (the site is down, or a JSON read that needs none): no inline script is allowed,
  // which only makes the CSP stricter.
  const page = catalogue ? '' : await once().catch(() => '');
  const headers = await securityHeadersFor(
    url.pathname,
    options.supabaseUrl,
    page,
    options.turnstileSiteKey,
  );
  for (const [name, value] of headers) answer.headers.set(name, value);
  return answer;
}
