// @vitest-environment jsdom
// The product card draws plain elements with the attributes Mantine's components would give them
// (src/features/storefront/cardMarkup.ts, decision 0264). Each part here is rendered both ways and
// must give the same markup: after a Mantine upgrade that renames a class or a variable, this
// fails instead of the cards losing their look.
import { Badge, Button, Card, Skeleton, Text, Title, VisuallyHidden } from '@mantine/core';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { StoreMantineProvider } from '../../src/app/StoreMantineProvider';
import { theme } from '../../src/app/theme';
import { cardMarkup as m } from '../../src/features/storefront/cardMarkup';

const html = (element: ReactElement) =>
  renderToStaticMarkup(
    <StoreMantineProvider theme={theme} defaultColorScheme="light">
      {element}
    </StoreMantineProvider>,
  );

const parts: Array<[string, ReactElement, ReactElement]> = [
  [
    'card',
    <Card withBorder shadow="sm" padding={0} component="article" className="own" />,
    <article
      style={m.card.style}
      className={`own ${m.card.className}`}
      data-with-border="true"
      data-orientation="vertical"
    />,
  ],
  [
    'title',
    <Title order={2} size="h4" className="own">
      Ball
    </Title>,
    <h2 style={m.title.style} className={`own ${m.title.className}`} data-size="h4" data-order="2">
      Ball
    </h2>,
  ],
  [
    'price',
    <Text fw={700} size="lg" c="teal">
      £1.00
    </Text>,
    <p style={m.price.style} className={m.price.className} data-size="lg">
      £1.00
    </p>,
  ],
  [
    'comment',
    <Text size="sm" c="dimmed" className="own">
      Nice
    </Text>,
    <p style={m.comment.style} className={m.comment.className('own')} data-size="sm">
      Nice
    </p>,
  ],
  [
    'category badge',
    <Badge variant="light" color="orange">
      Football
    </Badge>,
    <div style={m.badge.style} className={m.badge.className} data-variant="light">
      <span className={m.badge.labelClassName}>Football</span>
    </div>,
  ],
  [
    'Buy Now link',
    <Button component="a" href="https://seller.example/" className="own" fullWidth>
      Buy Now
      <VisuallyHidden> (Ad)</VisuallyHidden>
    </Button>,
    <a
      style={m.button.style}
      className={m.button.className('own', true)}
      data-block="true"
      href="https://seller.example/"
    >
      <span className={m.button.innerClassName}>
        <span className={m.button.labelClassName}>
          Buy Now
          <span className={m.visuallyHidden}> (Ad)</span>
        </span>
      </span>
    </a>,
  ],
  [
    'Buy Now without a link',
    <Button className="own" fullWidth disabled>
      Buy Now
    </Button>,
    <button
      style={m.button.style}
      className={m.button.className('own', false)}
      data-disabled="true"
      data-block="true"
      type="button"
      disabled
    >
      <span className={m.button.innerClassName}>
        <span className={m.button.labelClassName}>Buy Now</span>
      </span>
    </button>,
  ],
  [
    'skeleton frame',
    <Card withBorder padding={0} className="own" />,
    <div
      style={m.skeletonCard}
      className={`own ${m.card.className}`}
      data-with-border="true"
      data-orientation="vertical"
    />,
  ],
  ...(
    [
      [undefined, undefined, 0],
      [20, '70%', undefined],
      [20, 64, undefined],
      [40, undefined, undefined],
    ] as const
  ).map(([height, width, radius]): [string, ReactElement, ReactElement] => [
    `skeleton ${height}/${width}/${radius}`,
    <Skeleton className="own" height={height} width={width} radius={radius} />,
    <div
      style={m.skeleton.style(height, width, radius)}
      className={m.skeleton.className('own')}
      data-visible="true"
      data-animate="true"
    />,
  ]),
];

describe("the product card's parts are Mantine's markup", () => {
  it.each(parts)('%s', (_name, mantine, plain) => {
    expect(html(plain)).toBe(html(mantine));
  });
});
