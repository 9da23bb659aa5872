import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { productPath } from '../../routing/paths';
import { texts } from '../../texts';
import { buyTarget, cardPrice } from '../../lib/domain/offerPrice';
import { useStoreSetting } from '../../lib/infra/storeSettings';
import classes from './ProductCard.module.css';
import type { CardProduct } from '../../lib/domain/tables';
import { countBuyNowClick } from './buyNowClicks';
import { cardImage } from './cardImage';
import { cardMarkup as m } from './cardMarkup';
import { SellerTag } from './Disclosure';

export { PLACEHOLDER_IMAGE } from './cardImage';

/**
 * One catalogue card: image, title, price, category, comment and the Buy Now link, marked as an
 * ad with the seller's name just before it (docs/decisions/0210). The price is the lowest current
 * offer's, "from £X" with the number of sellers when there are several, and a note when the price
 * is old (REQ-OFF-2, REQ-OFF-3; lib/domain/offerPrice.ts).
 * A phone shows two of them a row, with the title and comment held to two lines, so two whole
 * products reach its first screen (REQ-PATH-3). The layout is CSS only, so the markup is the same
 * for every screen (and for a pre-rendered page and its hydration).
 */
export function ProductCard({
  product,
  first = false,
}: {
  product: CardProduct;
  /** The first card of the list: fetched at once, the rest when they near the screen. */
  first?: boolean;
}) {
  const [failed, setFailed] = useState(false);
  const image = cardImage(product.image, failed);
  const { link, seller, offerId } = buyTarget(product);
  const shown = cardPrice(product, useStoreSetting('priceLimits'), Date.now(), texts.offers);
  const count = () => countBuyNowClick(product.id, offerId);
  // A card drawn before the app started (the home page's early cards, or a pre-rendered page)
  // may have lost its picture before React listened for errors: check once it is attached.
  // decode() rejects for a broken picture (an SVG without a size of its own still decodes).
  const img = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const shown = img.current;
    let live = true;
    if (shown?.complete && shown.getAttribute('src') && typeof shown.decode === 'function')
      shown.decode().catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, []);

  // Plain elements with the markup Mantine's components give them (cardMarkup.ts, decision 0264).
  return (
    <article
      style={m.card.style}
      className={`${classes.card} ${m.card.className}`}
      data-with-border="true"
      data-orientation="vertical"
      data-testid="product-card"
    >
      {/* The picture links to the product page too, but only the title is a tab stop. */}
      <Link to={productPath(product.slug)} className={classes.media} tabIndex={-1}>
        <img
          ref={img}
          className={classes.image}
          src={image.src}
          srcSet={image.srcSet}
          sizes={image.sizes}
          alt={image.placeholder ? texts.storefront.imageFallbackAlt : product.title}
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
        <h2
          style={m.title.style}
          className={`${classes.title} ${m.title.className}`}
          data-size="h4"
          data-order="2"
          data-testid="product-title"
        >
          <Link to={productPath(product.slug)}>{product.title}</Link>
        </h2>
        <div className={classes.price}>
          <p
            style={m.price.style}
            className={m.price.className}
            data-size="lg"
            data-testid="product-price"
          >
            {shown.price}
          </p>
          {/* Always there, empty without a note: the early cards' template has it (entry-server). */}
          <p className={classes.note} data-testid="product-price-note">
            {shown.note}
          </p>
        </div>
        <div className={classes.category}>
          <div
            style={m.badge.style}
            className={m.badge.className}
            data-variant="light"
            data-testid="product-category"
          >
            <span className={m.badge.labelClassName}>{product.cat}</span>
          </div>
        </div>
        <p
          style={m.comment.style}
          className={m.comment.className(classes.comment)}
          data-size="sm"
          data-testid="product-comment"
        >
          {product.com}
        </p>
        {link && <SellerTag site={seller} className={classes.seller} />}
        {link ? (
          <a
            style={m.button.style}
            className={m.button.className(classes.buy, true)}
            data-block="true"
            href={link}
            target="_blank"
            // An affiliate link: "sponsored" for search engines (0210).
            rel="sponsored noopener noreferrer"
            // Counted in the background; the link opens the seller as it always did. A middle
            // click (aux button 1) opens it too.
            onClick={count}
            onAuxClick={(e) => e.button === 1 && count()}
          >
            <span className={m.button.innerClassName}>
              <span className={m.button.labelClassName}>
                {texts.home.buyNow}
                <span className={m.visuallyHidden}> {texts.storefront.buyNowHint(seller)}</span>
              </span>
            </span>
          </a>
        ) : (
          <button
            style={m.button.style}
            className={m.button.className(classes.buy, false)}
            data-disabled="true"
            data-block="true"
            type="button"
            disabled
          >
            <span className={m.button.innerClassName}>
              <span className={m.button.labelClassName}>{texts.home.buyNow}</span>
            </span>
          </button>
        )}
      </div>
    </article>
  );
}

/** A card-shaped placeholder in the same layout, so nothing jumps when the products arrive. */
export function ProductCardSkeleton() {
  const bone = (
    own: string | undefined,
    height?: number,
    width?: number | string,
    radius?: number,
  ) => (
    <div
      style={m.skeleton.style(height, width, radius)}
      className={m.skeleton.className(own)}
      data-visible="true"
      data-animate="true"
    />
  );
  return (
    <div
      style={m.skeletonCard}
      className={`${classes.card} ${m.card.className}`}
      data-with-border="true"
      data-orientation="vertical"
    >
      <div className={classes.media}>{bone(classes.image, undefined, undefined, 0)}</div>
      <div className={classes.body}>
        {bone(classes.title, 20, '70%')}
        {bone(classes.price, 20, 64)}
        {bone(classes.category, 20, 72)}
        {bone(classes.comment, 40)}
        {bone(classes.buy, 36)}
      </div>
    </div>
  );
}
