// Auth settings as they can be seen from outside, without mailing anyone or creating accounts:
// - GET /auth/v1/settings: e-mail sign-up on, e-mail confirmation on (mailer_autoconfirm false),
//   sign-ups open (an invited admin signs up from the SignUP tab).
// - The Site URL and the redirect allow-list: a mailed link (GET /auth/v1/verify) with a made-up
//   token fails, and Auth sends the browser to redirect_to when that address is allowed, else
//   to the Site URL. Asking with the shop's /reset-password and /login, and with an address no
//   allow-list should hold, shows all three without a token, an account or a mail.
import { randomBytes } from 'node:crypto';
import { timedFetch, type Options } from './context.ts';
import { fail, ok, type Line } from './report.ts';

const DASHBOARD = 'Dashboard → Authentication (README: Deploying to hosted Supabase, step 3)';
const FOREIGN = 'https://not-this-shop.invalid/verify-deployment';

async function redirectOf(o: Options, redirectTo: string): Promise<URL | null> {
  const url = new URL(`${o.api}/auth/v1/verify`);
  url.searchParams.set('type', 'recovery');
  url.searchParams.set('token', `verify-deployment-${randomBytes(12).toString('hex')}`);
  url.searchParams.set('redirect_to', redirectTo);
  const res = await timedFetch(url, { headers: { apikey: o.anonKey }, redirect: 'manual' });
  await res.body?.cancel();
  const location = res.headers.get('location');
  if (res.status < 300 || res.status > 399 || !location) return null;
  const target = new URL(location, o.api);
  target.hash = '';
  return target;
}

export async function checkAuth(o: Options): Promise<Line[]> {
  const lines: Line[] = [];
  const res = await timedFetch(`${o.api}/auth/v1/settings`, { headers: { apikey: o.anonKey } });
  const settings = (await res.json().catch(() => ({}))) as {
    external?: { email?: boolean };
    disable_signup?: boolean;
    mailer_autoconfirm?: boolean;
  };
  const problems: string[] = [];
  if (!res.ok) problems.push(`GET /auth/v1/settings answered ${res.status}`);
  if (settings.external?.email !== true) problems.push('e-mail sign-in is off');
  if (settings.mailer_autoconfirm !== false) problems.push('e-mail confirmation is off');
  if (settings.disable_signup !== false) problems.push('sign-ups are off (invited admins sign up)');
  lines.push(
    problems.length
      ? fail(
          'auth: e-mail sign-up with confirmation',
          problems.join('; '),
          `${DASHBOARD}: Sign In / Providers → Email: enabled, “Confirm email” on, sign-ups allowed`,
        )
      : ok('auth: e-mail sign-up with confirmation', 'e-mail on, confirmation on, sign-ups open'),
  );

  const fallback = await redirectOf(o, FOREIGN);
  if (fallback === null)
    lines.push(fail('auth: Site URL', 'a failed link did not redirect', DASHBOARD));
  else if (fallback.origin === new URL(FOREIGN).origin)
    lines.push(
      fail(
        'auth: redirect allow-list is the shop’s',
        `${FOREIGN} is accepted: the allow-list is too wide`,
        `${DASHBOARD}: URL Configuration → Redirect URLs: only the shop’s /login and /reset-password`,
      ),
    );
  else
    lines.push(
      fallback.origin === o.site
        ? ok('auth: Site URL', `${fallback.href} (links fall back to the shop)`)
        : fail(
            'auth: Site URL',
            `${fallback.href}, not ${o.site}`,
            `${DASHBOARD}: URL Configuration → Site URL = ${o.site}`,
          ),
    );

  for (const path of ['/reset-password', '/login']) {
    const wanted = `${o.site}${path}`;
    const target = await redirectOf(o, wanted);
    const got = target ? `${target.origin}${target.pathname}` : 'no redirect';
    lines.push(
      got === wanted
        ? ok(`auth: redirect to ${path} allowed`, wanted)
        : fail(
            `auth: redirect to ${path} allowed`,
            `a link asking for ${wanted} lands on ${got}`,
            `${DASHBOARD}: URL Configuration → Redirect URLs: add ${wanted}`,
          ),
    );
  }
  return lines;
}
