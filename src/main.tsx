import './app/mantine.css';
import { mayHaveSession } from './lib/infra/loadSupabase';

// Pre-rendered pages paint from the HTML and the CSS alone. The app (React, Mantine, the routes)
// is fetched and started right after that first paint: on a slow line its scripts then do not
// compete with the stylesheets and the first screen's images, and evaluating them never holds
// the paint back. Its CSS is linked from the HTML (vite-prerender.ts).
// Evaluating code blocks the page: React's modules, then the router's, then the app's are each
// evaluated in a task of their own, with a turn for the browser in between; together they were one
// long task on a phone.
// A page that was not pre-rendered (the admin area, a deep link) has nothing to paint before the
// app runs, so it starts at once, its code fetched in parallel (decision 0180): the app with React,
// and on /admin the admin chunk and the admin's first requests (features/admin/earlyStart.ts),
// instead of each after the one before.
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
const start = () =>
  import('react-dom/client')
    .then(nextTask)
    .then(() => import('./app/routerCode'))
    .then(nextTask)
    .then(() => import('./app/start'))
    .catch((error: unknown) => console.error('The app failed to load', error));
if (document.getElementById('root')?.hasChildNodes())
  requestAnimationFrame(() => setTimeout(() => void start()));
else {
  if (/^\/admin\/?$/.test(window.location.pathname) && mayHaveSession()) {
    // start.tsx imports the same module for the route: one download, begun now.
    void import('./features/admin/AdminPage').catch(() => {});
    import('./features/admin/earlyStart')
      .then((m) => m.startAdminEarly())
      .catch((error: unknown) => console.error('Starting the admin area early failed', error));
  }
  import('./app/start').catch((error: unknown) => console.error('The app failed to load', error));
}
