import { useEffect } from 'react';
import type { ProductPageProduct } from '../../../lib/domain/productSeo';

/**
 * The product page's <head> (title, description, canonical URL, Open Graph tags, JSON-LD), kept
 * while the page is shown. The code that builds it is fetched after the first render: the page's
 * initial JS budget (bench/budget.json), and a crawler reads the server's HTML, which has it all.
 */
export function useProductHead(
  product: ProductPageProduct | null,
  image: string,
  /** Several sellers' AggregateOffer, once the offers are read (ProductOffers). */
  offers?: object | null,
) {
  useEffect(() => {
    if (!product) return;
    let left = false;
    let remove: (() => void) | undefined;
    void import('./productHeadTags').then(({ writeProductHead }) => {
      if (!left) remove = writeProductHead(product, image, offers);
    });
    return () => {
      left = true;
      remove?.();
    };
  }, [product, image, offers]);
}
