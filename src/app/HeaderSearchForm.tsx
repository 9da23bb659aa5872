import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../routing/paths';
import { texts } from '../searchTexts';
import classes from './HeaderSearch.module.css';

/**
 * The header's search field (REQ-PATH-2), under the header: a search leads to the home listing
 * with `?q=`; Escape closes it. Loaded on the first open (HeaderSearch).
 */
export default function HeaderSearchForm({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const t = texts.storeSearch;
  useEffect(() => input.current?.focus(), []);

  return (
    <form
      id="header-search"
      role="search"
      aria-label={t.open}
      className={classes.panel}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
      onSubmit={(e) => {
        e.preventDefault();
        // The home page's `q` parameter (storeView.ts, not imported: it would become a chunk of
        // its own that every page loads).
        const q = input.current?.value.trim() ?? '';
        void navigate(q ? `${paths.home}?${new URLSearchParams({ q }).toString()}` : paths.home);
      }}
    >
      <input
        ref={input}
        className={classes.input}
        type="search"
        name="q"
        aria-label={t.label}
        placeholder={t.placeholder}
        maxLength={100 /* SEARCH_MAX_LENGTH in storeView.ts */}
        autoComplete="off"
        enterKeyHint="search"
        data-testid="header-search-input"
      />
      <button type="submit" className={classes.submit}>
        {t.submit}
      </button>
    </form>
  );
}
