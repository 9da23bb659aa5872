// Request handling of the contact function.
//
//   POST /contact        {name, email, message, website?, turnstileToken?} from the Contact Us page
//   POST /contact/retry  {limit?}  re-sends undelivered messages and sends one digest of the
//                        messages stored past the daily mail cap; needs the service role key
//   OPTIONS              CORS preflight
//
// A message is stored before any e-mail is attempted and the visitor gets 200 once it is stored,
// whatever the mail provider does; the row records the outcome and the retry sends what failed.
import type { ContactConfig } from './config.ts';
import {
  BodyTooLargeError,
  clientIp,
  corsHeaders,
  hasServiceKey,
  isJsonContentType,
  isOriginAllowed,
  readBodyLimited,
} from './http.ts';
import type { Mailer } from './mail.ts';
import { composeDigest, composeMail, type StoredMessage } from './message.ts';
import { contactSchema } from './schema.ts';
import type { ContactStore } from './store.ts';
import { verifyHumanCheck } from './turnstile.ts';

export interface HandlerDeps {
  config: ContactConfig;
  store: ContactStore;
  /** null when no provider is configured: messages are stored as 'pending'. */
  mailer: Mailer | null;
}

export const RATE_LIMIT_MESSAGE =
  'Too many messages from this e-mail address or network. Please try again later.';
export const GLOBAL_RATE_LIMIT_MESSAGE =
  'The shop is receiving too many messages right now. Please try again in a minute.';
export const HUMAN_CHECK_MESSAGE =
  'Please complete the check that you are not a robot, then send your message again.';
export const HUMAN_CHECK_UNAVAILABLE_MESSAGE =
  'The check that you are not a robot is not available right now, so your message was not sent. ' +
  'Please try again in a few minutes.';
const RETRY_DEFAULT_LIMIT = 25;
const RETRY_MAX_LIMIT = 500;

type Route = 'submit' | 'retry';

/** The function's own routes; the runtime passes paths starting with the slug (`/contact`). */
function routeOf(pathname: string): Route | null {
  const m = /\/contact(\/retry)?\/?$/.exec(pathname);
  if (!m) return null;
  return m[1] ? 'retry' : 'submit';
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

function log(
  level: 'info' | 'warn' | 'error',
  event: string,
  fields: Record<string, unknown> = {},
): void {
  // One JSON line per event: readable in `supabase functions logs` and the local stack's log.
  const line = JSON.stringify({ fn: 'contact', level, event, ...fields });
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
}

export function createHandler({
  config,
  store,
  mailer,
}: HandlerDeps): (req: Request) => Promise<Response> {
  /** Sends one claimed message and records the outcome on its row (releasing the claim). */
  async function deliver(
    msg: StoredMessage,
  ): Promise<{ sent: true } | { sent: false; error: string }> {
    if (!mailer) throw new Error('deliver() without a mailer');
    let result: { sent: true } | { sent: false; error: string };
    try {
      await mailer.send(composeMail(msg, { from: config.from, to: config.to }));
      result = { sent: true };
      log('info', 'mail_sent', { id: msg.id, provider: mailer.kind });
    } catch (err) {
      result = { sent: false, error: errorText(err) };
      log('warn', 'mail_failed', { id: msg.id, provider: mailer.kind, error: result.error });
    }
    try {
      await store.recordDelivery(msg.id, result);
    } catch (err) {
      // The row stays 'sending'; the retry takes it over once the claim lease has expired.
      log('error', 'record_delivery_failed', { id: msg.id, error: errorText(err) });
    }
    return result;
  }

  /** One digest mail with the oldest waiting digest messages (at most digestMaxMessages). */
  async function sendDigest(): Promise<{ messages: number; sent: boolean; error?: string }> {
    if (!mailer) throw new Error('sendDigest() without a mailer');
    const msgs = await store.claimDigest(config.digestMaxMessages, config.claimLeaseSeconds);
    if (msgs.length === 0) return { messages: 0, sent: false };
    const ids = msgs.map((m) => m.id);
    let result: { sent: true } | { sent: false; error: string };
    try {
      await mailer.send(composeDigest(msgs, { from: config.from, to: config.to }));
      result = { sent: true };
      log('info', 'digest_sent', { messages: msgs.length, provider: mailer.kind });
    } catch (err) {
      result = { sent: false, error: errorText(err) };
      log('warn', 'digest_failed', { messages: msgs.length, error: result.error });
    }
    try {
      await store.recordDigest(ids, result);
    } catch (err) {
      log('error', 'record_digest_failed', { messages: msgs.length, error: errorText(err) });
    }
    return result.sent
      ? { messages: msgs.length, sent: true }
      : { messages: msgs.length, sent: false, error: result.error };
  }

  return async function handle(req: Request): Promise<Response> {
    const origin = req.headers.get('origin');
    const cors = corsHeaders(origin, config.allowedOrigins);
    const reply = (status: number, body: unknown, extra: Record<string, string> = {}) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { ...cors, 'Content-Type': 'application/json; charset=utf-8', ...extra },
      });

    if (!isOriginAllowed(origin, config.allowedOrigins)) {
      return reply(403, { error: 'This origin may not use the contact form.' });
    }
    if (req.method === 'OPTIONS') return new Response('ok', { status: 200, headers: cors });

    const route = routeOf(new URL(req.url).pathname);
    if (!route) return reply(404, { error: 'Not found' });
    if (req.method !== 'POST') {
      return reply(
        405,
        { error: 'Method not allowed: send a POST request.' },
        { Allow: 'POST, OPTIONS' },
      );
    }

    // Reads and parses a JSON body within the size limit, or answers the error.
    async function readJson(
      optional: boolean,
    ): Promise<{ value: unknown } | { response: Response }> {
      let text: string;
      try {
        text = await readBodyLimited(req, config.maxBodyBytes);
      } catch (err) {
        if (err instanceof BodyTooLargeError) {
          return {
            response: reply(413, { error: `Request body too large (limit ${err.limit} bytes).` }),
          };
        }
        return { response: reply(400, { error: 'Request body must be UTF-8 encoded JSON.' }) };
      }
      if (optional && text.trim() === '') return { value: {} };
      if (!isJsonContentType(req.headers.get('content-type'))) {
        return {
          response: reply(415, {
            error: 'Send the message as JSON (Content-Type: application/json).',
          }),
        };
      }
      try {
        return { value: JSON.parse(text) as unknown };
      } catch {
        return { response: reply(400, { error: 'Request body is not valid JSON.' }) };
      }
    }

    try {
      if (route === 'retry') {
        if (!hasServiceKey(req.headers, config.retrySecrets)) {
          return reply(401, { error: 'The retry needs the service role key.' });
        }
        if (!mailer) {
          return reply(503, {
            error: 'No mail provider is configured (set SMTP_HOST or RESEND_API_KEY).',
          });
        }
        const body = await readJson(true);
        if ('response' in body) return body.response;
        const rawLimit = (body.value as { limit?: unknown } | null)?.limit ?? RETRY_DEFAULT_LIMIT;
        if (
          !Number.isInteger(rawLimit) ||
          (rawLimit as number) < 1 ||
          (rawLimit as number) > RETRY_MAX_LIMIT
        ) {
          return reply(400, {
            error: `limit must be an integer between 1 and ${RETRY_MAX_LIMIT}.`,
          });
        }
        const claimed = await store.claimUndelivered(rawLimit as number, config.claimLeaseSeconds);
        const results: { id: string; status: 'sent' | 'failed'; error?: string }[] = [];
        // One at a time: a small store's backlog is short, and SMTP servers dislike bursts.
        for (const msg of claimed) {
          const r = await deliver(msg);
          results.push(
            r.sent
              ? { id: msg.id, status: 'sent' }
              : { id: msg.id, status: 'failed', error: r.error },
          );
        }
        const sent = results.filter((r) => r.status === 'sent').length;
        // The messages past the daily mail cap: one digest mail per run (docs/decisions/0203).
        const digest = await sendDigest();
        log('info', 'retry_done', {
          claimed: claimed.length,
          sent,
          failed: claimed.length - sent,
          digest: digest.messages,
        });
        return reply(200, {
          claimed: claimed.length,
          sent,
          failed: claimed.length - sent,
          results,
          digest,
        });
      }

      const body = await readJson(false);
      if ('response' in body) return body.response;
      const parsed = contactSchema.safeParse(body.value);
      if (!parsed.success) {
        const issues = parsed.error.issues;
        const fieldErrors: Record<string, string[]> = {};
        const formErrors: string[] = [];
        for (const issue of issues) {
          const key = issue.path[0];
          if (typeof key === 'string') (fieldErrors[key] ??= []).push(issue.message);
          else formErrors.push(issue.message);
        }
        return reply(400, { error: 'Please check the form.', fieldErrors, formErrors });
      }
      const input = parsed.data;

      if (input.website && input.website.trim() !== '') {
        // A bot filled the hidden field: look successful so it learns nothing, keep nothing.
        log('info', 'honeypot', {
          ip: clientIp(req.headers, config.trustedProxyHops, config.clientAddressHeader),
        });
        return reply(200, { ok: true });
      }

      const ip = clientIp(req.headers, config.trustedProxyHops, config.clientAddressHeader);
      // The human check comes after validation (a visitor who fixes a field keeps their token,
      // which is single-use) and before anything is stored. Fail closed: without a verdict from
      // Cloudflare nothing is stored (docs/decisions/0203).
      if (config.turnstile) {
        const check = await verifyHumanCheck(config.turnstile, input.turnstileToken, ip);
        if (!check.ok) {
          if (check.reason === 'rejected') {
            log('info', 'human_check_failed', { ip, detail: check.detail });
            return reply(403, { error: HUMAN_CHECK_MESSAGE, code: 'human_check_failed' });
          }
          log('error', 'human_check_unavailable', { detail: check.detail });
          return reply(
            503,
            { error: HUMAN_CHECK_UNAVAILABLE_MESSAGE, code: 'human_check_unavailable' },
            { 'Retry-After': '60' },
          );
        }
      }

      const stored = await store.submit({
        name: input.name,
        email: input.email,
        message: input.message,
        ip,
        claim: mailer !== null,
        rateLimit: config.rateLimit,
        globalPerMinute: config.globalPerMinute,
        dailyMailCap: config.dailyMailCap,
      });
      if (stored.status === 'rate_limited') {
        log('info', 'rate_limited', { scope: stored.scope, ip });
        return reply(
          429,
          {
            error: stored.scope === 'global' ? GLOBAL_RATE_LIMIT_MESSAGE : RATE_LIMIT_MESSAGE,
            retryAfter: stored.retry_after,
          },
          { 'Retry-After': String(stored.retry_after) },
        );
      }

      log('info', 'stored', { id: stored.id, digest: stored.digest });
      if (stored.digest) {
        // Past the day's mail cap: the next retry run sends it in a digest.
      } else if (mailer) {
        await deliver({
          id: stored.id,
          name: input.name,
          email: input.email,
          message: input.message,
          created_at: stored.created_at,
        });
      } else {
        log('warn', 'no_mail_provider', { id: stored.id });
      }
      // Stored is what counts for the visitor: a failed send is retried later.
      return reply(200, { ok: true });
    } catch (err) {
      log('error', 'unexpected', { error: errorText(err) });
      return reply(500, { error: 'Something went wrong. Please try again.' });
    }
  };
}
