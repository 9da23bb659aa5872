import { ActionIcon } from '@mantine/core';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { paths } from '../routing/paths';
import { texts } from '../texts';

// The field itself loads on the first open, like the phone menu (the pages' JS budgets).
const HeaderSearchForm = lazy(() => import('./HeaderSearchForm'));

/** The home page's own search box (SearchBar): on the home page the header's button goes there. */
const homeSearchBox = () => document.querySelector<HTMLInputElement>('main input[name="q"]');

/**
 * Search from every page's header (REQ-PATH-2). On the home page the button takes the shopper to
 * the search box already there; elsewhere it opens a field under the header whose search leads
 * to the home listing with `?q=` (the one place results are shown).
 */
export function HeaderSearch() {
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  const button = useRef<HTMLButtonElement>(null);
  const t = texts.storeSearch;

  // A route change (the search itself, or any link) closes the field.
  useEffect(() => setOpen(false), [pathname]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  return (
    <>
      <ActionIcon
        ref={button}
        variant="default"
        size="lg"
        radius="md"
        aria-label={t.open}
        title={t.open}
        aria-expanded={open}
        aria-controls="header-search"
        data-testid="header-search-button"
        onClick={() => {
          const box = pathname === paths.home ? homeSearchBox() : null;
          if (box) {
            box.scrollIntoView({ block: 'center' });
            box.focus();
          } else setOpen(!open);
        }}
      >
        <svg
          width="18"
          height="18"
          viewBox="0 0 24 24"
          aria-hidden="true"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        >
          <circle cx="11" cy="11" r="7" />
          <path d="M20 20l-4-4" />
        </svg>
      </ActionIcon>
      {open && (
        <Suspense fallback={null}>
          <HeaderSearchForm onClose={close} />
        </Suspense>
      )}
    </>
  );
}
