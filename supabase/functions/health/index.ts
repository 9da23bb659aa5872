// Health check of the edge-functions runtime: answers with the runtime facts a function relies
// on (which Supabase variables are set), never with secret values. Used by the stack's tests.
const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
};

const VARIABLES = [
  'SUPABASE_URL',
  'SUPABASE_ANON_KEY',
  'SUPABASE_SERVICE_ROLE_KEY',
  'SUPABASE_DB_URL',
];

Deno.serve((req: Request) => {
  if (req.method === 'OPTIONS') return new Response('ok', { headers: corsHeaders });
  const url = new URL(req.url);
  const body = {
    status: 'ok',
    method: req.method,
    path: url.pathname,
    supabaseUrl: Deno.env.get('SUPABASE_URL') ?? null,
    env: Object.fromEntries(VARIABLES.map((name) => [name, Boolean(Deno.env.get(name))])),
    // Supabase's runtime global (EdgeRuntime.waitUntil for background work).
    edgeRuntime: 'EdgeRuntime' in globalThis,
  };
  return new Response(JSON.stringify(body), {
    headers: { ...corsHeaders, 'Content-Type': 'application/json' },
  });
});
