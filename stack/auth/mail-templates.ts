// The Auth e-mail templates of supabase/config.toml ([auth.email.template.<name>] subject and
// content_path), read from the same files hosted Supabase is given, so a local test proves what
// hosted sends (docs/decisions/0213). Rendering covers what the store's templates use: GoTrue's
// `{{ .Variable }}` substitution, values HTML-escaped as Go's html/template does. Any other
// template construct is refused at load, so a template never renders differently here unnoticed.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Mail kinds of the auth server and the template name config.toml gives each. */
export const TEMPLATE_NAMES = {
  signup: 'confirmation',
  invite: 'invite',
  recovery: 'recovery',
  magiclink: 'magic_link',
  email_change: 'email_change',
} as const;
export type TemplateKind = keyof typeof TEMPLATE_NAMES;
export type TemplateName = (typeof TEMPLATE_NAMES)[TemplateKind];

/** One configured template: the subject and the HTML body as written in the files. */
export interface MailTemplate {
  subject: string;
  html: string;
}
export type MailTemplates = Partial<Record<TemplateKind, MailTemplate>>;

/** GoTrue's template variables (reauthentication's and notifications' aside). */
export const TEMPLATE_VARIABLES = [
  'ConfirmationURL',
  'Token',
  'TokenHash',
  'SiteURL',
  'RedirectTo',
  'Email',
  'NewEmail',
] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

const ACTION = /\{\{-?\s*(.*?)\s*-?\}\}/gs;

/** The variables a template uses; throws on anything but `{{ .Variable }}` of TEMPLATE_VARIABLES. */
export function templateVariables(source: string, where: string): TemplateVariable[] {
  const used: TemplateVariable[] = [];
  for (const m of source.matchAll(ACTION)) {
    const name = /^\.([A-Za-z]+)$/.exec(m[1]!)?.[1];
    if (!name || !(TEMPLATE_VARIABLES as readonly string[]).includes(name)) {
      throw new Error(
        `${where}: "${m[0]}" is not supported by the local auth server (only {{ .${TEMPLATE_VARIABLES.join(' }}, {{ .')} }})`,
      );
    }
    used.push(name as TemplateVariable);
  }
  return used;
}

const escapeHtml = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&#34;')
    .replace(/'/g, '&#39;');

/** Fills in the variables; the subject is plain text (a mail header), the body HTML-escaped. */
export function renderTemplate(
  template: MailTemplate,
  values: Partial<Record<TemplateVariable, string>>,
): MailTemplate {
  const fill = (source: string, escape: (s: string) => string) =>
    source.replace(ACTION, (_, action: string) =>
      escape(values[action.slice(1) as TemplateVariable] ?? ''),
    );
  return { subject: fill(template.subject, (s) => s), html: fill(template.html, escapeHtml) };
}

type Table = Record<string, unknown>;
const table = (t: Table | undefined, key: string): Table => {
  const v = t?.[key];
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Table) : {};
};

/**
 * The templates a parsed config.toml configures. content_path is relative to the project
 * folder (the one holding supabase/), as the Supabase CLI reads it.
 */
export function loadMailTemplates(config: Table, projectDir: string): MailTemplates {
  const configured = table(table(table(config, 'auth'), 'email'), 'template');
  const templates: MailTemplates = {};
  for (const [kind, name] of Object.entries(TEMPLATE_NAMES) as [TemplateKind, TemplateName][]) {
    const t = table(configured, name);
    if (Object.keys(t).length === 0) continue;
    const where = `[auth.email.template.${name}]`;
    if (typeof t.subject !== 'string' || typeof t.content_path !== 'string') {
      throw new Error(`${where} needs both subject and content_path`);
    }
    const file = path.resolve(projectDir, t.content_path);
    if (!existsSync(file)) throw new Error(`${where} content_path ${t.content_path} not found`);
    const html = readFileSync(file, 'utf8');
    templateVariables(t.subject, `${where} subject`);
    templateVariables(html, t.content_path);
    templates[kind] = { subject: t.subject, html };
  }
  return templates;
}
