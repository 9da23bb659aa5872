import {
  localStorageColorSchemeManager,
  MantineContext,
  MantineThemeProvider,
  useProviderColorScheme,
  type MantineColorScheme,
  type MantineThemeOverride,
} from '@mantine/core';
import type { ReactNode } from 'react';

const colorSchemeManager = localStorageColorSchemeManager();
const getRootElement = () => document.documentElement;

/**
 * Mantine's MantineProvider without the code that writes the theme's CSS variables and the
 * breakpoint classes into a <style> element at run time (REQ-WEIGHT-5, decision 0261): about
 * 3.5 kB gzip of the home page's first load. The same CSS is in the first stylesheet
 * (app/mantineVariables.css, checked against Mantine's own output by
 * tests/unit/mantine-variables.test.tsx), so light and dark look as before and the pre-rendered
 * pages paint with it. The rest is what MantineProvider does with the defaults the store uses:
 * the colour scheme from localStorage or the system's, on <html data-mantine-color-scheme>.
 */
export function StoreMantineProvider({
  theme,
  defaultColorScheme,
  children,
}: {
  theme: MantineThemeOverride;
  defaultColorScheme: MantineColorScheme;
  children: ReactNode;
}) {
  const { colorScheme, setColorScheme, clearColorScheme } = useProviderColorScheme({
    defaultColorScheme,
    manager: colorSchemeManager,
    getRootElement,
    forceColorScheme: undefined,
  });
  return (
    <MantineContext
      value={{
        colorScheme,
        setColorScheme,
        clearColorScheme,
        getRootElement,
        classNamesPrefix: 'mantine',
        cssVariablesSelector: ':root',
        withStaticClasses: true,
        deduplicateInlineStyles: false,
      }}
    >
      <MantineThemeProvider theme={theme}>{children}</MantineThemeProvider>
    </MantineContext>
  );
}
