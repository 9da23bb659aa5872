import { applyMeta } from '../../../routing/RouteMeta';
import { siteOrigin, storeSettings } from '../../../lib/infra/storeSettings';
import {
  productHead,
  seoSettings,
  scriptJson,
  type ProductPageProduct,
} from '../../../lib/domain/productSeo';

const JSON_LD = 'script[type="application/ld+json"]';

function headElement<K extends 'link' | 'script'>(selector: string, tag: K) {
  let element = document.head.querySelector<HTMLElementTagNameMap[K]>(selector);
  if (!element) {
    element = document.createElement(tag);
    document.head.append(element);
  }
  return element;
}

function setOpenGraph(property: string, content: string) {
  let tag = document.head.querySelector<HTMLMetaElement>(`meta[property="${property}"]`);
  if (!tag) {
    tag = document.createElement('meta');
    tag.setAttribute('property', property);
    document.head.append(tag);
  }
  tag.content = content;
}

/**
 * Writes the product page's <head>: the same title, description, canonical URL, Open Graph tags
 * and JSON-LD as the server's HTML (lib/productSeo). Returns what takes the canonical link and
 * the JSON-LD away again; the next route's RouteMeta sets the rest. Loaded after the page's
 * first render (productHead.ts), so the SEO code is not part of the page's initial JS.
 */
export function writeProductHead(
  product: ProductPageProduct,
  image: string,
  offers: object | null | undefined,
): () => void {
  const head = productHead(product, seoSettings(siteOrigin(), storeSettings.name), image, offers);
  applyMeta({ title: product.title, description: head.description });
  for (const [property, content] of head.openGraph) setOpenGraph(property, content);
  const canonical = headElement<'link'>('link[rel="canonical"]', 'link');
  canonical.rel = 'canonical';
  canonical.href = head.canonical;
  const jsonLd = headElement<'script'>(JSON_LD, 'script');
  jsonLd.type = 'application/ld+json';
  jsonLd.textContent = scriptJson(head.jsonLd);
  return () => {
    canonical.remove();
    jsonLd.remove();
  };
}
