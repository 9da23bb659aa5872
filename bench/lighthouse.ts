// Part `lighthouse` of bench/run.ts: mobile Lighthouse scores and timings, the median of
// --runs, each run in a fresh Chromium; what keeps a score below 100 goes into the notes.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { freePort } from '../tests/support/harness.ts';
import { median, ms, notes, row } from './results.ts';
import { CHROMIUM } from './run-setup.ts';

/** Chromium with a DevTools port for Lighthouse (flags as the brief of issue 8 gives them). */
async function launchChrome(tmp: string): Promise<{ port: number; close(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    CHROMIUM,
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--no-default-browser-check',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${path.join(tmp, `chrome-${port}`)}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; ; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/json/version`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (i > 100) throw new Error('Chromium did not open its DevTools port');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The pages Lighthouse scores on the 1,000-product catalogue. */
export const lighthousePages = (productPage: string): [string, string][] => [
  ['home (1,000 products)', '/'],
  ['product page', productPage],
  ['contact', '/contact'],
  ['policy', '/policy'],
];

export /** `runs` per page; `reports`: a folder to keep every report (JSON) and its trace in. */
async function lighthousePart(
  tmp: string,
  appUrl: string,
  pages: [string, string][],
  { runs: runCount, reports }: { runs: number; reports?: string },
) {
  for (const [label, route] of pages) {
    const runs: Record<string, number>[] = [];
    for (let i = 0; i < runCount; i++) {
      // A fresh browser per run: no warm cache or leftover service state between runs.
      const chrome = await launchChrome(tmp);
      try {
        const result = await lighthouse(`${appUrl}${route}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        });
        if (!result) throw new Error('Lighthouse returned nothing');
        if (reports) {
          mkdirSync(reports, { recursive: true });
          const name = `${label.replace(/\W+/g, '-')}-${i + 1}.json`;
          writeFileSync(path.join(reports, name), result.report as string);
          // The trace too (Chrome DevTools' Performance panel opens it): where a long task went.
          writeFileSync(
            path.join(reports, name.replace(/\.json$/, '.trace.json')),
            JSON.stringify(result.artifacts.Trace),
          );
        }
        const { categories, audits } = result.lhr;
        const score = (k: string) => Math.round((categories[k]?.score ?? 0) * 100);
        runs.push({
          perf: score('performance'),
          a11y: score('accessibility'),
          bp: score('best-practices'),
          seo: score('seo'),
          fcp: audits['first-contentful-paint']?.numericValue ?? NaN,
          si: audits['speed-index']?.numericValue ?? NaN,
          lcp: audits['largest-contentful-paint']?.numericValue ?? NaN,
          tbt: audits['total-blocking-time']?.numericValue ?? NaN,
          cls: audits['cumulative-layout-shift']?.numericValue ?? NaN,
        });
        // Name what keeps a score below 100 so the table says what to fix.
        for (const cat of ['accessibility', 'best-practices', 'seo']) {
          for (const ref of categories[cat]?.auditRefs ?? []) {
            const audit = audits[ref.id];
            if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) {
              const note = `lighthouse ${label}: ${cat} – ${audit.id}: ${audit.title}`;
              if (!notes.includes(note)) notes.push(note);
            }
          }
        }
      } finally {
        await chrome.close();
      }
    }
    const m = (k: string) => median(runs.map((r) => r[k]!));
    row(
      'lighthouse',
      `${label}: perf / a11y / best practices / SEO`,
      `${m('perf')} / ${m('a11y')} / ${m('bp')} / ${m('seo')}`,
    );
    row(
      'lighthouse',
      `${label}: FCP / SI / LCP / TBT / CLS`,
      `${ms(m('fcp'))} / ${ms(m('si'))} / ${ms(m('lcp'))} / ${ms(m('tbt'))} / ${m('cls').toFixed(3)}`,
    );
  }
}
