import { Loader, type LoaderProps } from '@mantine/core';

/**
 * Mantine's spinner with a name a screen reader reads out. On the loader's bare span an
 * `aria-label` is ignored (axe: aria-prohibited-attr); a spinner is an indeterminate progress bar.
 */
export function LoadingIndicator({
  label,
  ...props
}: Omit<LoaderProps, 'role'> & { label: string }) {
  return <Loader role="progressbar" aria-label={label} {...props} />;
}
