import { Badge, Button, Card, Skeleton, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { productPath } from '../../app/paths';
import { texts } from '../../texts';
import { formatPrice, safeUrl } from '../../lib/format';
import classes from './ProductCard.module.css';
import type { StoreProduct } from '../../lib/tables';
import { IMAGE_WIDTHS, uploadedImage } from '../../lib/productImages';
import { countBuyNowClick } from './buyNowClicks';

/** Shown when a product has no usable image or the image fails to load. */
export const PLACEHOLDER_IMAGE = '/product-placeholder.svg';

/**
 * How wide a card's picture is drawn (ProductCard.module.css, HomePage's grid): a phone row's
 * fixed box, then two, three and four columns. The browser picks the file from srcset with it.
 */
const CARD_IMAGE_SIZES =
  '(min-width: 75em) 300px, (min-width: 62em) 33vw, (min-width: 48em) 50vw, 8.25rem';

/**
 * One catalogue card: image, title, price, category, comment and the Buy Now link.
 * Below the `sm` breakpoint it is a compact row (small image on the left, details on the right),
 * so a phone shows several products at once and the banner stays the largest thing on screen;
 * from `sm` up it is a tall card in the grid. The layout is CSS only, so the markup is the same
 * for every screen (and for a pre-rendered page and its hydration).
 */
export function ProductCard({
  product,
  first = false,
}: {
  product: StoreProduct;
  /** The first card of the list: fetched at once, the rest when they near the screen. */
  first?: boolean;
}) {
  const imageUrl = safeUrl(product.image);
  const [failed, setFailed] = useState(false);
  const showPlaceholder = failed || !imageUrl;
  // An uploaded picture comes in two widths; a pasted link is used as it is.
  const upload = showPlaceholder ? null : uploadedImage(imageUrl);
  const link = safeUrl(product.link);

  return (
    <Card
      withBorder
      shadow="sm"
      padding={0}
      className={classes.card}
      component="article"
      data-testid="product-card"
    >
      {/* The picture links to the product page too, but only the title is a tab stop. */}
      <Link to={productPath(product.slug)} className={classes.media} tabIndex={-1}>
        <img
          className={classes.image}
          src={showPlaceholder ? PLACEHOLDER_IMAGE : (upload?.small ?? imageUrl)}
          srcSet={
            upload
              ? `${upload.small} ${IMAGE_WIDTHS.small}w, ${upload.large} ${IMAGE_WIDTHS.large}w`
              : undefined
          }
          sizes={upload ? CARD_IMAGE_SIZES : undefined}
          alt={showPlaceholder ? texts.storefront.imageFallbackAlt : product.title}
          width={400}
          height={300}
          loading={first ? 'eager' : 'lazy'}
          fetchPriority={first ? 'high' : undefined}
          decoding="async"
          data-testid="product-image"
          onError={() => setFailed(true)}
        />
      </Link>
      <div className={classes.body}>
        {/* h2: the cards sit directly under the page's h1 (heading levels must not skip). */}
        <Title order={2} size="h4" className={classes.title} data-testid="product-title">
          <Link to={productPath(product.slug)}>{product.title}</Link>
        </Title>
        <Text fw={700} size="lg" c="teal" className={classes.price} data-testid="product-price">
          {formatPrice(product.price)}
        </Text>
        <div className={classes.category}>
          <Badge variant="light" color="orange" data-testid="product-category">
            {product.cat}
          </Badge>
        </div>
        <Text size="sm" c="dimmed" className={classes.comment} data-testid="product-comment">
          {product.com}
        </Text>
        {link ? (
          <Button
            component="a"
            href={link}
            target="_blank"
            rel="noopener noreferrer"
            className={classes.buy}
            fullWidth
            // Counted in the background; the link opens the seller as it always did. A middle
            // click (aux button 1) opens it too.
            onClick={() => countBuyNowClick(product.id)}
            onAuxClick={(e) => e.button === 1 && countBuyNowClick(product.id)}
          >
            {texts.home.buyNow}
            <VisuallyHidden> {texts.storefront.opensInNewTab}</VisuallyHidden>
          </Button>
        ) : (
          <Button className={classes.buy} fullWidth disabled>
            {texts.home.buyNow}
          </Button>
        )}
      </div>
    </Card>
  );
}

/** A card-shaped placeholder in the same layout, so nothing jumps when the products arrive. */
export function ProductCardSkeleton() {
  return (
    <Card withBorder padding={0} className={classes.card}>
      <div className={classes.media}>
        <Skeleton className={classes.image} radius={0} />
      </div>
      <div className={classes.body}>
        <Skeleton className={classes.title} height={20} width="70%" />
        <Skeleton className={classes.price} height={20} width={64} />
        <Skeleton className={classes.category} height={20} width={72} />
        <Skeleton className={classes.comment} height={40} />
        <Skeleton className={classes.buy} height={36} />
      </div>
    </Card>
  );
}
