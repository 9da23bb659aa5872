// Edge function `cache-purge` (optional, REQ-CDN-5, decision 0256): a Database Webhook on
// public.products and public.catagories calls it after a change; it asks Netlify to empty the
// cached catalogue answers by cache tag, so a change shows at once instead of within the 60 s +
// 30 s bound. Without NETLIFY_PURGE_TOKEN and NETLIFY_SITE_ID it answers 204 and does nothing.
// Deploy: `supabase functions deploy cache-purge` (verify_jwt = false: the function admits only
// the service role or a secret key itself, which the webhook sends as its bearer).
import { loadPurgeConfig, purgeRequest, purgeTags, trustedCaller } from './purge.ts';

const config = loadPurgeConfig((name) => Deno.env.get(name));

Deno.serve(async (req: Request) => {
  if (req.method !== 'POST') return new Response(null, { status: 405, headers: { Allow: 'POST' } });
  if (!trustedCaller(req.headers.get('Authorization'), config))
    return new Response(null, { status: 401 });
  const payload: unknown = await req.json().catch(() => ({}));
  const request = purgeRequest(
    purgeTags(payload && typeof payload === 'object' ? payload : {}),
    config,
  );
  if (!request) return new Response(null, { status: 204 });
  const answer = await fetch(request.url, request.init).catch(() => null);
  await answer?.body?.cancel();
  // A failed purge is not the webhook's problem: the answers still expire within the bound.
  if (!answer?.ok) console.error(`cache purge: Netlify answered ${answer?.status ?? 'nothing'}`);
  return new Response(null, { status: answer?.ok ? 202 : 502 });
});
