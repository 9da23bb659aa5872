// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PLACEHOLDER_IMAGE, ProductCard } from '../../src/features/storefront/ProductCard';
import type { StoreProduct } from '../../src/lib/tables';
import { texts } from '../../src/texts';
import { renderWithProviders } from './render';

const product: StoreProduct = {
  id: '7d1c2f0e-0000-4000-8000-000000000001',
  title: 'Match Football Size 5',
  cat: 'Football',
  image: 'https://img.example.com/ball.png',
  price: '24.5',
  com: 'FIFA quality pro ball,\nhand stitched.',
  link: 'https://seller.example.com/ball',
};

describe('<ProductCard />', () => {
  it('shows image, price as GBP, title, category, comment and Buy Now', () => {
    renderWithProviders(<ProductCard product={product} />);
    const card = screen.getByTestId('product-card');
    const img = within(card).getByRole('img', { name: product.title });
    expect(img).toHaveAttribute('src', product.image);
    expect(img).toHaveAttribute('loading', 'lazy');
    expect(img).toHaveAttribute('width', '400');
    expect(img).toHaveAttribute('height', '300');
    expect(within(card).getByTestId('product-price')).toHaveTextContent('£24.50');
    expect(within(card).getByRole('heading', { name: product.title })).toBeInTheDocument();
    expect(within(card).getByTestId('product-category')).toHaveTextContent('Football');
    expect(within(card).getByTestId('product-comment').textContent).toBe(product.com);
    const buy = within(card).getByRole('link', { name: new RegExp(texts.home.buyNow) });
    expect(buy).toHaveAttribute('href', product.link);
    expect(buy).toHaveAttribute('target', '_blank');
    expect(buy).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('keeps a non-numeric price as entered', () => {
    renderWithProviders(<ProductCard product={{ ...product, price: 'From £19 (sale)' }} />);
    expect(screen.getByTestId('product-price')).toHaveTextContent('From £19 (sale)');
  });

  it('swaps to the placeholder when the image fails to load', () => {
    renderWithProviders(<ProductCard product={product} />);
    fireEvent.error(screen.getByRole('img', { name: product.title }));
    const img = screen.getByRole('img', { name: texts.storefront.imageFallbackAlt });
    expect(img).toHaveAttribute('src', PLACEHOLDER_IMAGE);
  });

  it('never puts an unsafe URL into src or href', () => {
    renderWithProviders(
      <ProductCard
        product={{ ...product, image: 'javascript:alert(1)', link: 'javascript:alert(2)' }}
      />,
    );
    expect(screen.getByTestId('product-image')).toHaveAttribute('src', PLACEHOLDER_IMAGE);
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByRole('button', { name: texts.home.buyNow })).toBeDisabled();
  });
});
