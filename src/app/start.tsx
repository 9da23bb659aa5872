// The app itself, started by main.tsx once the browser has painted the page.
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { sealEarlyFirstPage } from '../features/storefront/firstPagePrefetch';
import { AppProviders } from './AppProviders';
import { prerenderedRoute } from '../routing/prerender';
import { AppRoutes, preloadRoutes } from './router';

const root = document.getElementById('root');
if (!root) throw new Error('#root element missing from index.html');

function app() {
  return (
    <StrictMode>
      <AppProviders>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </AppProviders>
    </StrictMode>
  );
}

/**
 * Lets the browser run other work (input, paint) before the next step. Evaluating the app's
 * modules, creating the router and starting React each take tens of milliseconds on a phone;
 * run back to back they made one long task that blocked the main thread.
 */
const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

// Pages pre-rendered at build time (vite-prerender.ts) are hydrated: the HTML is already on
// screen and React attaches to it. Anything else (the SPA fallback, or a pre-rendered page served
// for another URL, e.g. home with ?cat=) is rendered from scratch; React replaces the markup when
// it commits. Either way the matched route's code is loaded first, so the first render is the
// page itself, and it renders in a transition so React yields to the browser while it works.
async function startApp(root: HTMLElement) {
  const path = window.location.pathname.replace(/(.)\/$/, '$1');
  const hydrate = prerenderedRoute(root) === path && !window.location.search;
  await preloadRoutes(window.location.pathname);
  await yieldToBrowser();
  // From here React owns the page: the HTML's early script must not draw cards into it any more.
  sealEarlyFirstPage();
  startTransition(() => {
    if (hydrate)
      hydrateRoot(root, app(), {
        // A mismatch means the pre-render and the client disagree: say so loudly.
        onRecoverableError: (error) => console.error('hydration:', error),
      });
    else createRoot(root).render(app());
  });
}

void startApp(root);
