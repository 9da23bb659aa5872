import { memo } from 'react';
import type { CardProduct } from '../../lib/domain/tables';
import { ProductCard, ProductCardSkeleton } from './ProductCard';
import classes from './ProductGrid.module.css';

/**
 * The catalogue's cards, memoised: the home page re-renders when the category buttons arrive or
 * the URL changes, and re-rendering a page of cards each time cost a long task on a phone.
 */
export const ProductGrid = memo(function ProductGrid({ products }: { products: CardProduct[] }) {
  return (
    <div className={classes.grid} data-testid="product-grid">
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
      {Array.from({ length: 8 }, (_, i) => (
        <ProductCardSkeleton key={i} />
      ))}
    </div>
  );
}
