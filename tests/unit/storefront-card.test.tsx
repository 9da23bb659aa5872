// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PLACEHOLDER_IMAGE, ProductCard } from '../../src/features/storefront/ProductCard';
import type { StoreProduct } from '../../src/lib/domain/tables';
import { texts } from '../../src/adminTexts';
import { renderWithProviders } from './render';

const product: StoreProduct = {
  id: '7d1c2f0e-0000-4000-8000-000000000001',
  title: 'Match Football Size 5',
  cat: 'Football',
  image: 'https://img.example.com/ball.png',
  price: '24.5',
  price_value: 24.5,
  com: 'FIFA quality pro ball,\nhand stitched.',
  link: 'https://seller.example.com/ball',
  slug: 'match-football-size-5',
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
    // An affiliate link (decision 0210): "sponsored", marked as an ad, naming the seller's site.
    expect(buy).toHaveAttribute('rel', 'sponsored noopener noreferrer');
    // (jsdom drops the space before the visually hidden part; browsers keep it.)
    expect(buy).toHaveAccessibleName(/^Buy Now ?\(Ad, seller\.example\.com, opens in a new tab\)$/);
    const label = within(card).getByTestId('ad-label');
    expect(label).toHaveTextContent(`${texts.disclosure.label}seller.example.com`);
    expect(label.compareDocumentPosition(buy) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('names the seller by its site without www.', () => {
    renderWithProviders(
      <ProductCard product={{ ...product, link: 'https://www.sportsdirect.com/x?y=1' }} />,
    );
    expect(screen.getByTestId('ad-label')).toHaveTextContent(/^Adsportsdirect\.com$/);
  });

  it('links title and picture to the product page, only the title as a tab stop', () => {
    renderWithProviders(<ProductCard product={product} />);
    const title = within(screen.getByRole('heading', { name: product.title })).getByRole('link');
    expect(title).toHaveAttribute('href', '/p/match-football-size-5');
    const picture = screen.getByTestId('product-image').closest('a')!;
    expect(picture).toHaveAttribute('href', '/p/match-football-size-5');
    expect(picture).toHaveAttribute('tabindex', '-1');
  });

  it('keeps the words of a price as entered, its £ amounts in the money format (REQ-PATH-6)', () => {
    renderWithProviders(<ProductCard product={{ ...product, price: 'From £19 (sale)' }} />);
    expect(screen.getByTestId('product-price')).toHaveTextContent('From £19.00 (sale)');
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
    expect(screen.queryByRole('link', { name: new RegExp(texts.home.buyNow) })).toBeNull();
    expect(screen.getByRole('button', { name: texts.home.buyNow })).toBeDisabled();
    // No link, no ad.
    expect(screen.queryByTestId('ad-label')).toBeNull();
  });

  describe('offers (REQ-OFF-2, REQ-OFF-3)', () => {
    const hour = 3_600_000;
    const offered = {
      ...product,
      price_value: 19.99,
      offer_count: 3,
      price_checked_at: new Date(Date.now() - hour).toISOString(),
      buy_offer_id: '0f0f0f0f-0000-4000-8000-000000000009',
      buy_link: 'https://www.sportsdirect.com/ball?awc=store',
      buy_seller: 'Sports Direct',
    };

    it('shows "from £X" and the number of sellers, Buy Now to the chosen seller', () => {
      renderWithProviders(<ProductCard product={offered} />);
      expect(screen.getByTestId('product-price')).toHaveTextContent(/^from £19\.99$/);
      expect(screen.getByTestId('product-price-note')).toHaveTextContent(/^3 sellers$/);
      const buy = screen.getByRole('link', { name: new RegExp(texts.home.buyNow) });
      expect(buy).toHaveAttribute('href', offered.buy_link);
      expect(buy).toHaveAttribute('rel', 'sponsored noopener noreferrer');
      expect(buy).toHaveAccessibleName(/^Buy Now ?\(Ad, Sports Direct, opens in a new tab\)$/);
      expect(screen.getByTestId('ad-label')).toHaveTextContent(/^AdSports Direct$/);
    });

    it('shows the typed price for its only offer, and notes an old price', () => {
      const one = { ...offered, price: '£24.50 (was £30)', price_value: 24.5, offer_count: 1 };
      const { unmount } = renderWithProviders(<ProductCard product={one} />);
      expect(screen.getByTestId('product-price')).toHaveTextContent(/^£24\.50 \(was £30\.00\)$/);
      expect(screen.getByTestId('product-price-note')).toBeEmptyDOMElement();
      unmount();
      const old = new Date(Date.now() - 8 * 24 * hour).toISOString();
      renderWithProviders(
        <ProductCard
          product={{ ...one, price_value: null, offer_count: 0, price_checked_at: old }}
        />,
      );
      expect(screen.getByTestId('product-price')).toHaveTextContent('£24.50 (was £30.00)');
      expect(screen.getByTestId('product-price-note')).toHaveTextContent(texts.offers.stale);
    });
  });

  describe('uploaded pictures (REQ-IMG-4)', () => {
    const api = 'http://127.0.0.1:54321';
    const dir = `${api}/storage/v1/object/public/product-images/0b9d3c1e-5f2a-4c8e-9a7b-1d2e3f405060`;
    afterEach(() => vi.unstubAllEnvs());

    it('serves the 400 px file in the card with both widths in srcset', () => {
      vi.stubEnv('VITE_SUPABASE_URL', api);
      renderWithProviders(<ProductCard product={{ ...product, image: `${dir}/1200.webp` }} />);
      const img = screen.getByRole('img', { name: product.title });
      expect(img).toHaveAttribute('src', `${dir}/400.webp`);
      expect(img).toHaveAttribute('srcset', `${dir}/400.webp 400w, ${dir}/1200.webp 1200w`);
      expect(img.getAttribute('sizes')).toMatch(/ 50vw$/);
      expect(img).toHaveAttribute('width', '400');
      expect(img).toHaveAttribute('height', '300');
    });

    it('keeps a pasted link (even one shaped like an upload on another host) as it is', () => {
      vi.stubEnv('VITE_SUPABASE_URL', api);
      const elsewhere = `${dir.replace(api, 'https://other.example.com')}/1200.webp`;
      renderWithProviders(<ProductCard product={{ ...product, image: elsewhere }} />);
      const img = screen.getByRole('img', { name: product.title });
      expect(img).toHaveAttribute('src', elsewhere);
      expect(img).not.toHaveAttribute('srcset');
      expect(img).not.toHaveAttribute('sizes');
    });

    it('fetches the first card at once and the others lazily', () => {
      renderWithProviders(
        <>
          <ProductCard product={product} first />
          <ProductCard product={{ ...product, id: 'second' }} />
        </>,
      );
      const [first, second] = screen.getAllByTestId('product-image');
      expect(first).toHaveAttribute('loading', 'eager');
      expect(first).toHaveAttribute('fetchpriority', 'high');
      expect(second).toHaveAttribute('loading', 'lazy');
      expect(second).not.toHaveAttribute('fetchpriority');
    });
  });
});
