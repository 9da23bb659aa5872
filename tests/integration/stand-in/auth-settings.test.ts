// The auth service's own endpoints: /settings, /health, the JWKS, and CORS for browsers.
import { describe, expect, it } from 'vitest';
import { stackEnv } from '../../support/stack.ts';
import { PASSWORD, authFetch } from '../auth-support.ts';
import { uniqueEmail } from '../../support/names.ts';

const env = stackEnv();

describe('service endpoints', () => {
  it('serves settings, health and an empty JWKS (HS256 keys are never published)', async () => {
    const settings = await authFetch('/settings');
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({
      disable_signup: false,
      mailer_autoconfirm: false,
      external: { email: true, phone: false, anonymous_users: false },
    });
    const health = await authFetch('/health');
    expect(health.body).toMatchObject({ name: 'GoTrue' });
    const jwks = await authFetch('/.well-known/jwks.json');
    expect(jwks.body).toEqual({ keys: [] });
  });

  it('answers CORS preflights and exposes the error headers to browsers', async () => {
    const authUrl = `http://127.0.0.1:${Number(new URL(env.API_URL).port) + 11}`;
    const preflight = await fetch(`${authUrl}/token?grant_type=password`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers':
          'apikey, authorization, content-type, x-supabase-api-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    const allowed = preflight.headers.get('access-control-allow-headers')!.toLowerCase();
    for (const h of [
      'apikey',
      'authorization',
      'content-type',
      'x-supabase-api-version',
      'x-client-info',
    ]) {
      expect(allowed).toContain(h);
    }
    const failed = await fetch(`${authUrl}/token?grant_type=password`, {
      method: 'POST',
      headers: { Origin: 'http://localhost:5173', 'X-Supabase-Api-Version': '2024-01-01' },
      body: JSON.stringify({ email: uniqueEmail('cors'), password: PASSWORD }),
    });
    expect(failed.status).toBe(400);
    expect(failed.headers.get('access-control-expose-headers')).toContain('X-Supabase-Api-Version');
  });
});
