// Outgoing auth mail (confirmation, recovery, magic link, invite, e-mail change) over plain
// SMTP to the stack's mail catcher. A kind with a template in config.toml is rendered from it
// and sent as HTML alone, as GoTrue sends it (decision 0213); without one, the Supabase CLI's
// default subject and body.
import nodemailer, { type Transporter } from 'nodemailer';
import { type MailTemplates, renderTemplate, type TemplateVariable } from './mail-templates.ts';

export type MailKind = 'signup' | 'recovery' | 'magiclink' | 'invite' | 'email_change';

const SUBJECTS: Record<MailKind, string> = {
  signup: 'Confirm Your Signup',
  recovery: 'Reset Your Password',
  magiclink: 'Your Magic Link',
  invite: 'You have been invited',
  email_change: 'Confirm Email Change',
};

const HEADINGS: Record<MailKind, [string, string, string]> = {
  signup: ['Confirm your signup', 'Follow this link to confirm your user:', 'Confirm your mail'],
  recovery: [
    'Reset Password',
    'Follow this link to reset the password for your user:',
    'Reset Password',
  ],
  magiclink: ['Magic Link', 'Follow this link to login:', 'Log In'],
  invite: ['You have been invited', 'Follow this link to accept the invite:', 'Accept the invite'],
  email_change: [
    'Confirm Change of Email',
    'Follow this link to confirm the update of your email:',
    'Change Email',
  ],
};

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export interface MailContent {
  subject: string;
  html: string;
  /** Only in the CLI's default mails; GoTrue sends a template as HTML alone. */
  text?: string;
}

/** The values a mail's template may use (GoTrue's names). */
export type MailValues = Record<Extract<TemplateVariable, 'ConfirmationURL' | 'Token'>, string> &
  Partial<Record<TemplateVariable, string>>;

export function renderMail(
  kind: MailKind,
  values: MailValues,
  templates: MailTemplates = {},
): MailContent {
  const template = templates[kind];
  if (template) return renderTemplate(template, values);
  const { ConfirmationURL: confirmationUrl, Token: otp } = values;
  const [heading, intro, anchor] = HEADINGS[kind];
  const html =
    `<h2>${heading}</h2>\n\n<p>${intro}</p>\n<p><a href="${escapeHtml(confirmationUrl)}">${anchor}</a></p>\n` +
    `<p>Alternatively, enter the code: ${otp}</p>\n`;
  const text = `${heading}\n\n${intro}\n${confirmationUrl}\n\nAlternatively, enter the code: ${otp}\n`;
  return { subject: SUBJECTS[kind], html, text };
}

/**
 * GoTrue's {{ .ConfirmationURL }}: token and type are query-escaped, redirect_to only when it
 * contains characters that would break the query (&, =, #).
 */
export function confirmationUrl(
  authExternalUrl: string,
  tokenHash: string,
  type: string,
  redirectTo: string,
): string {
  const redirect = /[&=#]/.test(redirectTo) ? encodeURIComponent(redirectTo) : redirectTo;
  return `${authExternalUrl}/verify?token=${encodeURIComponent(tokenHash)}&type=${encodeURIComponent(type)}&redirect_to=${redirect}`;
}

export interface SmtpOptions {
  host: string;
  port: number;
  adminEmail: string;
  senderName: string;
}

export class Mailer {
  private readonly transport: Transporter;

  constructor(private readonly smtp: SmtpOptions) {
    // The local mail catcher speaks plain SMTP without auth.
    this.transport = nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: false,
      ignoreTLS: true,
      connectionTimeout: 5_000,
      greetingTimeout: 5_000,
      socketTimeout: 10_000,
    });
  }

  async send(to: string, content: MailContent): Promise<void> {
    await this.transport.sendMail({
      from: { name: this.smtp.senderName, address: this.smtp.adminEmail },
      to,
      subject: content.subject,
      html: content.html,
      ...(content.text === undefined ? {} : { text: content.text }),
    });
  }

  close(): void {
    this.transport.close();
  }
}
