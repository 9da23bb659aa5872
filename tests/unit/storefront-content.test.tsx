// @vitest-environment jsdom
// The owner's storefront content (docs/decisions/0212) on the storefront side: which links a
// slide may have, how the About text's plain format becomes blocks, and the banner and About page
// showing a stored row (REQ-HOME-1, REQ-PAGE-1). The database's own checks: the integration test
// tests/integration/storefront-content.test.ts.
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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
