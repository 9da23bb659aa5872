// The human check: a Cloudflare Turnstile token from the Contact Us page, verified with
// Cloudflare's siteverify endpoint (docs/decisions/0203). Turnstile sets no tracking cookies and
// asks most people for nothing; the token is single-use and valid for 300 seconds.
// No imports and no Deno APIs: unit tests run it in Node with their own fetch.
import type { TurnstileConfig } from './config.ts';

/** Longest token Cloudflare issues; anything longer is refused without asking Cloudflare. */
export const TURNSTILE_TOKEN_MAX = 2048;

export type HumanCheck =
  | { ok: true }
  /** The visitor did not pass: no token, a wrong, expired or already used one. */
  | { ok: false; reason: 'rejected'; detail: string }
  /** Cloudflare could not be asked or refused our secret: fail closed, nothing is stored. */
  | { ok: false; reason: 'unavailable'; detail: string };

/** siteverify error codes that mean the visitor's token is bad (everything else is ours/theirs). */
const VISITOR_ERRORS = new Set([
  'missing-input-response',
  'invalid-input-response',
  'timeout-or-duplicate',
]);

/**
 * Asks siteverify whether `token` is a fresh, valid token for our secret. Form-encoded `secret`,
 * `response` and (when known) `remoteip`; the answer is JSON `{success, "error-codes": [...]}`.
 */
export async function verifyHumanCheck(
  cfg: TurnstileConfig,
  token: unknown,
  remoteIp: string | null,
  fetchImpl: typeof fetch = fetch,
): Promise<HumanCheck> {
  if (typeof token !== 'string' || token.trim() === '') {
    return { ok: false, reason: 'rejected', detail: 'missing-input-response' };
  }
  if (token.length > TURNSTILE_TOKEN_MAX) {
    return { ok: false, reason: 'rejected', detail: 'invalid-input-response' };
  }
  const form = new URLSearchParams({ secret: cfg.secret, response: token });
  if (remoteIp) form.set('remoteip', remoteIp);

  let answer: unknown;
  try {
    const res = await fetchImpl(cfg.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      signal: AbortSignal.timeout(cfg.timeoutMs),
    });
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      return { ok: false, reason: 'unavailable', detail: `siteverify answered HTTP ${res.status}` };
    }
    answer = await res.json();
  } catch (err) {
    return {
      ok: false,
      reason: 'unavailable',
      detail: `siteverify unreachable: ${err instanceof Error ? err.message : String(err)}`,
    };
  }

  const result = answer as { success?: unknown; 'error-codes'?: unknown } | null;
  if (!result || typeof result.success !== 'boolean') {
    return { ok: false, reason: 'unavailable', detail: 'siteverify answered no verdict' };
  }
  if (result.success) return { ok: true };
  const codes = Array.isArray(result['error-codes'])
    ? result['error-codes'].filter((c): c is string => typeof c === 'string')
    : [];
  const detail = codes.join(',') || 'no error code';
  // A bad secret or Cloudflare's own failure is not the visitor's fault: say "not available".
  if (codes.length > 0 && codes.every((c) => VISITOR_ERRORS.has(c))) {
    return { ok: false, reason: 'rejected', detail };
  }
  if (codes.length === 0) return { ok: false, reason: 'rejected', detail };
  return { ok: false, reason: 'unavailable', detail };
}
