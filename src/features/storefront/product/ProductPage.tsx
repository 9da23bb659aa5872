import { Badge, Button, Group, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { lazy, Suspense, useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { applyMeta } from '../../../routing/RouteMeta';
import { Navigate, useNavigationType, useParams } from 'react-router-dom';
import { productPath } from '../../../routing/paths';
import { formatPrice, safeUrl, sellerSite } from '../../../lib/domain/format';
import { IMAGE_WIDTHS, uploadedImage } from '../../../lib/domain/productImages';
import type { ProductPageProduct } from '../../../lib/domain/productSeo';
import { NewTabIcon } from '../../../lib/ui/NewTabIcon';
import { texts } from '../../../texts';
import { countBuyNowClick } from '../buyNowClicks';
import { DisclosureLine, SellerTag } from '../Disclosure';
import { useProductHead } from './productHead';
import classes from './ProductPage.module.css';
import { useProductPageData } from './useProductPageData';
import type { OffersSummary } from './ProductOffers';
import type { PriceHistoryDay, ProductOffer } from '../../../lib/domain/offers';
import { BackToListing, Breadcrumb } from './ProductTrail';

// Every seller's offer, price history and feed link: a chunk of their own, fetched after the
// first render (REQ-OFF-2, REQ-OFF-4; the page's initial JS budget, bench/budget.json).
const ProductOffers = lazy(() => import('./ProductOffers'));
// Below the fold, in the offers' chunk (REQ-PATH-1).
const RelatedProducts = lazy(() =>
  import('./ProductOffers').then((chunk) => ({ default: chunk.RelatedProducts })),
);

/** Shown when the product has no usable picture (the cards' placeholder). */
const PLACEHOLDER_IMAGE = '/product-placeholder.svg';

/** How wide the picture is drawn: half the page from tablet width up, the screen below. */
const PAGE_IMAGE_SIZES = '(min-width: 75em) 36rem, (min-width: 48em) 50vw, 100vw';

/**
 * A product's own page (/p/<slug>): large picture, title, price, catagory, the full comment and
 * Buy Now to the seller, marked as an ad under the disclosure line (docs/decisions/0210) and
 * counted like a card's (buyNowClicks.ts: the page sent is /p/<slug>). An old slug (the product was renamed) goes on to the current one; an
 * unknown slug shows the 404 page (`notFound`, given by the router: features do not import
 * each other).
 */
export function ProductPage({ notFound }: { notFound: ReactNode }) {
  const { slug = '' } = useParams();
  const { state, retry } = useProductPageData(slug);
  const product = state.kind === 'answer' && state.status === 'found' ? state.product : null;
  const image = productImage(product);
  const [offers, setOffers] = useState<OffersSummary | null>(null);
  const summary = offers?.productId === product?.id ? offers : null;
  useProductHead(product, image.src, summary?.jsonLd);
  const missing = state.kind === 'answer' && state.status === 'missing';
  useEffect(() => {
    if (missing) applyMeta({ title: texts.notFound.title, description: texts.meta.notFound });
  }, [missing]);

  if (state.kind === 'error') {
    return (
      <Stack align="center" py="xl" gap="md" role="alert">
        <Text>{texts.productPage.loadFailed}</Text>
        <Button variant="light" onClick={retry}>
          {texts.storefront.retry}
        </Button>
      </Stack>
    );
  }
  if (state.kind === 'loading') return <ProductPageSkeleton />;
  if (state.status === 'moved') return <Navigate to={productPath(state.slug)} replace />;
  if (state.status === 'missing') return notFound;
  // Keyed: another product (navigation between pages) gets a fresh chance to load its picture.
  return (
    <ProductDetails
      key={state.product.id}
      product={state.product}
      serverOffers={state.offers ?? null}
      serverHistory={state.history ?? null}
      image={image}
      offers={summary}
      onOffers={setOffers}
    />
  );
}

/** The picture to show: an upload's 1200 px file (srcset with the 400 px one), else the link. */
function productImage(product: ProductPageProduct | null) {
  const link = product ? safeUrl(product.image) : null;
  const upload = uploadedImage(link);
  return {
    src: upload?.large ?? link ?? PLACEHOLDER_IMAGE,
    srcSet: upload
      ? `${upload.small} ${IMAGE_WIDTHS.small}w, ${upload.large} ${IMAGE_WIDTHS.large}w`
      : undefined,
  };
}

function ProductDetails({
  product,
  serverOffers,
  serverHistory,
  image,
  offers,
  onOffers,
}: {
  product: ProductPageProduct;
  serverOffers: ProductOffer[] | null;
  serverHistory: PriceHistoryDay[] | null;
  image: { src: string; srcSet?: string };
  offers: OffersSummary | null;
  onOffers: (summary: OffersSummary) => void;
}) {
  const [failed, setFailed] = useState(false);
  const link = safeUrl(product.link);
  // Opened from a listing or another product: start at the top (Back and Forward keep theirs).
  const pushed = useNavigationType() !== 'POP';
  useLayoutEffect(() => {
    if (pushed) window.scrollTo(0, 0);
    // Once per product (the component is keyed by it).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // The product's own Buy Now: shown until the offers are read, and if they cannot be.
  const buyNow = link ? (
    <Stack gap={6}>
      <SellerTag site={sellerSite(link)} />
      <Button
        component="a"
        href={link}
        target="_blank"
        rel="sponsored noopener noreferrer"
        size="md"
        rightSection={<NewTabIcon />}
        // Counted as on the cards (a middle click opens the seller too).
        onClick={() => countBuyNowClick(product.id)}
        onAuxClick={(e) => e.button === 1 && countBuyNowClick(product.id)}
      >
        {texts.home.buyNow}
        <VisuallyHidden> {texts.storefront.buyNowHint(sellerSite(link))}</VisuallyHidden>
      </Button>
    </Stack>
  ) : (
    <Button size="md" disabled>
      {texts.home.buyNow}
    </Button>
  );
  return (
    <article className={classes.page} data-testid="product-page">
      <Breadcrumb cat={product.cat} title={product.title} />
      <div className={classes.notice}>
        <DisclosureLine />
      </div>
      <div className={classes.media}>
        <img
          className={classes.image}
          src={failed ? PLACEHOLDER_IMAGE : image.src}
          srcSet={failed ? undefined : image.srcSet}
          sizes={image.srcSet && !failed ? PAGE_IMAGE_SIZES : undefined}
          alt={failed ? texts.storefront.imageFallbackAlt : product.title}
          width={1200}
          height={900}
          fetchPriority="high"
          decoding="async"
          onError={() => setFailed(true)}
        />
      </div>
      <Stack gap="md">
        <Title order={1} className={classes.title}>
          {product.title}
        </Title>
        <Group gap="md">
          <div>
            <Text fw={700} fz="xl" c="teal" data-testid="product-price">
              {offers?.price ?? formatPrice(product.price)}
            </Text>
            {offers?.note && (
              <Text size="sm" c="dimmed" data-testid="product-price-note">
                {offers.note}
              </Text>
            )}
          </div>
          <Badge variant="light" color="orange" size="lg" data-testid="product-category">
            <VisuallyHidden>{texts.productPage.categoryLabel}: </VisuallyHidden>
            {product.cat}
          </Badge>
        </Group>
        <Text className={classes.comment} data-testid="product-comment">
          {product.com}
        </Text>
        <Suspense fallback={buyNow}>
          <ProductOffers
            product={product}
            serverOffers={serverOffers}
            serverHistory={serverHistory}
            fallback={buyNow}
            onSummary={onOffers}
          />
        </Suspense>
        <BackToListing cat={product.cat} />
      </Stack>
      <div className={classes.related}>
        <Suspense fallback={null}>
          <RelatedProducts productId={product.id} cat={product.cat} />
        </Suspense>
      </div>
    </article>
  );
}

function ProductPageSkeleton() {
  return (
    <div className={classes.page} aria-busy="true">
      <div className={classes.notice}>
        <DisclosureLine />
      </div>
      <VisuallyHidden>{texts.storefront.loading}</VisuallyHidden>
      <Skeleton className={classes.image} />
      <Stack gap="md">
        <Skeleton height={36} width="70%" />
        <Skeleton height={24} width={120} />
        <Skeleton height={96} />
        <Skeleton height={42} />
      </Stack>
    </div>
  );
}
