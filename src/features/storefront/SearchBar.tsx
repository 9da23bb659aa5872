import { useEffect, useRef, useState } from 'react';
import { texts } from '../../texts';
import classes from './SearchBar.module.css';
import { SEARCH_MAX_LENGTH, SORTS, type StoreSort } from './storeView';

/** Results follow typing once it pauses this long (each pause is one request, older ones abort). */
export const SEARCH_DEBOUNCE_MS = 100;

/** A search as the URL holds it (storeView.ts): blank is none. */
const urlForm = (value: string) => (value.trim() ? value : '');

interface SearchBarProps {
  /** The search in the URL. */
  q: string;
  sort: StoreSort;
  /** A new search text; `push`: a new history entry (starting a search), else replace it. */
  onSearch: (q: string, push: boolean) => void;
  onSort: (sort: StoreSort) => void;
}

/**
 * The search box and the sort choice. Plain form elements styled with the theme's variables
 * rather than Mantine's inputs: the home page's JS budget has no room for them.
 */
export function SearchBar({ q, sort, onSearch, onSort }: SearchBarProps) {
  const [text, setText] = useState(q);
  // The last text handed to onSearch: the same text is not searched twice.
  const sent = useRef(q);
  // The URL forms of the searches handed to onSearch that the URL has not shown yet, oldest
  // first. The URL catches up with them one by one, and on a slow phone after newer typing: a
  // search from this list is the URL catching up, anything else came from Back, Forward or a link.
  const pending = useRef<string[]>([]);
  const timer = useRef<number | undefined>(undefined);
  const t = texts.storeSearch;
  const sortNames = t.sorts;

  useEffect(() => {
    const caughtUp = pending.current.indexOf(q);
    if (caughtUp >= 0) {
      pending.current = pending.current.slice(caughtUp + 1);
      return;
    }
    if (q !== urlForm(sent.current)) {
      // Back, Forward or a shared link changed the search: show it in the box.
      pending.current = [];
      sent.current = q;
      setText(q);
    }
  }, [q]);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const send = (value: string) => {
    window.clearTimeout(timer.current);
    if (value === sent.current) return;
    const push = !sent.current.trim();
    sent.current = value;
    pending.current.push(urlForm(value));
    onSearch(value, push);
  };

  // The home page is pre-rendered and its first cards drawn before the app runs: a shopper may
  // type or choose a sort before React listens. Hydration keeps what is in the fields; take it up.
  const input = useRef<HTMLInputElement>(null);
  const select = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    const typed = input.current?.value ?? text;
    if (typed !== text) {
      setText(typed);
      send(typed);
    }
    const chosen = select.current?.value as StoreSort | undefined;
    if (chosen && chosen !== sort && SORTS.includes(chosen)) onSort(chosen);
    // Once, on mount: later changes come through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <form
      role="search"
      className={classes.bar}
      onSubmit={(e) => {
        e.preventDefault();
        send(text);
      }}
    >
      <label className={classes.search}>
        <span className={classes.label}>{t.label}</span>
        <input
          ref={input}
          className={classes.input}
          type="search"
          name="q"
          value={text}
          maxLength={SEARCH_MAX_LENGTH}
          placeholder={t.placeholder}
          autoComplete="off"
          enterKeyHint="search"
          data-testid="search-input"
          onChange={(e) => {
            const value = e.currentTarget.value;
            setText(value);
            window.clearTimeout(timer.current);
            timer.current = window.setTimeout(() => send(value), SEARCH_DEBOUNCE_MS);
          }}
        />
      </label>
      <label className={classes.sort}>
        <span className={classes.label}>{t.sortLabel}</span>
        <select
          ref={select}
          className={classes.input}
          name="sort"
          value={sort}
          data-testid="sort-select"
          onChange={(e) => onSort(e.currentTarget.value as StoreSort)}
        >
          {SORTS.map((s) => (
            <option key={s} value={s}>
              {sortNames[s]}
            </option>
          ))}
        </select>
      </label>
    </form>
  );
}
