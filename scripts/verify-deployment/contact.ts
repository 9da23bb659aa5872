// The contact function answers, without mailing anyone: a preflight from the site's origin and a
// submission with no fields, which the function refuses (400 with field errors) before storing
// or sending anything (supabase/functions/contact/handler.ts).
import { timedFetch, type Options } from './context.ts';
import { fail, ok, type Line } from './report.ts';

const DEPLOY =
  '`npx supabase functions deploy contact` (README: Deploying to hosted Supabase, step 4)';
const ORIGINS =
  'add the site to the function’s CONTACT_ALLOWED_ORIGINS: `npx supabase secrets set ' +
  'CONTACT_ALLOWED_ORIGINS=<site>` (docs/contact-email.md)';

export async function checkContact(o: Options): Promise<Line[]> {
  const url = `${o.api}/functions/v1/contact`;
  const headers = { apikey: o.anonKey, Authorization: `Bearer ${o.anonKey}`, Origin: o.site };
  const lines: Line[] = [];

  const pre = await timedFetch(url, {
    method: 'OPTIONS',
    headers: {
      Origin: o.site,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization, apikey, content-type, x-client-info',
    },
  });
  await pre.body?.cancel();
  const allowed = pre.headers.get('access-control-allow-origin');
  lines.push(
    pre.ok && (allowed === o.site || allowed === '*')
      ? ok('contact: preflight from the site', `${pre.status}, allows ${allowed}`)
      : fail(
          'contact: preflight from the site',
          `${pre.status}, Access-Control-Allow-Origin ${allowed ?? 'missing'}`,
          pre.status === 404 ? DEPLOY : ORIGINS,
        ),
  );

  const res = await timedFetch(url, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: '{}',
  });
  const text = await res.text();
  let body: { fieldErrors?: Record<string, unknown> } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // reported below
  }
  const fields = Object.keys(body.fieldErrors ?? {}).sort();
  const wanted = ['email', 'message', 'name'];
  lines.push(
    res.status === 400 && wanted.every((f) => fields.includes(f))
      ? ok(
          'contact: function validates (nothing sent)',
          `400, field errors for ${fields.join(', ')}`,
        )
      : fail(
          'contact: function validates (nothing sent)',
          `${res.status}: ${text.slice(0, 120)}`,
          res.status === 403 ? ORIGINS : DEPLOY,
        ),
  );
  return lines;
}
