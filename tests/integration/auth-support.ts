// Shared helpers for the auth service tests (auth-*.test.ts, one file per group of endpoints):
// supabase-js and raw HTTP through the gateway of the throwaway stack from global-setup.ts, and
// the mail catcher for confirmation, recovery and magic-link mail.
import type { SupabaseClient } from '@supabase/supabase-js';
import { createHmac } from 'node:crypto';
import { expect } from 'vitest';
import { nodeClient } from '../../stack/client.ts';
import { fetchFrom, randomLoopbackIp as uniqueIp } from '../support/loopback.ts';
import { authMailSubject, extractLinks, listMail, waitForMail } from '../support/mail.ts';
import { stackEnv } from '../support/stack.ts';

export const PASSWORD = 'Sup3r-secret-pw';
export const SITE_URL = 'http://127.0.0.1:3000';

// Each client here connects from a loopback address of its own (the gateway takes the client
// address from the socket), so the auth tests neither use up the per-IP auth limits of other test
// files nor run into them.
export { uniqueIp as randomIp };

/** An anon-key client from a client address of its own. */
export function anonClientFromOwnIp(): SupabaseClient {
  return nodeClient(stackEnv().API_URL, stackEnv().ANON_KEY, { fetch: fetchFrom(uniqueIp()) });
}

export function decodeJwt(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

/** HS256 token signed with the stack's secret, independent of the service's own JWT code. */
export function signToken(claims: Record<string, unknown>, secret = stackEnv().JWT_SECRET): string {
  const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const head = `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc(claims)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

/** Raw auth request through the gateway, as supabase-js sends it (2024-01-01 errors). */
export async function authFetch(
  path: string,
  init: {
    method?: string;
    body?: unknown;
    token?: string;
    headers?: Record<string, string>;
    /** The loopback address to connect from (default: a new one). */
    from?: string;
  } = {},
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const env = stackEnv();
  const res = await fetchFrom(init.from ?? uniqueIp())(`${env.API_URL}/auth/v1${path}`, {
    method: init.method ?? 'GET',
    headers: {
      apikey: env.ANON_KEY,
      Authorization: `Bearer ${init.token ?? env.ANON_KEY}`,
      'Content-Type': 'application/json',
      'X-Supabase-Api-Version': '2024-01-01',
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

/** Opens an e-mail link like a browser would, without following the redirect. */
export function openLink(link: string): Promise<Response> {
  return fetchFrom(uniqueIp())(link, { redirect: 'manual' });
}

export function fragmentParams(location: string): URLSearchParams {
  return new URLSearchParams(location.slice(location.indexOf('#') + 1));
}

export async function confirmationLink(email: string): Promise<string> {
  const mail = await waitForMail(stackEnv().MAILPIT_URL, {
    to: email,
    subject: authMailSubject('signup'),
  });
  const link = extractLinks(mail).find((l) => l.includes('/auth/v1/verify?'));
  if (!link) throw new Error(`no verify link in the mail to ${email}`);
  return link;
}

/** All mail to `email`, polling until at least `count` arrived (or 10 s passed). */
export async function mailsTo(
  email: string,
  count: number,
): Promise<Awaited<ReturnType<typeof listMail>>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mails = (await listMail(stackEnv().MAILPIT_URL)).filter((m) =>
      m.to.some((t) => t.address === email),
    );
    if (mails.length >= count || Date.now() > deadline) return mails;
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Signs up through supabase-js and follows the confirmation link. */
export async function signUpAndConfirm(email: string): Promise<void> {
  const { error } = await anonClientFromOwnIp().auth.signUp({ email, password: PASSWORD });
  expect(error).toBeNull();
  const res = await openLink(await confirmationLink(email));
  expect(res.status).toBe(303);
}
