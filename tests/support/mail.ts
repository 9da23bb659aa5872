// Reading the local mail catcher (maildev 2.2.1 REST API at MAILPIT_URL) from tests.
import { createHash } from 'node:crypto';
import type { TemplateKind } from '../../stack/auth/mail-templates.ts';
import { loadConfig } from '../../stack/config.ts';
export interface MailAddress {
  address: string;
  name: string;
}

export interface Mail {
  id: string;
  subject: string;
  from: MailAddress[];
  to: MailAddress[];
  html?: string;
  text?: string;
  date: string;
  headers: Record<string, string | string[]>;
}

export interface MailQuery {
  to: string;
  subject?: string | RegExp;
}

export async function listMail(mailUrl: string): Promise<Mail[]> {
  const res = await fetch(`${mailUrl}/email`);
  if (!res.ok) throw new Error(`mail catcher: GET /email answered ${res.status}`);
  return (await res.json()) as Mail[];
}

export async function clearMail(mailUrl: string): Promise<void> {
  const res = await fetch(`${mailUrl}/email/all`, { method: 'DELETE' });
  if (!res.ok) throw new Error(`mail catcher: DELETE /email/all answered ${res.status}`);
}

function matches(mail: Mail, q: MailQuery): boolean {
  const to = q.to.toLowerCase();
  if (!mail.to.some((a) => a.address.toLowerCase() === to)) return false;
  if (q.subject === undefined) return true;
  return typeof q.subject === 'string' ? mail.subject === q.subject : q.subject.test(mail.subject);
}

/** The newest mail matching the query; polls until it arrives or `timeoutMs` passes. */
export async function waitForMail(
  mailUrl: string,
  query: MailQuery,
  timeoutMs = 10_000,
): Promise<Mail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await listMail(mailUrl)).filter((m) => matches(m, query));
    if (found.length > 0) {
      return found.sort((a, b) => Date.parse(b.date) - Date.parse(a.date))[0]!;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `no mail to ${query.to}${query.subject ? ` with subject ${String(query.subject)}` : ''} within ${timeoutMs} ms`,
      );
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}

const decodeEntities = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/** Links in a mail: href targets of the HTML part first, then bare URLs of the text part. */
export function extractLinks(mail: Pick<Mail, 'html' | 'text'>): string[] {
  const links: string[] = [];
  for (const m of (mail.html ?? '').matchAll(/href\s*=\s*["']([^"']+)["']/gi))
    links.push(decodeEntities(m[1]!));
  for (const m of (mail.text ?? '').matchAll(/https?:\/\/[^\s<>"')\]]+/g))
    links.push(decodeEntities(m[0]));
  return [...new Set(links)];
}

/**
 * The subject config.toml gives an Auth mail ([auth.email.template.<name>] subject), so tests
 * find the mail the store really sends (decision 0213).
 */
export function authMailSubject(kind: TemplateKind): string {
  const template = loadConfig().emailTemplates[kind];
  if (!template) throw new Error(`no [auth.email.template] for ${kind} in config.toml`);
  return template.subject;
}

/**
 * The six-digit code of a mailed link. The store's mails carry links only (their flows need no
 * code), and a link's token is sha224(address + code) (GoTrue's scheme), so trying the million
 * codes finds it: for tests of the code path alone.
 */
export function codeFromLink(link: string, email: string): string {
  const token = new URL(link).searchParams.get('token')!.replace(/^pkce_/, '');
  for (let i = 0; i < 1_000_000; i++) {
    const code = String(i).padStart(6, '0');
    if (
      createHash('sha224')
        .update(email + code)
        .digest('hex') === token
    )
      return code;
  }
  throw new Error(`no six-digit code matches the link's token for ${email}`);
}
