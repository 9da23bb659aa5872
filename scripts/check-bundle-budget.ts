// Fails (exit 1) when the production build is over the gzip budgets in bench/budget.json. Bytes
// are deterministic, unlike timings, so this one may fail the build. Expects a build with its
// manifest in dist/ (or the folder given as the first argument): `npm run test:budget` builds first.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { kB, measureBundle } from '../bench/bundle.ts';

interface Budget {
  homeInitialJs: number;
  homeInitialCss: number;
  adminJs: number;
  feedsJs: number;
  productPageInitialJs: number;
}

const root = path.resolve(import.meta.dirname, '..');
const dist = path.resolve(process.argv[2] ?? path.join(root, 'dist'));
const budget = JSON.parse(readFileSync(path.join(root, 'bench', 'budget.json'), 'utf8')) as Budget;
const report = measureBundle(dist);

const checks: [string, number, number][] = [
  ['home page initial JS (gzip)', report.totals.homeJsGzip, budget.homeInitialJs],
  ['home page initial CSS (gzip)', report.totals.homeCssGzip, budget.homeInitialCss],
  // REQ-FIND-3: a product page's initial JS (bench/budget.json says why it has its own figure).
  ['product page initial JS (gzip)', report.totals.productPageJsGzip, budget.productPageInitialJs],
  ['admin chunk JS (gzip)', report.totals.adminJsGzip, budget.adminJs],
  // The Feeds tab loads on its own (decision 0243): its own figure, so it cannot grow unseen.
  ['admin Feeds tab JS (gzip)', report.totals.feedsJsGzip, budget.feedsJs],
];
let failed = false;
for (const [label, actual, limit] of checks) {
  const ok = actual <= limit;
  failed ||= !ok;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${label}: ${kB(actual)} of ${kB(limit)}`);
}
if (failed) {
  console.error('\nOver budget. Files the home page loads up front:');
  for (const f of [...report.homeJs, ...report.homeCss]) console.error(`  ${f.file} ${kB(f.gzip)}`);
  process.exit(1);
}
