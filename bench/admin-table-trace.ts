// Where the admin table's time goes (REQ-SCALE-1, decision 0180): one load of /admin with a stored
// session and one search, against a running stack, with the page's own clock. Prints the chain:
// every script and API request (start and end), long tasks, when the table had its first row, and
// the functions that used the most CPU (a CDP profile; build with `--minify false` for readable
// names).
//
//   npx vite build --minify false --outDir /tmp/admin-trace-dist
//   npx tsx bench/admin-table-trace.ts --data-dir .stack/data --dist /tmp/admin-trace-dist \
//     [--search 'BK-50000)'] [--profile]
// Not part of `npm run bench`: a tool to read a trace, not a figure.
import path from 'node:path';
import { chromium } from '@playwright/test';
import { preview } from 'vite';
import { freePort } from '../tests/support/harness.ts';
import { readState } from '../stack/stack.ts';
import { sessionFor, useSession } from '../tests/support/session.ts';

const argv = process.argv.slice(2);
const opt = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const dataDir = path.resolve(opt('data-dir') ?? '.stack/data');
const dist = path.resolve(opt('dist') ?? 'dist');
const search = opt('search') ?? 'BK-00500)';
const state = readState(dataDir);
if (!state?.ready) throw new Error(`no running stack in ${dataDir}`);

// Marks what the bench measures, long tasks and when each fetch leaves, by the page's clock.
const WATCH = `(() => {
  window.__events = [];
  const ev = (what) => window.__events.push([Math.round(performance.now()), what]);
  window.__ev = ev;
  new PerformanceObserver((l) => l.getEntries().forEach((e) =>
    ev('longtask ' + Math.round(e.duration) + ' ms from ' + Math.round(e.startTime)))).observe({ type: 'longtask', buffered: true });
  const fetch0 = window.fetch;
  window.fetch = function (input, init) {
    const url = String(input instanceof Request ? input.url : input).replace(/^https?:\\/\\/[^/]+/, '');
    ev('fetch> ' + url.slice(0, 90));
    return fetch0.apply(this, arguments).then((r) => { ev('fetch< ' + url.slice(0, 60)); return r; });
  };
  const table = 'table[aria-label="All products"]';
  const check = () => {
    const rows = document.querySelectorAll(table + ' tbody tr');
    if (rows.length && window.__firstRowAt === undefined) { window.__firstRowAt = performance.now(); ev('FIRST ROW'); }
    const wanted = window.__searchFor;
    if (wanted && window.__searchedAt === undefined)
      for (const row of rows) if ((row.textContent || '').includes(wanted)) { window.__searchedAt = performance.now(); ev('SEARCHED ROW'); }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
  document.addEventListener('input', () => { if (window.__searchFor && window.__typedAt === undefined) { window.__typedAt = performance.now(); ev('INPUT'); } }, true);
})();`;

process.env.VITE_SUPABASE_URL = state.env.API_URL;
const port = await freePort();
const server = await preview({
  root: process.cwd(),
  logLevel: 'warn',
  build: { outDir: dist },
  preview: { host: '127.0.0.1', port, strictPort: true, open: false },
});
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
try {
  const context = await browser.newContext({
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  await page.addInitScript({ content: WATCH });
  const session = await sessionFor(state.env, 'admin@mar-online-store.test', 'admin123');
  await useSession(page, state.env, session);
  // Warm the HTTP cache of the server's side (first compile) with one load, as the bench does
  // three runs in fresh contexts; this trace is the second load in a fresh context.
  const cdp = await context.newCDPSession(page);
  const profile = argv.includes('--profile');
  if (profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const tracing = argv.includes('--tracing');
  if (tracing)
    await browser.startTracing(page, {
      categories: ['devtools.timeline', 'blink.user_timing', 'v8.execute'],
    });
  await page.goto('/admin', { waitUntil: 'commit' });
  await page.waitForFunction(() => (window as unknown as { __firstRowAt?: number }).__firstRowAt);
  await page.waitForTimeout(300);
  if (tracing) {
    // Main-thread time by kind of work from the admin check's answer to the first row.
    const buffer = await browser.stopTracing();
    const { traceEvents } = JSON.parse(buffer.toString()) as {
      traceEvents: {
        name: string;
        ph: string;
        ts: number;
        dur?: number;
        tid: number;
        args?: { name?: string };
      }[];
    };
    const renderers = new Set(
      traceEvents
        .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
        .map((e) => e.tid),
    );
    const busiest = new Map<number, number>();
    for (const e of traceEvents)
      if (renderers.has(e.tid)) busiest.set(e.tid, (busiest.get(e.tid) ?? 0) + 1);
    const main = [...busiest].sort((a, b) => b[1] - a[1])[0]?.[0];
    const nav = traceEvents.filter((e) => e.name === 'navigationStart' && e.tid === main).at(-1);
    const from = Number(opt('from') ?? 0);
    const to = Number(opt('to') ?? 1e9);
    const sums = new Map<string, number>();
    for (const e of traceEvents) {
      if (e.ph !== 'X' || !e.dur || e.tid !== main || !nav) continue;
      const at = (e.ts - nav.ts) / 1000;
      if (at < from || at > to) continue;
      sums.set(e.name, (sums.get(e.name) ?? 0) + e.dur / 1000);
    }
    console.log(`--- main thread ${from}–${to} ms by event (ms, nested events counted in each)`);
    for (const [k, v] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, 25))
      console.log(v.toFixed(1).padStart(7), k);
  }
  const resources = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => {
        const r = e as PerformanceResourceTiming;
        return `${Math.round(r.startTime)}–${Math.round(r.responseEnd)} ${r.name.replace(/^https?:\/\/[^/]+/, '').slice(0, 80)}`;
      })
      .concat(
        performance
          .getEntriesByType('navigation')
          .map((e) => `nav html end ${Math.round((e as PerformanceNavigationTiming).responseEnd)}`),
      ),
  );
  console.log('--- resources (start–end ms)');
  for (const r of resources) console.log(r);
  await page.evaluate((text) => {
    (window as unknown as Record<string, unknown>).__searchFor = text;
  }, search);
  await page.getByRole('searchbox', { name: 'Search title, catagory or comment' }).fill(search);
  await page.waitForFunction(() => (window as unknown as { __searchedAt?: number }).__searchedAt);
  await page.waitForTimeout(300);
  console.log('--- events (ms since navigation start)');
  const events = await page.evaluate(
    () => (window as unknown as { __events: [number, string][] }).__events,
  );
  for (const [at, what] of events) console.log(at, what);
  if (profile) {
    const { profile: p } = await cdp.send('Profiler.stop');
    const self = new Map<string, number>();
    const dt = new Map<number, number>();
    p.samples?.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (p.timeDeltas?.[i] ?? 0)));
    for (const n of p.nodes) {
      const f = n.callFrame;
      const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
      self.set(key, (self.get(key) ?? 0) + (dt.get(n.id) ?? 0) / 1000);
    }
    console.log('--- self time (ms), top 30');
    for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30))
      console.log(v.toFixed(1).padStart(7), k);
    // Components (capitalised names) with their children's time: what a render costs.
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    const total = (id: number): number =>
      (dt.get(id) ?? 0) / 1000 +
      (byId.get(id)?.children ?? []).reduce((sum, c) => sum + total(c), 0);
    const inclusive = new Map<string, number>();
    const walk = (id: number, open: Set<string>) => {
      const n = byId.get(id)!;
      const name = n.callFrame.functionName;
      const counted = /^[A-Z]/.test(name) && !open.has(name);
      if (counted) inclusive.set(name, (inclusive.get(name) ?? 0) + total(id));
      const next = counted ? new Set(open).add(name) : open;
      for (const c of n.children ?? []) walk(c, next);
    };
    walk(p.nodes[0]!.id, new Set());
    console.log('--- components, time with children (ms), top 40');
    for (const [k, v] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 40))
      console.log(v.toFixed(1).padStart(7), k);
  }
} finally {
  await browser.close();
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
}
