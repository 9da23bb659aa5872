// The home page's view in the URL (src/features/storefront/storeView.ts): what a URL asks for,
// and the URL a change gives (defaults left out, other parameters kept).
import { describe, expect, it } from 'vitest';
import {
  isPlainView,
  readStoreView,
  SEARCH_MAX_LENGTH,
  withStoreView,
} from '../../src/features/storefront/storeView';

const read = (search: string) => readStoreView(new URLSearchParams(search));
const change = (search: string, patch: Parameters<typeof withStoreView>[1]) =>
  withStoreView(new URLSearchParams(search), patch).toString();

describe('readStoreView', () => {
  it('reads search, category and sort', () => {
    expect(read('?q=racket&cat=Tennis&sort=price-desc')).toEqual({
      q: 'racket',
      cat: 'Tennis',
      sort: 'price-desc',
    });
  });

  it('falls back to the defaults for missing, blank or unknown values', () => {
    expect(read('')).toEqual({ q: '', cat: null, sort: 'price-asc' });
    expect(read('?q=%20%20&cat=%20&sort=cheapest')).toEqual({
      q: '',
      cat: null,
      sort: 'price-asc',
    });
    expect(read('?sort=newest').sort).toBe('newest');
  });

  it('keeps the search as typed (spaces and accents) but never longer than the database takes', () => {
    expect(read('?q=cr%C3%A8me%20br').q).toBe('crème br');
    expect(read(`?q=${'a'.repeat(150)}`).q).toHaveLength(SEARCH_MAX_LENGTH);
  });
});

describe('withStoreView', () => {
  it('sets what changes and keeps the rest', () => {
    expect(change('?cat=Tennis&utm=x', { q: 'ball' })).toBe('cat=Tennis&utm=x&q=ball');
    expect(change('?q=ball', { cat: 'Golf', sort: 'newest' })).toBe('q=ball&cat=Golf&sort=newest');
  });

  it('leaves defaults out of the URL', () => {
    expect(change('?q=ball&cat=Golf&sort=newest', { q: '  ', cat: null, sort: 'price-asc' })).toBe(
      '',
    );
    expect(change('?q=ball', {})).toBe('q=ball');
  });

  it('round-trips through readStoreView', () => {
    const v = { q: 'tennis racket', cat: 'Tennis', sort: 'price-desc' } as const;
    expect(read(`?${change('', v)}`)).toEqual(v);
  });
});

describe('isPlainView', () => {
  it('is the catalogue in the store order: no search and the default sort', () => {
    expect(isPlainView(read('?cat=Tennis'))).toBe(true);
    expect(isPlainView(read('?q=ball'))).toBe(false);
    expect(isPlainView(read('?sort=newest'))).toBe(false);
  });
});
