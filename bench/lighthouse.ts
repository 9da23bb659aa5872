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

/** One Lighthouse run's scores and timings, and Lighthouse's own CPU benchmark of the machine. */
export type LighthouseRun = Record<
  'perf' | 'a11y' | 'bp' | 'seo' | 'fcp' | 'si' | 'lcp' | 'tbt' | 'cls' | 'cpu',
  number
>;

/**
 * One run on `url` in a fresh Chromium (no warm cache or leftover service state between runs);
 * `reports`: a folder to keep the report (JSON) and its trace in, named after `label` and `index`.
 */
export async function lighthouseOnce(
  tmp: string,
  url: string,
  label: string,
  { reports, index = 0 }: { reports?: string; index?: number } = {},
): Promise<LighthouseRun> {
  const chrome = await launchChrome(tmp);
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    });
    if (!result) throw new Error('Lighthouse returned nothing');
    if (reports) {
      mkdirSync(reports, { recursive: true });
      const name = `${label.replace(/\W+/g, '-')}-${index + 1}.json`;
      writeFileSync(path.join(reports, name), result.report as string);
      // The trace too (Chrome DevTools' Performance panel opens it): where a long task went.
      writeFileSync(
        path.join(reports, name.replace(/\.json$/, '.trace.json')),
        JSON.stringify(result.artifacts.Trace),
      );
    }
    const { categories, audits } = result.lhr;
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
    const score = (k: string) => Math.round((categories[k]?.score ?? 0) * 100);
    return {
      perf: score('performance'),
      a11y: score('accessibility'),
      bp: score('best-practices'),
      seo: score('seo'),
      fcp: audits['first-contentful-paint']?.numericValue ?? NaN,
      si: audits['speed-index']?.numericValue ?? NaN,
      lcp: audits['largest-contentful-paint']?.numericValue ?? NaN,
      tbt: audits['total-blocking-time']?.numericValue ?? NaN,
      cls: audits['cumulative-layout-shift']?.numericValue ?? NaN,
      cpu: result.lhr.environment.benchmarkIndex,
    };
  } finally {
    await chrome.close();
  }
}

/**
 * The medians of a page's runs as two rows, and every run's score, TBT and Lighthouse's CPU
 * benchmark in the notes: on a shared machine the benchmark moves between runs, and the score
 * with it.
 */
export function lighthouseRows(label: string, runs: LighthouseRun[]) {
  const m = (k: keyof LighthouseRun) => median(runs.map((r) => r[k]));
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
  const each = (k: keyof LighthouseRun) => runs.map((r) => Math.round(r[k])).join(',');
  notes.push(
    `lighthouse ${label}: perf ${each('perf')}; TBT ${each('tbt')} ms; CPU benchmark ${each('cpu')}`,
  );
}

/** `runs` per page, one page after the other; `reports`: a folder to keep every report in. */
export async function lighthousePart(
  tmp: string,
  appUrl: string,
  pages: [string, string][],
  { runs: runCount, reports }: { runs: number; reports?: string },
) {
  for (const [label, route] of pages) {
    const runs: LighthouseRun[] = [];
    for (let index = 0; index < runCount; index++)
      runs.push(await lighthouseOnce(tmp, `${appUrl}${route}`, label, { reports, index }));
    lighthouseRows(label, runs);
  }
}
