// @vitest-environment jsdom
// The owner's storefront content (docs/decisions/0212) on the storefront side: which links a
// slide may have, how the About text's plain format becomes blocks, and the banner and About page
// showing a stored row (REQ-HOME-1, REQ-PAGE-1), and the pre-rendered banner: the build's row is
// rendered into the page and carried as JSON, and the browser hydrates with that same row, so the
// first paint shows the owner's pictures and React reports no mismatch. The database's own
// checks: the integration test tests/integration/storefront-content.test.ts.
import { MantineProvider } from '@mantine/core';
import { act, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cssVariablesResolver, theme } from '../../src/app/theme';
import { normaliseLink } from '../../src/features/admin/storefront/storefrontSchema';
import { AboutPage } from '../../src/features/pages/AboutPage';
import {
  aboutBlocks,
  DEFAULT_ABOUT_TEXT,
  splitPageNames,
} from '../../src/features/pages/aboutText';
import { Banner } from '../../src/features/storefront/Banner';
import {
  sitePath,
  webAddress,
  slidesFromRow,
  updateStorefrontContent,
  type StorefrontContentRow,
} from '../../src/lib/infra/storefrontContent';
import { texts } from '../../src/texts';
import { renderWithProviders } from './render';

const defaults = texts.storefront.banner.slides;

function row(changes: Partial<StorefrontContentRow> = {}): StorefrontContentRow {
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

describe('slide links', () => {
  it.each(['/', '/about', '/?cat=Football', '/p/some-ball#reviews', '/?cat=Running%20Shoes'])(
    'accepts the store path %j',
    (path) => expect(sitePath(path)).toBe(path),
  );
  it.each([
    'javascript:alert(1)',
    'https://evil.example/',
    '//evil.example',
    '/\\evil.example',
    '/ spaced',
    'about',
    '',
    `/${'x'.repeat(200)}`,
  ])('refuses %j', (link) => expect(sitePath(link)).toBeUndefined());

  // REQ-PATH-7: the owner may also send a slide to a web address (the database's same rule).
  it.each(['https://www.example.org/sale?ref=banner#top', 'http://shop.example:8080/kit'])(
    'accepts the web address %j',
    (address) => expect(webAddress(address)).toBe(address),
  );
  it.each([
    'https://',
    'ftp://files.example/kit',
    'https://shop.example/summer sale',
    'https:/shop.example',
    'javascript:alert(1)',
    `https://shop.example/${'x'.repeat(300)}`,
  ])('refuses the web address %j', (address) => expect(webAddress(address)).toBeUndefined());

  it('a stored web address leads the slide there', () => {
    const slides = slidesFromRow(row({ slide_3_link: 'https://www.example.org/sale' }), defaults);
    expect(slides[2]?.link).toBe('https://www.example.org/sale');
  });

  it('the form encodes spaces and leaves other sites as they are (for the rule to refuse)', () => {
    expect(normaliseLink(' /?cat=Running Shoes ')).toBe('/?cat=Running%20Shoes');
    expect(normaliseLink('//evil.example')).toBe('//evil.example');
    expect(normaliseLink('javascript:alert(1)')).toBe('javascript:alert(1)');
  });

  it('a stored slide with a bad link is shown without one; a missing picture keeps the default', () => {
    const slides = slidesFromRow(
      row({ slide_1_link: 'javascript:alert(1)', slide_2_link: '/about', slide_3_image: '' }),
      defaults,
    );
    expect(slides[0]?.link).toBeUndefined();
    expect(slides[1]?.link).toBe('/about');
    expect(slides[2]).toMatchObject({ image: defaults[2].image, alt: defaults[2].alt });
  });
});

describe('About text format', () => {
  it('parts paragraphs, a subheading and a list; keeps line breaks inside a paragraph', () => {
    expect(aboutBlocks('One\ntwo\r\n\r\n## Heading\n\n- a\n- b\n\n\n-not a list')).toEqual([
      { kind: 'paragraph', text: 'One\ntwo' },
      { kind: 'heading', text: 'Heading' },
      { kind: 'list', items: ['a', 'b'] },
      { kind: 'paragraph', text: '-not a list' },
    ]);
  });

  it('links only the names of the store pages', () => {
    expect(
      splitPageNames('see our Privacy Policy or Contact Us.', ['Privacy Policy', 'Contact Us']),
    ).toEqual([
      { text: 'see our ' },
      { text: 'Privacy Policy', page: 'Privacy Policy' },
      { text: ' or ' },
      { text: 'Contact Us', page: 'Contact Us' },
      { text: '.' },
    ]);
  });
});

describe('the storefront shows the stored content', () => {
  it('the banner shows a stored headline, and a slide with a link is one link', () => {
    renderWithProviders(<Banner />);
    act(() =>
      updateStorefrontContent(
        row({ slide_1_heading: 'Summer sale', slide_1_link: '/?cat=Football' }),
      ),
    );
    const [first, second] = screen.getAllByTestId('banner-slide');
    expect(first).toHaveTextContent('Summer sale');
    const link = within(first!).getByRole('link');
    expect(link).toHaveAttribute('href', '/?cat=Football');
    expect(link).toContainElement(within(first!).getByRole('img'));
    expect(within(second!).queryByRole('link', { hidden: true })).toBeNull();
  });

  it('the About page shows the stored text as text, never as HTML', () => {
    act(() =>
      updateStorefrontContent(
        row({ about_text: 'Hello <b>there</b><script>alert(1)</script>\n\n- Contact Us today' }),
      ),
    );
    renderWithProviders(<AboutPage />);
    const text = screen.getByTestId('about-text');
    expect(text).toHaveTextContent('Hello <b>there</b><script>alert(1)</script>');
    expect(text.querySelector('b, script')).toBeNull();
    expect(within(text).getByRole('link', { name: texts.nav.contact })).toHaveAttribute(
      'href',
      '/contact',
    );
  });
});

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
