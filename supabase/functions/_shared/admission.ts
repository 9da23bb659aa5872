// Who may call a maintenance function (link-health, feed-sync): the service role or a secret key
// (schedules, self-chaining), or a signed-in admin, asked of the database with the caller's own
// token (public.is_admin). Shared so both functions admit callers the same way.
import { createClient } from 'npm:@supabase/supabase-js@2.109.0';
import { sameSecret } from './keys.ts';

export const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
};

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...CORS, 'Content-Type': 'application/json' },
  });
}

export interface AdmissionConfig {
  supabaseUrl: string;
  anonKey: string;
  trustedKeys: string[];
}

export type Caller = 'service' | 'admin';

/** The caller's kind, or the refusal to answer (401/403 with `texts`). */
export async function admit(
  req: Request,
  config: AdmissionConfig,
  texts: { signIn: string; notAdmin: string },
): Promise<Caller | Response> {
  const token = /^Bearer (.+)$/.exec(req.headers.get('authorization') ?? '')?.[1]?.trim();
  if (!token) return json(401, { error: texts.signIn });
  if (config.trustedKeys.some((key) => sameSecret(token, key))) return 'service';
  const asCaller = createClient(config.supabaseUrl, config.anonKey, {
    global: { headers: { Authorization: `Bearer ${token}` } },
    auth: { persistSession: false, autoRefreshToken: false },
  });
  const { data, error } = await asCaller.rpc('is_admin');
  if (error) return json(401, { error: texts.signIn });
  if (data !== true) return json(403, { error: texts.notAdmin });
  return 'admin';
}
