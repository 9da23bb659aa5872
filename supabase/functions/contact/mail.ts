// Mail transports: SMTP (nodemailer; the local stack's mail catcher or any SMTP relay) or the
// Resend HTTP API (fetch). Which one is used is decided by configuration (config.ts).
import nodemailer from 'npm:nodemailer@10.6.0';
import type { MailTransportConfig } from './config.ts';
import type { OutgoingMail } from './message.ts';

export interface Mailer {
  readonly kind: 'smtp' | 'resend';
  /** Resolves once the provider accepted the mail; rejects with a readable error otherwise. */
  send(mail: OutgoingMail): Promise<void>;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function smtpMailer(
  cfg: Extract<MailTransportConfig, { kind: 'smtp' }>,
  timeoutMs: number,
): Mailer {
  const transport = nodemailer.createTransport({
    host: cfg.host,
    port: cfg.port,
    secure: cfg.secure,
    auth: cfg.user ? { user: cfg.user, pass: cfg.pass ?? '' } : undefined,
    // Fail fast when the server is down instead of holding the visitor's request.
    connectionTimeout: Math.min(timeoutMs, 10_000),
    greetingTimeout: Math.min(timeoutMs, 10_000),
    socketTimeout: timeoutMs,
  });
  return {
    kind: 'smtp',
    async send(mail) {
      await withTimeout(
        transport.sendMail({
          from: mail.from,
          to: mail.to,
          replyTo: mail.replyTo,
          subject: mail.subject,
          text: mail.text,
          messageId: mail.messageId,
        }),
        timeoutMs,
        'SMTP send',
      );
    },
  };
}

function resendMailer(
  cfg: Extract<MailTransportConfig, { kind: 'resend' }>,
  timeoutMs: number,
): Mailer {
  return {
    kind: 'resend',
    async send(mail) {
      const res = await fetch(`${cfg.apiUrl}/emails`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${cfg.apiKey}`,
          'Content-Type': 'application/json',
          // Resend sends a given key at most once per 24 h: a retry after an unclear outcome
          // (timeout, crash before the result was recorded) cannot produce a second mail.
          'Idempotency-Key': mail.idempotencyKey,
        },
        body: JSON.stringify({
          from: mail.from,
          to: [mail.to],
          reply_to: mail.replyTo?.address,
          subject: mail.subject,
          text: mail.text,
        }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) {
        const detail = (await res.text().catch(() => '')).slice(0, 500);
        throw new Error(`Resend answered HTTP ${res.status}${detail ? `: ${detail}` : ''}`);
      }
      await res.body?.cancel().catch(() => undefined);
    },
  };
}

/** The configured mailer, or null when no provider is configured (messages stay 'pending'). */
export function createMailer(cfg: MailTransportConfig, timeoutMs: number): Mailer | null {
  switch (cfg.kind) {
    case 'smtp':
      return smtpMailer(cfg, timeoutMs);
    case 'resend':
      return resendMailer(cfg, timeoutMs);
    case 'none':
      return null;
  }
}
