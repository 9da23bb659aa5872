// Helpers for the contact integration tests (contact*.test.ts): calling the contact edge function
// through the gateway, reading contact_messages directly, and finding its mails in the catcher.
import type { SupabaseClient } from '@supabase/supabase-js';
import { nodeClient } from '../../stack/client.ts';
import type { StackEnv } from '../../stack/stack.ts';
import { fetchFrom } from '../support/loopback.ts';
import { listMail, type Mail } from '../support/mail.ts';
import { uniqueEmail, uniqueId } from '../support/names.ts';
import { sql } from '../support/stack.ts';

/** Where the function sends contact mail on the local stack (its CONTACT_TO default). */
export const STORE_ADDRESS = 'shop@mar-online-store.test';

export function client(env: StackEnv, key: string = env.ANON_KEY, fromIp?: string): SupabaseClient {
  return nodeClient(env.API_URL, key, fromIp ? { fetch: fetchFrom(fromIp) } : {});
}

export function contactUrl(env: StackEnv, suffix = ''): string {
  return `${env.FUNCTIONS_URL}/contact${suffix}`;
}

export interface VisitorMessage {
  name: string;
  email: string;
  message: string;
  website?: string;
}

export function visitorMessage(overrides: Partial<VisitorMessage> = {}): VisitorMessage {
  const tag = uniqueId('msg');
  return {
    name: `Visitor ${tag}`,
    email: uniqueEmail('visitor'),
    message: `Hello, do you sell size 5 footballs? (${tag})`,
    ...overrides,
  };
}

/** The subject of the mail the store gets for `msg`. */
export const subjectOf = (msg: VisitorMessage) => `Contact form: ${msg.name}`;

/**
 * POST to the function with plain fetch, as an anonymous browser would (anon key), from the
 * loopback address `ip` when given (else 127.0.0.1).
 */
export async function postContact(
  env: StackEnv,
  body: unknown,
  opts: { ip?: string; headers?: Record<string, string>; raw?: boolean } = {},
): Promise<Response> {
  const send = opts.ip ? fetchFrom(opts.ip) : fetch;
  return send(contactUrl(env), {
    method: 'POST',
    headers: {
      apikey: env.ANON_KEY,
      authorization: `Bearer ${env.ANON_KEY}`,
      'content-type': 'application/json',
      ...opts.headers,
    },
    body: opts.raw ? (body as string) : JSON.stringify(body),
  });
}

export interface ContactRow {
  id: string;
  name: string;
  email: string;
  message: string;
  ip: string | null;
  created_at: Date;
  delivery_status: 'pending' | 'sending' | 'sent' | 'failed';
  attempts: number;
  last_error: string | null;
  claimed_at: Date | null;
  sent_at: Date | null;
  /** Stored past the day's mail cap: mailed in a digest (docs/decisions/0203). */
  digest: boolean;
}

export function rowsByEmail(env: StackEnv, email: string): Promise<ContactRow[]> {
  return sql<ContactRow>(
    'select * from public.contact_messages where lower(email) = lower($1) order by created_at',
    [email],
    env,
  );
}

export async function countRows(env: StackEnv): Promise<number> {
  const [row] = await sql<{ n: string }>(
    'select count(*) as n from public.contact_messages',
    [],
    env,
  );
  return Number(row!.n);
}

/** Every mail in the catcher with exactly this subject. */
export async function mailsWithSubject(mailUrl: string, subject: string): Promise<Mail[]> {
  return (await listMail(mailUrl)).filter((m) => m.subject === subject);
}

export function header(mail: Mail, name: string): string {
  const v = mail.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : (v ?? '');
}
