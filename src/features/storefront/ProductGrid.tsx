import { memo, useLayoutEffect, type MouseEvent } from 'react';
import type { CardProduct } from '../../lib/domain/tables';
import { ProductCard, ProductCardSkeleton } from './ProductCard';
import classes from './ProductGrid.module.css';
import { rememberListing, takeListingScroll } from './listingReturn';
import { SKELETON_CARDS } from './paging';

/** A click that opens a product page in this tab from a card (its title or picture). */
const opensProduct = (event: MouseEvent) =>
  event.button === 0 &&
  !event.metaKey &&
  !event.ctrlKey &&
  !event.shiftKey &&
  event.target instanceof Element &&
  event.target.closest('a[href^="/p/"]') !== null;

/**
 * The catalogue's cards, memoised: the home page re-renders when the category buttons arrive or
 * the URL changes, and re-rendering a page of cards each time cost a long task on a phone.
 * Opening a product remembers this listing, and coming back scrolls to where the shopper was
 * (REQ-PATH-1, listingReturn.ts).
 */
export const ProductGrid = memo(function ProductGrid({ products }: { products: CardProduct[] }) {
  useLayoutEffect(() => {
    const y = takeListingScroll(window.location.search);
    if (y) window.scrollTo(0, y);
  }, []);
  return (
    <div
      className={classes.grid}
      data-testid="product-grid"
      onClickCapture={(event) => opensProduct(event) && rememberListing()}
    >
      {products.map((product, i) => (
        <ProductCard key={product.id} product={product} first={i === 0} />
      ))}
    </div>
  );
});

/** Card-shaped placeholders in the same grid, so the page does not jump when products arrive. */
export function ProductGridSkeleton() {
  return (
    <div className={classes.grid} aria-hidden="true">
      {Array.from({ length: SKELETON_CARDS }, (_, i) => (
        <ProductCardSkeleton key={i} />
      ))}
    </div>
  );
}
