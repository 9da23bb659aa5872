// The home page's interaction latency under a 4× CPU slowdown (REQ-WEIGHT-6):
//   npm run bench:interaction                          (this checkout against --before)
//   npm run bench:interaction -- --before <git ref> --runs 7 --lighthouse 3 --no-write
// One throwaway stack with 1,000 products; this checkout's production build and the build of an
// earlier commit (default: the last one before the home page was made lighter, decision 0258),
// each served by its own tree's `vite preview`, loaded in turn in headless Chromium at 375 px
// with DevTools' CPU throttling at 4×. Per interaction, Chromium's own Event Timing (what INP is
// made of: input delay, handlers and the next paint, in 8 ms steps, nothing under 16 ms reported)
// and the time until the page shows the answer: a category click (the heading and the first card
// of the category), a keystroke in the search box, Load more (the next page's cards). Before them,
// the load itself: Chromium's long tasks (50 ms or more) from the navigation until the app has
// started and the network is quiet, as their blocking time (each task's time past 50 ms, summed,
// like Lighthouse's TBT but measured, not simulated, and counted from the start) and the longest
// task. Medians,
// runs interleaved so both builds meet the same machine; then mobile Lighthouse (median of
// --lighthouse runs, interleaved too) on the home page and a product page of each build.
// Figures, never a pass or fail.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { seedBulk } from '../scripts/seed-bulk.ts';
import pg from 'pg';
import { productPath } from '../src/routing/paths.ts';
import { lighthouseOnce, lighthouseRows, type LighthouseRun } from './lighthouse.ts';
import { log, median, notes, report, row } from './results.ts';
import { buildApp, CHROMIUM, ROOT, serveApp, startStack } from './run-setup.ts';

const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1]! : fallback;
};
/** The merge of the home page's weight work (decision 0258) has this as its first parent. */
const BEFORE = arg('before', '9fb50c4^1');
const RUNS = Number(arg('runs', '7'));
/** Mobile Lighthouse runs per page and build (its own simulated 4× slowdown); 0 skips it. */
const LIGHTHOUSE_RUNS = Number(arg('lighthouse', '3'));
const write = !argv.includes('--no-write');
const started = Date.now();
const VIEWPORT = { width: 375, height: 812 };

/** Event Timing entries of the page (PerformanceEventTiming), kept by an init script. */
const WATCH_EVENTS = `
  window.__events = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      window.__events.push({ name: e.name, start: e.startTime, duration: e.duration, id: e.interactionId });
  }).observe({ type: 'event', buffered: true, durationThreshold: 16 });
  addEventListener('pointerdown', (e) => (window.__inputAt = e.timeStamp), true);
  addEventListener('keydown', (e) => (window.__inputAt = e.timeStamp), true);
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
`;

interface Sample {
  /** The longest Event Timing entry of the interaction (16 when Chromium reported none). */
  inp: number;
  /** From the input event to the answer on the page. */
  shown: number;
}
type Measures = Record<'category' | 'keystroke' | 'loadMore', Sample[]> & {
  /** The load's long tasks: blocking time (ms past 50, summed) and the longest, per load. */
  load: { blocking: number; longest: number }[];
};

/** The interaction's Event Timing duration, and the ms from its input to `done` holding. */
async function timed(
  page: Page,
  act: () => Promise<void>,
  done: (arg: never) => unknown,
  arg: unknown,
) {
  await page.evaluate(() => {
    const w = window as unknown as { __events: unknown[]; __inputAt: number };
    w.__events = [];
    w.__inputAt = 0;
  });
  await act();
  await page.waitForFunction(done as (a: unknown) => unknown, arg, { timeout: 30_000 });
  const shownAt = await page.evaluate(() => performance.now());
  // Event Timing reports after the next paint; give it a few frames.
  await page.waitForTimeout(300);
  return page.evaluate((at) => {
    const w = window as unknown as { __events: { duration: number }[]; __inputAt: number };
    const inp = Math.max(16, ...w.__events.map((e) => e.duration));
    return { inp, shown: at - w.__inputAt };
  }, shownAt);
}

async function measureOnce(browser: Browser, url: string, into: Measures) {
  const context = await browser.newContext({ viewport: VIEWPORT, locale: 'en-GB' });
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: WATCH_EVENTS });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(url, { waitUntil: 'load' });
    const loadMore = page.getByRole('button', { name: 'Load more' });
    await loadMore.waitFor({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    into.load.push(
      await page.evaluate(() => {
        const tasks = (window as unknown as { __longTasks: number[] }).__longTasks;
        return {
          blocking: tasks.reduce((sum, d) => sum + Math.max(0, d - 50), 0),
          longest: Math.max(0, ...tasks),
        };
      }),
    );

    const row = page.getByTestId('category-buttons');
    const target = (await row.getByRole('button').nth(2).textContent())!.trim();
    into.category.push(
      await timed(
        page,
        () => row.getByRole('button', { name: target, exact: true }).click(),
        (cat: string) =>
          document.querySelector('[data-testid="catalogue-heading"]')?.textContent?.includes(cat) &&
          document.querySelector('[data-testid="product-card"]'),
        target,
      ),
    );
    await page.waitForLoadState('networkidle');

    const box = page.getByRole('main').getByRole('searchbox').first();
    await box.focus();
    into.keystroke.push(
      await timed(
        page,
        () => page.keyboard.press('b'),
        () => (document.activeElement as HTMLInputElement | null)?.value === 'b',
        null,
      ),
    );
    await page.keyboard.press('Backspace');
    await page.waitForLoadState('networkidle');

    const cards = await page.getByTestId('product-card').count();
    into.loadMore.push(
      await timed(
        page,
        () => loadMore.click(),
        (n: number) => document.querySelectorAll('[data-testid="product-card"]').length > n,
        cards,
      ),
    );
  } finally {
    await context.close();
  }
}

/** Round `i`'s order: the builds one way, then the other, so neither always goes first. */
const inTurn = <T>(i: number, items: T[]) => (i % 2 ? [...items].reverse() : items);

const tmp = mkdtempSync(path.join(os.tmpdir(), 'mar-bench-interaction-'));
const beforeTree = path.join(tmp, 'before');
const cleanups: Array<() => Promise<void>> = [];
try {
  const stack = await startStack(tmp);
  cleanups.push(() => stack.stop());
  log(`interaction: ${await seedBulk(stack.env.DB_URL, 1000 - 32)} products`);
  execFileSync('git', ['worktree', 'add', '--detach', beforeTree, BEFORE], { cwd: ROOT });
  cleanups.push(async () => {
    execFileSync('git', ['worktree', 'remove', '--force', beforeTree], { cwd: ROOT });
  });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(beforeTree, 'node_modules'));
  const commit = execFileSync('git', ['rev-parse', '--short', BEFORE], { cwd: ROOT })
    .toString()
    .trim();
  const builds: Array<{ name: string; url: string; m: Measures }> = [];
  for (const [name, root] of [
    [`before (${commit})`, beforeTree],
    ['this checkout', ROOT],
  ] as const) {
    log(`interaction: building ${name}`);
    const out = path.join(tmp, `dist-${builds.length}`);
    await buildApp(out, stack.env, root);
    const app = await serveApp(out, root);
    cleanups.push(() => app.close());
    builds.push({
      name,
      url: app.url,
      m: { category: [], keystroke: [], loadMore: [], load: [] },
    });
  }
  const browser = await chromium.launch({
    executablePath: existsSync(CHROMIUM) ? CHROMIUM : undefined,
  });
  cleanups.push(() => browser.close());
  for (let i = 0; i < RUNS; i++) {
    for (const b of inTurn(i, builds)) await measureOnce(browser, b.url, b.m);
    log(`interaction: run ${i + 1} of ${RUNS}`);
  }
  if (LIGHTHOUSE_RUNS > 0) {
    const db = new pg.Client({ connectionString: stack.env.DB_URL });
    await db.connect();
    const { rows } = await db.query<{ slug: string }>(
      'select slug from public.products order by price_value asc nulls last, title limit 1',
    );
    await db.end();
    const pages = [
      ['home (1,000 products)', '/'],
      ['product page', productPath(rows[0]!.slug)],
    ] as const;
    // Interleaved like the interactions: the machine's slow and fast spells fall on both builds.
    const runs = builds.map(() => pages.map((): LighthouseRun[] => []));
    for (let i = 0; i < LIGHTHOUSE_RUNS; i++) {
      for (const b of inTurn(i, [...builds.keys()]))
        for (const [p, [label, route]] of pages.entries())
          runs[b]![p]!.push(
            await lighthouseOnce(tmp, `${builds[b]!.url}${route}`, `${label}, ${builds[b]!.name}`),
          );
      log(`interaction: Lighthouse round ${i + 1} of ${LIGHTHOUSE_RUNS}`);
    }
    for (const [b, build] of builds.entries())
      for (const [p, [label]] of pages.entries())
        lighthouseRows(`${label}, ${build.name}`, runs[b]![p]!);
  }
  const labels = {
    category: 'category click',
    keystroke: 'search keystroke',
    loadMore: 'Load more',
  } as const;
  const s = 'interaction';
  row(s, 'setup', `375 px, 4× CPU slowdown, 1,000 products, median of ${RUNS} loads per build`);
  const loads = builds.map((b) => b.m.load);
  for (const [key, label] of [
    ['blocking', 'the load: blocking time of its long tasks ms'],
    ['longest', 'the load: longest task ms'],
  ] as const)
    row(
      s,
      `${label}, ${builds[0]!.name} / this checkout`,
      loads.map((xs) => Math.round(median(xs.map((x) => x[key])))).join(' / '),
    );
  for (const key of Object.keys(labels) as Array<keyof typeof labels>) {
    const [a, b] = builds.map((x) => x.m[key]) as [Sample[], Sample[]];
    const fmt = (xs: Sample[], k: keyof Sample) => `${Math.round(median(xs.map((x) => x[k])))}`;
    row(
      s,
      `${labels[key]}: Event Timing (INP) ms, ${builds[0]!.name} / this checkout`,
      `${fmt(a, 'inp')} / ${fmt(b, 'inp')}`,
    );
    if (key !== 'keystroke')
      row(
        s,
        `${labels[key]}: input to answer shown ms, ${builds[0]!.name} / this checkout`,
        `${fmt(a, 'shown')} / ${fmt(b, 'shown')}`,
      );
  }
  notes.push(
    ...builds.map(
      (b) =>
        `${b.name}: ${(['category', 'keystroke', 'loadMore'] as const)
          .map((k) => `${k} INP ${b.m[k].map((x) => Math.round(x.inp)).join(',')}`)
          .join('; ')}; load blocking ${b.m.load.map((x) => Math.round(x.blocking)).join(',')}`,
    ),
  );
} finally {
  for (const c of cleanups.reverse()) await c().catch((e: unknown) => console.error(e));
  rmSync(tmp, { recursive: true, force: true });
}
report({ parts: ['interaction'], started, write });
