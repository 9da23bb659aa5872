// @vitest-environment jsdom
// The product page's offers (REQ-OFF-2, REQ-OFF-3, REQ-OFF-4): ProductOffers as the page renders
// it, with public.product_offers and public.product_price_history answered by a stand-in query
// builder (the browser test e2e/offers.spec.ts runs the same against the real stack).
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProductOffer } from '../../src/lib/domain/offers';
import type { ProductPageProduct } from '../../src/lib/domain/productSeo';
import { texts } from '../../src/offerTexts';
import { renderWithProviders } from './render';

const answers: Record<string, unknown> = {};
/** The functions the component asked for, in order. */
const asked: string[] = [];
vi.mock('../../src/lib/infra/catalogueDb', () => ({
  catalogueDb: () =>
    Promise.resolve({
      rpc: (name: string) => {
        asked.push(name);
        return {
          abortSignal: () => Promise.resolve({ data: answers[name] ?? [], error: null }),
        };
      },
    }),
}));

const { default: ProductOffers } =
  await import('../../src/features/storefront/product/ProductOffers');

const product: ProductPageProduct = {
  id: '7d1c2f0e-0000-4000-8000-000000000001',
  slug: 'club-racket',
  title: 'Club Racket',
  cat: 'Tennis',
  image: '/products/tennis-racket.svg',
  price: '£45.00',
  com: 'A racket.',
  link: 'https://court.example/racket',
  updated_at: '2026-11-26T10:00:00Z',
  price_number: 45,
};
const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const offer = (patch: Partial<ProductOffer>): ProductOffer => ({
  offer_id: 'o-primary',
  seller_id: 's',
  seller_name: 'Court Supplies',
  seller_site: 'https://court.example',
  seller_logo: null,
  link: 'https://court.example/racket',
  price_gbp: 45,
  delivery_gbp: null,
  availability: null,
  price_confirmed_at: ago(3 * HOUR),
  freshness: 'current',
  is_primary: true,
  ...patch,
});
const several = [
  offer({
    offer_id: 'o-cheap',
    seller_name: 'Racket World',
    link: 'https://world.example/r?tag=mar',
    seller_logo: 'https://world.example/logo.png',
    price_gbp: 41,
    delivery_gbp: 0,
    availability: 'in_stock',
    is_primary: false,
  }),
  offer({}),
  offer({
    offer_id: 'o-old',
    seller_name: 'Old Prices',
    link: 'https://old.example/r',
    price_gbp: 35,
    delivery_gbp: 3.99,
    price_confirmed_at: ago(10 * 24 * HOUR),
    freshness: 'stale',
    is_primary: false,
  }),
  offer({
    offer_id: 'o-gone',
    seller_name: 'Gone Sports',
    link: 'https://gone.example/r',
    price_gbp: null,
    price_confirmed_at: ago(40 * 24 * HOUR),
    freshness: 'hidden',
    is_primary: false,
  }),
];

afterEach(() => {
  for (const key of Object.keys(answers)) delete answers[key];
  asked.length = 0;
});

function show(server: Partial<Parameters<typeof ProductOffers>[0]> = {}) {
  const onSummary = vi.fn();
  renderWithProviders(
    <ProductOffers
      {...server}
      product={product}
      fallback={<span data-testid="fallback">own Buy Now</span>}
      onSummary={onSummary}
    />,
  );
  return onSummary;
}

describe('<ProductOffers />', () => {
  it('lists every offer in the database’s order, each with its own Buy Now', async () => {
    answers.product_offers = several;
    answers.product_price_history = [
      { day: '2026-10-03', lowest_gbp: 41 },
      { day: '2026-10-04', lowest_gbp: 44 },
    ];
    const onSummary = show();
    const items = await screen.findAllByTestId('offer');
    expect(items.map((li) => within(li).getByTestId('offer-seller').textContent)).toEqual([
      'Racket World',
      'Court Supplies',
      'Old Prices',
      'Gone Sports',
    ]);
    expect(screen.getAllByTestId('offer-price').map((p) => p.textContent)).toEqual([
      '£41.00',
      '£45.00',
      '£35.00',
      texts.offers.hidden,
    ]);
    expect(within(items[0]!).getByTestId('offer-facts')).toHaveTextContent(
      'Free delivery · In stock · price checked 3 hours ago',
    );
    expect(within(items[2]!).getByTestId('offer-note')).toHaveTextContent(texts.offers.stale);
    expect(within(items[2]!).getByTestId('offer-facts')).toHaveTextContent(
      '+ £3.99 delivery · price checked 10 days ago',
    );
    expect(within(items[3]!).getByTestId('offer-note')).toHaveTextContent(texts.offers.hidden);
    // The logo is decoration beside the name.
    expect(items[0]!.querySelector('img')).toHaveAttribute('alt', '');
    const buy = within(items[0]!).getByRole('link', { name: /Buy Now/ });
    expect(buy).toHaveAttribute('href', 'https://world.example/r?tag=mar');
    expect(buy).toHaveAttribute('rel', 'sponsored noopener noreferrer');
    expect(buy).toHaveAttribute('target', '_blank');
    expect(buy).toHaveAccessibleName(/^Buy Now ?\(Ad, Racket World, opens in a new tab\)$/);
    expect(screen.queryByTestId('fallback')).toBeNull();

    // The page's top price and JSON-LD: the current offers only. Reported from an effect after
    // the list is drawn (a loaded CI machine got there after the first assertion once).
    await waitFor(() =>
      expect(onSummary).toHaveBeenLastCalledWith(
        expect.objectContaining({
          productId: product.id,
          price: 'from £41.00',
          note: '2 sellers',
          jsonLd: expect.objectContaining({ '@type': 'AggregateOffer', offerCount: 2 }),
        }),
      ),
    );

    // Then, once idle, the price history and the feed link.
    expect(await screen.findByTestId('price-history-summary')).toHaveTextContent(
      'Lowest in 90 days: £41.00 on 3 Oct',
    );
    expect(
      screen.getByRole('img', {
        name: 'Lowest price each day over the last 90 days, between £41.00 and £44.00',
      }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Follow price drops/ })).toHaveAttribute(
      'href',
      '/p/club-racket/prices.atom',
    );
  });

  it('with one offer: the single Buy Now and when its price was checked', async () => {
    answers.product_offers = [offer({})];
    const onSummary = show();
    expect(await screen.findByText('price checked 3 hours ago')).toBeInTheDocument();
    expect(screen.queryByTestId('offer-list')).toBeNull();
    expect(screen.getByRole('link', { name: /Buy Now/ })).toHaveAttribute('href', product.link);
    await waitFor(() =>
      expect(onSummary).toHaveBeenLastCalledWith(
        expect.objectContaining({ price: '£45.00', note: '', jsonLd: null }),
      ),
    );
  });

  it('keeps the page’s own Buy Now while there are no offers to show', async () => {
    answers.product_offers = [];
    const onSummary = show();
    expect(screen.getByTestId('fallback')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.getByTestId('fallback')).toBeInTheDocument();
    expect(onSummary).not.toHaveBeenCalled();
  });

  it('the first page uses the offers and the price history in its HTML and reads neither (REQ-CDN-11, REQ-CDN-13)', async () => {
    const days = [
      { day: '2026-10-05', lowest_gbp: 39 },
      { day: '2026-10-06', lowest_gbp: 42 },
    ];
    show({ serverOffers: several, serverHistory: days });
    expect(screen.getAllByTestId('offer')).toHaveLength(4);
    expect(await screen.findByTestId('price-history-summary')).toHaveTextContent(
      'Lowest in 90 days: £39.00 on 5 Oct',
    );
    expect(asked).toEqual([]);
  });

  it('a page reached inside the app reads both', async () => {
    answers.product_offers = several;
    answers.product_price_history = [{ day: '2026-10-07', lowest_gbp: 40 }];
    show();
    expect(await screen.findByTestId('price-history-summary')).toHaveTextContent(
      'Lowest in 90 days: £40.00 on 7 Oct',
    );
    expect(asked).toEqual(['product_offers', 'product_price_history']);
  });
});
