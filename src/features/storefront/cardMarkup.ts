import {
  Badge,
  Button,
  Card,
  Paper,
  Text,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import type { CSSProperties } from 'react';

/**
 * The attributes Mantine's Card, Title, Text, Badge, Button and VisuallyHidden give a product
 * card's parts, as plain values (decision 0264). The home page hydrates 24 cards and every
 * listing draws them; as Mantine components each card was a dozen components working out their
 * styles on every render, the biggest part of the first page's long tasks on a phone. The class
 * names come from the components themselves, and tests/unit/product-card-markup.test.tsx checks
 * that the card's markup equals what the components render, so the look cannot drift from
 * Mantine's stylesheet after an upgrade.
 */
const vars = (v: Record<string, string>) => v as CSSProperties;

export const cardMarkup = {
  card: {
    className: `${Card.classes.root} mantine-Card-root ${Paper.classes.root} mantine-Paper-root`,
    style: vars({ '--paper-shadow': 'var(--mantine-shadow-sm)', '--card-padding': '0rem' }),
  },
  /** Title order 2, size h4. */
  title: {
    className: `${Title.classes.root} mantine-Title-root`,
    style: vars({
      '--title-fw': 'var(--mantine-h4-font-weight)',
      '--title-lh': 'var(--mantine-h4-line-height)',
      '--title-fz': 'var(--mantine-h4-font-size)',
    }),
  },
  /** Text size lg, bold, teal. */
  price: {
    className: `mantine-focus-auto ${Text.classes.root} mantine-Text-root`,
    style: vars({
      '--text-fz': 'var(--mantine-font-size-lg)',
      '--text-lh': 'var(--mantine-line-height-lg)',
      color: 'var(--mantine-color-teal-text)',
      fontWeight: '700',
    }),
  },
  /** Text size sm, dimmed; the card's own class goes between the focus class and Mantine's. */
  comment: {
    className: (own?: string) =>
      `mantine-focus-auto ${own ?? ''} ${Text.classes.root} mantine-Text-root`,
    style: vars({
      '--text-fz': 'var(--mantine-font-size-sm)',
      '--text-lh': 'var(--mantine-line-height-sm)',
      color: 'var(--mantine-color-dimmed)',
    }),
  },
  /** Badge variant light, orange. */
  badge: {
    className: `${Badge.classes.root} mantine-Badge-root`,
    labelClassName: `${Badge.classes.label} mantine-Badge-label`,
    style: vars({
      '--badge-bg': 'var(--mantine-color-orange-light)',
      '--badge-color': 'var(--mantine-color-orange-light-color)',
      '--badge-bd': 'calc(0.0625rem * var(--mantine-scale)) solid transparent',
    }),
  },
  /** Button fullWidth, as a link (`mantine-active`) or disabled. */
  button: {
    className: (own: string | undefined, link: boolean) =>
      `mantine-focus-auto ${link ? 'mantine-active ' : ''}${own ?? ''} ${Button.classes.root} mantine-Button-root ${UnstyledButton.classes.root} mantine-UnstyledButton-root`,
    innerClassName: `${Button.classes.inner} mantine-Button-inner`,
    labelClassName: `${Button.classes.label} mantine-Button-label`,
    style: vars({ '--button-color': 'var(--mantine-color-white)' }),
  },
  visuallyHidden: `${VisuallyHidden.classes.root} mantine-VisuallyHidden-root`,
} as const;
