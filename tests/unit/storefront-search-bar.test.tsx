// @vitest-environment jsdom
// The search box and sort choice (src/features/storefront/SearchBar.tsx): one search per pause in
// typing, a new history entry only when a search starts, the URL's search shown when it changes
// from outside (Back, Forward), Enter searches at once, and the sort names the database knows.
import { act, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { texts } from '../../src/adminTexts';
import { SEARCH_DEBOUNCE_MS, SearchBar } from '../../src/features/storefront/SearchBar';
import type { StoreSort } from '../../src/features/storefront/storeView';
import { renderWithProviders } from './render';

const onSearch = vi.fn();
const onSort = vi.fn();
let setUrlQ: (q: string) => void = () => {};

/** Stands in for the URL: the box's parent passes the search it last put there. */
function Harness({ initial = '', urlLags = false }: { initial?: string; urlLags?: boolean }) {
  const [q, setQ] = useState(initial);
  setUrlQ = setQ;
  return (
    <SearchBar
      q={q}
      sort={'price-asc' as StoreSort}
      onSearch={(value, push) => {
        onSearch(value, push);
        // A slow phone: the test moves the URL itself, later.
        if (!urlLags) setQ(value.trim() ? value : '');
      }}
      onSort={onSort}
    />
  );
}

const box = () => screen.getByRole('searchbox', { name: texts.storeSearch.label });
/** Moves the fake clock inside act, so React applies what the timers did. */
const tick = (ms: number) =>
  act(async () => {
    vi.advanceTimersByTime(ms);
  });
const type = (value: string) => fireEvent.change(box(), { target: { value } });

describe('<SearchBar />', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    onSearch.mockReset();
    onSort.mockReset();
  });
  afterEach(() => vi.useRealTimers());

  it('searches once typing pauses; starting a search pushes, refining replaces', async () => {
    renderWithProviders(<Harness />);
    expect(screen.getByRole('search')).toContainElement(box());
    type('r');
    type('ra');
    type('rac');
    await tick(SEARCH_DEBOUNCE_MS - 1);
    expect(onSearch).not.toHaveBeenCalled();
    await tick(1);
    expect(onSearch).toHaveBeenCalledExactlyOnceWith('rac', true);
    type('racket');
    await tick(SEARCH_DEBOUNCE_MS);
    expect(onSearch).toHaveBeenLastCalledWith('racket', false);
    expect(box()).toHaveValue('racket');
  });

  it('Enter searches at once and the same text is not sent twice', async () => {
    renderWithProviders(<Harness />);
    type('ball');
    fireEvent.submit(box().closest('form')!);
    expect(onSearch).toHaveBeenCalledExactlyOnceWith('ball', true);
    await tick(SEARCH_DEBOUNCE_MS * 2);
    expect(onSearch).toHaveBeenCalledTimes(1);
  });

  it('shows the search the URL gets from Back or Forward', async () => {
    renderWithProviders(<Harness initial="golf" />);
    expect(box()).toHaveValue('golf');
    await act(async () => setUrlQ(''));
    expect(box()).toHaveValue('');
    await act(async () => setUrlQ('tennis'));
    expect(box()).toHaveValue('tennis');
  });

  it('a URL catching up with older searches does not undo newer typing', async () => {
    renderWithProviders(<Harness urlLags />);
    type('zem');
    await tick(SEARCH_DEBOUNCE_MS);
    type('zemla');
    await tick(SEARCH_DEBOUNCE_MS);
    type('zemlamt');
    expect(onSearch.mock.calls).toEqual([
      ['zem', true],
      ['zemla', false],
    ]);
    // The URL shows the first search only now, after the shopper typed on.
    await act(async () => setUrlQ('zem'));
    expect(box()).toHaveValue('zemlamt');
    await act(async () => setUrlQ('zemla'));
    expect(box()).toHaveValue('zemlamt');
    await tick(SEARCH_DEBOUNCE_MS);
    expect(onSearch).toHaveBeenLastCalledWith('zemlamt', false);
    await act(async () => setUrlQ('zemlamt'));
    // Back, to before the search: the box follows.
    await act(async () => setUrlQ(''));
    expect(box()).toHaveValue('');
  });

  it('offers the three sorts by their database names', async () => {
    renderWithProviders(<Harness />);
    const select = screen.getByRole('combobox', { name: texts.storeSearch.sortLabel });
    expect([...select.querySelectorAll('option')].map((o) => [o.value, o.textContent])).toEqual([
      ['price-asc', texts.storeSearch.sorts['price-asc']],
      ['price-desc', texts.storeSearch.sorts['price-desc']],
      ['newest', texts.storeSearch.sorts.newest],
    ]);
    fireEvent.change(select, { target: { value: 'newest' } });
    expect(onSort).toHaveBeenCalledWith('newest');
  });

  it('takes up what was typed or chosen in the pre-rendered page before the app started', async () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(<Harness />);
    document.body.append(container);
    const input = container.querySelector('input')!;
    const select = container.querySelector('select')!;
    // The shopper was quicker than the app.
    input.value = 'racket';
    select.value = 'newest';
    let root: Root | undefined;
    await act(async () => {
      root = hydrateRoot(container, <Harness />);
    });
    expect(onSearch).toHaveBeenCalledExactlyOnceWith('racket', true);
    expect(onSort).toHaveBeenCalledExactlyOnceWith('newest');
    expect(input).toHaveValue('racket');
    await act(async () => root!.unmount());
    container.remove();
  });
});
