// Reading the local mail catcher (maildev 2.2.1 REST API at MAILPIT_URL) from tests.
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
