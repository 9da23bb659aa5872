// @vitest-environment jsdom
// The owner's banner in the pre-rendered HTML (docs/decisions/0212): the build's row is rendered
// into the page and carried as JSON, and the browser hydrates with that same row, so the first
// paint shows the owner's pictures and headlines and React reports no hydration mismatch.
import { MantineProvider } from '@mantine/core';
import { act } from '@testing-library/react';
import type { ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cssVariablesResolver, theme } from '../../src/app/theme';
import { DEFAULT_ABOUT_TEXT } from '../../src/features/pages/aboutText';
import type { StorefrontContentRow } from '../../src/lib/infra/storefrontContent';
import { texts } from '../../src/texts';

const defaults = texts.storefront.banner.slides;

function row(changes: Partial<StorefrontContentRow>): StorefrontContentRow {
  const base = Object.fromEntries(
    defaults.flatMap((s, i) => [
      [`slide_${i + 1}_image`, s.image],
      [`slide_${i + 1}_alt`, s.alt],
      [`slide_${i + 1}_heading`, s.heading],
      [`slide_${i + 1}_text`, s.text],
      [`slide_${i + 1}_link`, null],
    ]),
  ) as StorefrontContentRow;
  return { ...base, about_text: DEFAULT_ABOUT_TEXT, ...changes };
}

function Page({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <MemoryRouter>{children}</MemoryRouter>
    </MantineProvider>
  );
}

/** Fresh modules: the content store reads the page's embedded row when it is first imported. */
async function freshBanner() {
  vi.resetModules();
  const content = await import('../../src/lib/infra/storefrontContent');
  const { Banner } = await import('../../src/features/storefront/Banner');
  return { content, Banner };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the pre-rendered banner', () => {
  const stored = row({ slide_1_heading: 'Winter kit, ready', slide_1_link: '/?cat=Running' });

  it("pre-rendering with the build's row puts the owner's headline in the HTML", async () => {
    const { content, Banner } = await freshBanner();
    content.renderStorefrontContentWith(stored);
    const html = renderToString(
      <Page>
        <Banner />
      </Page>,
    );
    expect(html).toContain('Winter kit, ready');
    expect(html).not.toContain(defaults[0]!.heading);
  });

  it('the browser hydrates with the embedded row: the same markup, no mismatch', async () => {
    const server = await freshBanner();
    server.content.renderStorefrontContentWith(stored);
    const html = renderToString(
      <Page>
        <server.Banner />
      </Page>,
    );
    // The page as the build writes it: the markup, then the row as JSON.
    document.body.innerHTML = `<div id="root">${html}</div><script type="application/json" id="${server.content.STOREFRONT_CONTENT_ID}">${JSON.stringify(stored)}</script>`;
    const client = await freshBanner();
    const mismatches: unknown[] = [];
    const container = document.getElementById('root')!;
    await act(async () => {
      hydrateRoot(
        container,
        <Page>
          <client.Banner />
        </Page>,
        { onRecoverableError: (error) => mismatches.push(error) },
      );
    });
    expect(mismatches).toEqual([]);
    expect(container.querySelector('[data-testid="banner-slide"]')).toHaveTextContent(
      'Winter kit, ready',
    );
  });

  it('a page without the embed (the app shell) starts from the built-in slides', async () => {
    const { content, Banner } = await freshBanner();
    expect(content.useStorefrontContent).toBeTypeOf('function');
    const html = renderToString(
      <Page>
        <Banner />
      </Page>,
    );
    expect(html).toContain(defaults[0]!.heading);
  });
});
