import { Badge, Button, Card, Group, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { texts } from '../../texts';
import { formatPrice, safeUrl } from './format';
import classes from './ProductCard.module.css';
import type { Product } from './types';

/** Shown when a product has no usable image or the image fails to load. */
export const PLACEHOLDER_IMAGE = '/product-placeholder.svg';

/** One catalogue card: image, price, title, category, comment and the Buy Now link. */
export function ProductCard({ product }: { product: Product }) {
  const imageUrl = safeUrl(product.image);
  const [failed, setFailed] = useState(false);
  const showPlaceholder = failed || !imageUrl;
  const link = safeUrl(product.link);

  return (
    <Card
      withBorder
      shadow="sm"
      padding="md"
      className={classes.card}
      component="article"
      data-testid="product-card"
    >
      <Card.Section className={classes.media}>
        <img
          className={classes.image}
          src={showPlaceholder ? PLACEHOLDER_IMAGE : imageUrl}
          alt={showPlaceholder ? texts.storefront.imageFallbackAlt : product.title}
          width={400}
          height={300}
          loading="lazy"
          decoding="async"
          data-testid="product-image"
          onError={() => setFailed(true)}
        />
      </Card.Section>
      <div className={classes.body}>
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Title order={3} size="h4" className={classes.title} data-testid="product-title">
            {product.title}
          </Title>
          <Text
            fw={700}
            size="lg"
            c="teal"
            style={{ whiteSpace: 'nowrap' }}
            data-testid="product-price"
          >
            {formatPrice(product.price)}
          </Text>
        </Group>
        <div>
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
