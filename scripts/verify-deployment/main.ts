/**
 * The deployment check (docs/decisions/0205): checks a live store the way a careful owner would
 * after every deploy, and changes nothing it does not undo (one Buy Now click excepted, which it
 * reports).
 *
 *   SUPABASE_ANON_KEY=… [VERIFY_ADMIN_EMAIL=… VERIFY_ADMIN_PASSWORD=…] \
 *     npm run verify:deployment -- --api https://<ref>.supabase.co --site https://<shop>
 *
 * Prints one table (ok / FAIL / skip, and for each failure what to change and where); exits 1
 * when anything fails, 2 on a usage error.
 */
import { checkAdminRpcs, checkBucket, checkCsvImport } from './admin.ts';
import { checkAuth } from './auth.ts';
import { checkBuyNow, checkClientAddress } from './clicks.ts';
import { checkContact } from './contact.ts';
import {
  adminClient,
  anonClient,
  parseOptions,
  UsageError,
  USAGE,
  type Options,
} from './context.ts';
import { expectedHeaders } from './headers.ts';
import { checkMigrations } from './migrations.ts';
import { formatTable, guarded, skip, type Line } from './report.ts';
import { checkSite } from './site.ts';
import { checkStorefront } from './storefront.ts';

const PUSH = '`npx supabase db push` (README: Deploying to hosted Supabase, step 2)';

export async function verifyDeployment(o: Options): Promise<Line[]> {
  const lines: Line[] = [];
  const anon = anonClient(o);
  const admin = await adminClient(o);
  try {
    lines.push(...(await checkMigrations(admin)));
    const storefront = await checkStorefront(anon);
    lines.push(...storefront.lines);
    const product = storefront.product;
    lines.push(
      ...(await guarded('site', 'README: Deploying to hosted Supabase, step 7', () =>
        checkSite(o.site, o.api, product, expectedHeaders()),
      )),
      ...(await guarded('Buy Now: a click is counted', PUSH, async () => checkBuyNow(o, product))),
      ...(await guarded('Buy Now: address the database sees', PUSH, async () =>
        checkClientAddress(o),
      )),
      ...(await guarded(
        'contact: function answers',
        '`npx supabase functions deploy contact` (README step 4)',
        () => checkContact(o),
      )),
      ...(await guarded('auth: settings', 'README: Deploying to hosted Supabase, step 3', () =>
        checkAuth(o),
      )),
    );
    if (typeof admin === 'string') {
      lines.push(skip('admin: RPCs, Insights, CSV import, uploads', admin));
      lines.push(...(await checkBucket(anon, null)));
    } else {
      lines.push(...(await checkAdminRpcs(admin)));
      lines.push(
        ...(product
          ? await guarded('admin: CSV import (checked, nothing written)', PUSH, () =>
              checkCsvImport(admin, product),
            )
          : [skip('admin: CSV import (checked, nothing written)', 'the catalogue is empty')]),
      );
      lines.push(...(await checkBucket(anon, admin)));
    }
  } finally {
    // Ends this run's own session only (never the admin's other devices).
    if (typeof admin !== 'string') await admin.auth.signOut({ scope: 'local' });
  }
  return lines;
}

async function main(): Promise<number> {
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  process.stdout.write(`Deployment check of ${options.site} on ${options.api}\n\n`);
  const lines = await verifyDeployment(options);
  process.stdout.write(`${formatTable(lines)}\n`);
  return lines.some((l) => l.status === 'FAIL') ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`verify:deployment stopped: ${String(error)}\n`);
    process.exit(1);
  },
);
