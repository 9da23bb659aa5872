import { Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { cardPrice } from '../../../lib/domain/offerPrice';
import { storePageArgs } from '../../../lib/domain/storeOrder';
import { CARD_PRODUCT_COLUMNS, selectList, type CardProduct } from '../../../lib/domain/tables';
import { catalogueDb } from '../../../lib/infra/catalogueDb';
import { useStoreSetting } from '../../../lib/infra/storeSettings';
import { productPath } from '../../../routing/paths';
import { texts } from '../../../texts';
import { cardImage } from '../cardImage';
import classes from './RelatedProducts.module.css';

/** How many related products a page shows. */
export const RELATED_COUNT = 4;

/**
 * A few other products of the same catagory, in the store's order (REQ-PATH-1). A chunk of its
 * own below the fold, fetched after the page has drawn (the product page's JS budget). Nothing is
 * shown when there are none or they cannot be read: the page is complete without them.
 */
export default function RelatedProducts({ productId, cat }: { productId: string; cat: string }) {
  const [related, setRelated] = useState<CardProduct[]>([]);
  const limits = useStoreSetting('priceLimits');
  useEffect(() => {
    const controller = new AbortController();
    catalogueDb()
      .then((db) =>
        db
          .rpc('storefront_page', storePageArgs(cat, null, RELATED_COUNT + 1), { get: true })
          .select(selectList(CARD_PRODUCT_COLUMNS))
          .abortSignal(controller.signal),
      )
      .then(({ data }) => {
        const rows: CardProduct[] = data ?? [];
        setRelated(rows.filter((p) => p.id !== productId).slice(0, RELATED_COUNT));
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, [productId, cat]);

  if (related.length === 0) return null;
  const heading = texts.productPage.related(cat);
  return (
    <section aria-label={heading} data-testid="related-products">
      <Title order={2} size="h3" mb="sm">
        {heading}
      </Title>
      <ul className={classes.list}>
        {related.map((product) => {
          const image = cardImage(product.image);
          return (
            <li key={product.id} className={classes.tile} data-testid="related-product">
              <img
                className={classes.image}
                src={image.src}
                srcSet={image.srcSet}
                sizes={image.srcSet ? RELATED_IMAGE_SIZES : undefined}
                alt=""
                width={400}
                height={300}
                loading="lazy"
                decoding="async"
              />
              <Link to={productPath(product.slug)} className={classes.link}>
                {product.title}
              </Link>
              <Text fw={700} c="teal" size="sm" data-testid="related-price">
                {cardPrice(product, limits, Date.now(), texts.offers).price}
              </Text>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** Two tiles a row on a phone, four from tablet width up. */
const RELATED_IMAGE_SIZES = '(min-width: 48em) 17rem, 50vw';
