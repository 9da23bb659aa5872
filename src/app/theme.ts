import {
  Anchor,
  createTheme,
  type CSSVariablesResolver,
  type MantineColorsTuple,
} from '@mantine/core';
import { texts } from '../texts';
import classes from './theme.module.css';

/*
 * Mantine's palettes with darker 7–9 shades where the defaults fall short of WCAG AA (4.5:1):
 * white text on the filled colour (shade 7 is the primary shade), coloured text on white, and
 * the light variant's text (shade 9) on its background (shade 1).
 */
const teal: MantineColorsTuple = [
  '#e6fcf5',
  '#c3fae8',
  '#96f2d7',
  '#63e6be',
  '#38d9a9',
  '#20c997',
  '#12b886',
  '#0b7d5e',
  '#086b50',
  '#065c45',
];

const red: MantineColorsTuple = [
  '#fff5f5',
  '#ffe3e3',
  '#ffc9c9',
  '#ffa8a8',
  '#ff8787',
  '#ff6b6b',
  '#fa5252',
  '#c92a2a',
  '#b02525',
  '#962020',
];

const orange: MantineColorsTuple = [
  '#fff4e6',
  '#ffe8cc',
  '#ffd8a8',
  '#ffc078',
  '#ffa94d',
  '#ff922b',
  '#fd7e14',
  '#b33c0b',
  '#a63c0d',
  '#8f340b',
];

const green: MantineColorsTuple = [
  '#ebfbee',
  '#d3f9d8',
  '#b2f2bb',
  '#8ce99a',
  '#69db7c',
  '#51cf66',
  '#40c057',
  '#237032',
  '#1e6b30',
  '#1b5e2a',
];

/** One theme for the whole store: a sporty teal/orange palette with Mantine's type scale. */
export const theme = createTheme({
  colors: { teal, red, orange, green },
  primaryColor: 'teal',
  primaryShade: { light: 7, dark: 7 },
  defaultRadius: 'md',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  components: {
    // Links inside text must not rely on colour alone (WCAG 1.4.1).
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
    // Keyboard focus on a field shows a ring (see theme.module.css).
    Input: { classNames: { input: classes.input } },
    // Icon-only close buttons need a name.
    // Plain objects, not Notification.extend / Modal.extend: importing those components here
    // would pull the modal and notification code into the home page's first download (the
    // bundle budget, bench/budget.json); both load lazily where they are used.
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': texts.a11y.closeNotification } },
      classNames: { description: classes.notificationDescription },
    },
    Modal: {
      defaultProps: { closeButtonProps: { 'aria-label': texts.a11y.closeDialog } },
    },
  },
});

/**
 * Mantine's default "dimmed" greys are below 4.5:1 on their backgrounds; one step stronger. So is
 * a field's error red (red-6 on white, red-8 on dark), e.g. "Product Not Foound" under Title.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-7)',
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
  },
});
