// What search engines and shared links read of a product page: title, description, canonical
// URL, Open Graph tags and schema.org Product JSON-LD. Pure functions of the product and the
// store's SEO settings, used by the page in the browser (ProductPage) and by the server that
// answers /p/<slug> without JavaScript (src/host/productPages.ts), so both say the same.
import { texts } from '../../texts.ts';
import type { PriceHistoryDay, ProductOffer } from './offers.ts';
import { productPath } from '../../routing/paths.ts';
import { formatPrice, safeUrl, sellerSite } from './format.ts';

// A module of its own: the page's first render reads it without the SEO code (productHead.ts).
export { PRODUCT_DATA_ID } from './productPageData.ts';

/** A product page's data, as public.product_page(slug) returns it. */
export interface ProductPageProduct {
  id: string;
  slug: string;
  title: string;
  cat: string;
  image: string;
  price: string;
  com: string;
  link: string;
  updated_at: string;
  /** The first number in the price (public.price_number); null when the text has none. */
  price_number: number | null;
}

export type ProductPageAnswer =
  | {
      status: 'found';
      product: ProductPageProduct;
      /**
       * The product's offers as the server read them for its HTML (public.product_offers), so the
       * page's first render needs no second read of its own (REQ-CDN-11); absent from the
       * database's own answer.
       */
      offers?: ProductOffer[] | null;
      /**
       * The product's lowest price per day over the 90 days the page draws, read with it
       * (public.product_page_whole, REQ-CDN-13); absent from the database's own answer.
       */
      history?: PriceHistoryDay[] | null;
    }
  | { status: 'moved'; slug: string }
  | { status: 'missing' };

/**
 * The store's SEO values: `siteName` is the store settings' name (the caller reads them: this
 * module only computes), `siteUrl` the absolute origin canonical URLs and the sitemap use.
 */
export function seoSettings(siteUrl: string, siteName: string) {
  return {
    siteName,
    /** Page titles end in the header's title, as every other page's (RouteMeta). */
    titleSuffix: texts.brand.title,
    siteUrl: siteUrl.replace(/\/+$/, ''),
    currency: 'GBP',
    locale: 'en_GB',
  } as const;
}
export type SeoSettings = ReturnType<typeof seoSettings>;

/** Meta descriptions are cut around 160 characters by search engines: cut at a word. */
export function metaDescription(product: Pick<ProductPageProduct, 'com' | 'price'>): string {
  const text = `${formatPrice(product.price)} · ${product.com.replace(/\s+/g, ' ').trim()}`;
  if (text.length <= 160) return text;
  const cut = text.slice(0, 157);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 100)).trimEnd()}…`;
}

/** An absolute URL for a product picture (site paths such as /products/x.svg get the origin). */
export function absoluteImageUrl(image: string, settings: SeoSettings): string {
  return image.startsWith('/') ? `${settings.siteUrl}${image}` : image;
}

/**
 * schema.org Product for Google's product snippets, true for an affiliate page (decision 0210):
 * the Offer is the seller's (its link and its site as the seller's name), in GBP, only when the
 * price text holds a number and the link is usable. No availability, shipping or returns: the
 * store does not know them (merchant listings are for pages where the shopper buys). With several
 * current offers, `offers` is their AggregateOffer instead (REQ-OFF-2, offers.ts).
 */
export function productJsonLd(
  product: ProductPageProduct,
  settings: SeoSettings,
  image: string,
  offers?: object | null,
) {
  const link = safeUrl(product.link);
  const seller = sellerSite(link);
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.title,
    description: product.com,
    image: [absoluteImageUrl(image, settings)],
    category: product.cat,
    url: `${settings.siteUrl}${productPath(product.slug)}`,
    ...(offers
      ? { offers }
      : product.price_number === null || !link || !seller
        ? {}
        : {
            offers: {
              '@type': 'Offer',
              price: String(product.price_number),
              priceCurrency: settings.currency,
              url: link,
              seller: { '@type': 'Organization', name: seller },
            },
          }),
  };
}

/** JSON for a <script type="application/ld+json">: "<" escaped so no text can end the script. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

export interface ProductHead {
  title: string;
  description: string;
  canonical: string;
  /** Open Graph properties, in order. */
  openGraph: Array<[string, string]>;
  jsonLd: ReturnType<typeof productJsonLd>;
}

/** Everything a product page puts in <head>. */
export function productHead(
  product: ProductPageProduct,
  settings: SeoSettings,
  image: string,
  offers?: object | null,
): ProductHead {
  const title = `${product.title} | ${settings.titleSuffix}`;
  const description = metaDescription(product);
  const canonical = `${settings.siteUrl}${productPath(product.slug)}`;
  return {
    title,
    description,
    canonical,
    openGraph: [
      ['og:site_name', settings.siteName],
      ['og:type', 'product'],
      ['og:title', title],
      ['og:description', description],
      ['og:url', canonical],
      ['og:image', absoluteImageUrl(image, settings)],
      ['og:locale', settings.locale],
    ],
    jsonLd: productJsonLd(product, settings, image, offers),
  };
}
