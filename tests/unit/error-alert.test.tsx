// REQ-WEIGHT-5: ErrorAlert (src/lib/ui/ErrorAlert.tsx) draws the home page's error alerts as
// Mantine's Alert does, without its code: the same markup, classes, inline variables, role and
// ARIA names (only the generated ids differ), so the page looks and reads as before.
import { Alert, MantineProvider } from '@mantine/core';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { theme } from '../../src/app/theme';
import { ErrorAlert } from '../../src/lib/ui/ErrorAlert';

/** Markup under the store's theme, each generated id replaced by where it first appeared. */
function markup(ui: ReactElement): string {
  const html = renderToStaticMarkup(
    <MantineProvider theme={theme} withCssVariables={false} withGlobalClasses={false}>
      {ui}
    </MantineProvider>,
  );
  const ids = [...new Set([...html.matchAll(/id="([^"]+?)(?:-title|-body)?"/g)].map((m) => m[1]))];
  return ids.reduce((out, id, i) => out.split(id).join(`ID${i}`), html);
}

describe('REQ-WEIGHT-5 ErrorAlert', () => {
  it("renders what Mantine's red Alert renders, with a title", () => {
    const mine = markup(
      <ErrorAlert title="Something went Wrong">
        <p>text</p>
      </ErrorAlert>,
    );
    expect(mine).toBe(
      markup(
        <Alert color="red" title="Something went Wrong" role="alert">
          <p>text</p>
        </Alert>,
      ),
    );
    expect(mine).toContain('aria-labelledby="ID0-title"');
  });

  it("renders what Mantine's red Alert renders, without a title", () => {
    expect(markup(<ErrorAlert>We could not load</ErrorAlert>)).toBe(
      markup(
        <Alert color="red" role="alert">
          We could not load
        </Alert>,
      ),
    );
  });
});
