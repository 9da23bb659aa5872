// The Auth e-mail templates of supabase/config.toml (decision 0213): every mail the store can send
// carries the store's name, says what to do next and how long the link works, puts nothing a user
// typed into the mail, and is simple valid HTML. Part of `npm run check`, so renaming the store
// without the templates (or the other way round) fails before anything is deployed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  loadMailTemplates,
  renderTemplate,
  TEMPLATE_NAMES,
  templateVariables,
} from '../../stack/auth/mail-templates.ts';
import { loadConfig, REPO_ROOT } from '../../stack/config.ts';
import { readStoreSettings } from '../../src/lib/infra/storeSettings';

const config = loadConfig();
const templates = config.emailTemplates;
const storeName = readStoreSettings({}).name;

/** The default store_name of public.store_settings (the row a new database starts with). */
function databaseDefaultName(): string {
  const sql = readFileSync(
    path.join(REPO_ROOT, 'supabase/migrations/20260101002600_store_settings.sql'),
    'utf8',
  );
  return /store_name text not null default '([^']+)'/.exec(sql)![1]!;
}

const ALLOWED_TAGS = new Set([
  'html',
  'head',
  'meta',
  'title',
  'body',
  'h1',
  'h2',
  'p',
  'ol',
  'li',
  'a',
  'br',
]);
const VOID_TAGS = new Set(['meta', 'br']);

/** Every tag allowed and closed in order: a mail client's strictest reader shows it as written. */
function tagProblems(html: string): string[] {
  const problems: string[] = [];
  const open: string[] = [];
  const body = html.replace(/^<!doctype html>\s*/i, '');
  for (const m of body.matchAll(/<(\/?)([a-z0-9]+)([^>]*)>/gi)) {
    const [, closing, raw] = m;
    const tag = raw!.toLowerCase();
    if (!ALLOWED_TAGS.has(tag)) problems.push(`<${tag}> is not allowed`);
    if (VOID_TAGS.has(tag)) continue;
    if (!closing) open.push(tag);
    else if (open.pop() !== tag) problems.push(`</${tag}> closes the wrong element`);
  }
  if (open.length > 0) problems.push(`unclosed: ${open.join(', ')}`);
  if (/<script|<style|\son\w+=/i.test(html)) problems.push('script or style');
  return problems;
}

const visibleText = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('Auth e-mail templates (config.toml, supabase/templates)', () => {
  it('configures every mail the auth server can send', () => {
    expect(Object.keys(templates).sort()).toEqual(Object.keys(TEMPLATE_NAMES).sort());
  });

  it("carries the store's default name, the same as the database's and the build's", () => {
    expect(databaseDefaultName()).toBe(storeName);
    for (const t of Object.values(templates)) {
      expect(t.subject).toContain(storeName);
      expect(visibleText(t.html)).toContain(storeName);
    }
  });

  it.each(Object.entries(templates))(
    '%s says what to do next, how long the link works and what to do if unasked',
    (_, t) => {
      const text = visibleText(t.html);
      expect(text).toContain('What to do next');
      // [auth.email] otp_expiry is the links' lifetime; the mail states it in hours.
      const hours = config.auth.otpExpiry / 3600;
      expect(text).toContain(`The link works once, for ${hours} hour${hours === 1 ? '' : 's'}.`);
      expect(text).toMatch(/If you did not (ask for|expect) this/);
      expect(t.html).toMatch(/<a href="\{\{ \.ConfirmationURL \}\}">[^<]+<\/a>/);
      // Written out as well, for readers that show no links.
      expect(text).toContain('copy this address into your browser: {{ .ConfirmationURL }}');
    },
  );

  it.each(Object.entries(templates))('%s is simple, valid HTML', (_, t) => {
    expect(t.html.startsWith('<!doctype html>')).toBe(true);
    expect(tagProblems(t.html)).toEqual([]);
  });

  // user_metadata ({{ .Data }}) and the addresses are typed by whoever signs up: never in a mail.
  it.each(Object.entries(templates))('%s uses only the link, nothing a user typed', (_, t) => {
    expect(new Set(templateVariables(t.html, 'html'))).toEqual(new Set(['ConfirmationURL']));
    expect(templateVariables(t.subject, 'subject')).toEqual([]);
  });

  it('renders the link HTML-escaped and refuses what it cannot render as GoTrue does', () => {
    const out = renderTemplate(
      { subject: 'S', html: '<a href="{{ .ConfirmationURL }}">x</a>{{.Token}}' },
      { ConfirmationURL: 'http://h/verify?token=a&type=signup', Token: '<b>' },
    );
    expect(out.html).toBe('<a href="http://h/verify?token=a&amp;type=signup">x</a>&lt;b&gt;');
    expect(() => templateVariables('{{ .Data.display_name }}', 't')).toThrow(/not supported/);
    expect(() => templateVariables('{{ if .Token }}x{{ end }}', 't')).toThrow(/not supported/);
    expect(() =>
      loadMailTemplates(
        {
          auth: {
            email: { template: { recovery: { subject: 'x', content_path: './nope.html' } } },
          },
        },
        REPO_ROOT,
      ),
    ).toThrow(/not found/);
  });
});
