import type { CSSProperties } from 'react';

/**
 * The attributes Mantine's Card, Title, Text, Badge, Button, VisuallyHidden and Skeleton give a
 * product card's parts and its loading placeholder, as plain values (decision 0264). The home
 * page hydrates 24 cards and every listing draws them; as Mantine components each card was a
 * dozen components working out their styles on every render, the biggest part of React's work in
 * the first page's long tasks on a phone. The class names are the ones Mantine's stylesheet uses,
 * written out so the home page does not load the components' code for them;
 * tests/unit/product-card-markup.test.tsx checks that each part's markup equals what the
 * component renders, so an upgrade that renames one fails a test.
 */
const vars = (v: Record<string, string>) => v as CSSProperties;
const rem = (px: number) => `calc(${px / 16}rem * var(--mantine-scale))`;

export const cardMarkup = {
  card: {
    className: `m_e615b15f mantine-Card-root m_1b7284a3 mantine-Paper-root`,
    style: vars({ '--paper-shadow': 'var(--mantine-shadow-sm)', '--card-padding': '0rem' }),
  },
  /** Title order 2, size h4. */
  title: {
    className: `m_8a5d1357 mantine-Title-root`,
    style: vars({
      '--title-fw': 'var(--mantine-h4-font-weight)',
      '--title-lh': 'var(--mantine-h4-line-height)',
      '--title-fz': 'var(--mantine-h4-font-size)',
    }),
  },
  /** Text size lg, bold, teal. */
  price: {
    className: `mantine-focus-auto m_b6d8b162 mantine-Text-root`,
    style: vars({
      '--text-fz': 'var(--mantine-font-size-lg)',
      '--text-lh': 'var(--mantine-line-height-lg)',
      color: 'var(--mantine-color-teal-text)',
      fontWeight: '700',
    }),
  },
  /** Text size sm, dimmed; the card's own class goes between the focus class and Mantine's. */
  comment: {
    className: (own: string | undefined) =>
      `mantine-focus-auto ${own ?? ''} m_b6d8b162 mantine-Text-root`,
    style: vars({
      '--text-fz': 'var(--mantine-font-size-sm)',
      '--text-lh': 'var(--mantine-line-height-sm)',
      color: 'var(--mantine-color-dimmed)',
    }),
  },
  /** Badge variant light, orange. */
  badge: {
    className: `m_347db0ec mantine-Badge-root`,
    labelClassName: `m_5add502a mantine-Badge-label`,
    style: vars({
      '--badge-bg': 'var(--mantine-color-orange-light)',
      '--badge-color': 'var(--mantine-color-orange-light-color)',
      '--badge-bd': 'calc(0.0625rem * var(--mantine-scale)) solid transparent',
    }),
  },
  /** Button fullWidth, as a link (`mantine-active`) or disabled. */
  button: {
    className: (own: string | undefined, link: boolean) =>
      `mantine-focus-auto ${link ? 'mantine-active ' : ''}${own ?? ''} m_77c9d27d mantine-Button-root m_87cf2631 mantine-UnstyledButton-root`,
    innerClassName: `m_80f1301b mantine-Button-inner`,
    labelClassName: `m_811560b9 mantine-Button-label`,
    style: vars({ '--button-color': 'var(--mantine-color-white)' }),
  },
  /** Card withBorder, padding 0, no shadow: the skeleton's frame. */
  skeletonCard: vars({ '--card-padding': '0rem' }),
  /** Skeleton: its height, width and radius as Mantine writes them (rem × the scale). */
  skeleton: {
    className: (own: string | undefined) => `${own ?? ''} m_18320242 mantine-Skeleton-root`,
    style: (height?: number, width?: number | string, radius?: number) =>
      vars({
        ...(radius === undefined ? {} : { '--skeleton-radius': `${radius / 16}rem` }),
        ...(height === undefined ? {} : { '--skeleton-height': rem(height) }),
        ...(width === undefined
          ? {}
          : { '--skeleton-width': typeof width === 'number' ? rem(width) : width }),
      }),
  },
  visuallyHidden: `m_515a97f8 mantine-VisuallyHidden-root`,
} as const;
