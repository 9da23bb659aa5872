// GET /verify (a mailed link, answered with a redirect) and POST /verify (verifyOtp with a code
// or a token hash). Rate limit: token verifications.
import { AuthApiError, badRequest, forbidden, internalError, unprocessable } from './errors.ts';
import { type Ctx, formEncode, redirectFor, type Reply, str } from './http.ts';
import { issueAuthCode, type Verified, verifyEmailOtp, verifyTokenHash } from './one-time-codes.ts';
import type { AuthService } from './service.ts';
import { issueSession } from './sessions.ts';
import type { Json } from './users.ts';
import { isValidEmail } from './validation.ts';

const SINGLE_CONFIRMATION_ACCEPTED =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';
/** POST /verify's answer to the first of two e-mail change confirmations. */
const SINGLE_CONFIRMATION_BODY = { msg: SINGLE_CONFIRMATION_ACCEPTED, code: '200' };

/** OAuth-style error names of the redirect fragment, by HTTP status. */
const ERROR_BY_STATUS: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized_client',
  403: 'access_denied',
  500: 'server_error',
  503: 'temporarily_unavailable',
};

export async function verifyGet(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const type = ctx.url.searchParams.get('type') ?? '';
  const token = ctx.url.searchParams.get('token') ?? '';
  if (type === '') throw badRequest('validation_failed', 'Verify requires a verification type');
  if (token === '')
    throw badRequest('validation_failed', 'Verify requires a token or a token hash');
  const redirectTo = redirectFor(ctx, svc.redirectCfg);
  try {
    const outcome: { session?: Json; code?: string; pending?: Verified } = await svc.tx(
      async (c) => {
        const verified = await verifyTokenHash(svc, c, type, token);
        if (verified.pending) return { pending: verified };
        if (!verified.pkce)
          return { session: await issueSession(svc, c, verified.userId, 'otp', ctx) };
        return { code: await issueAuthCode(c, verified.userId, verified.authenticationMethod) };
      },
    );
    if (outcome.pending) {
      // GoTrue puts the message in the fragment, and for PKCE links in the query too.
      const message = formEncode({ message: SINGLE_CONFIRMATION_ACCEPTED });
      const query = outcome.pending.pkce ? (redirectTo.includes('?') ? '&' : '?') + message : '';
      const fragment = formEncode({ message: SINGLE_CONFIRMATION_ACCEPTED, sb: '' });
      return { status: 303, headers: { Location: `${redirectTo}${query}#${fragment}` } };
    }
    if (outcome.code !== undefined) {
      const sep = redirectTo.includes('?') ? '&' : '?';
      return {
        status: 303,
        headers: { Location: `${redirectTo}${sep}code=${encodeURIComponent(outcome.code)}` },
      };
    }
    const session = outcome.session!;
    const fragment = formEncode({
      access_token: String(session.access_token),
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: String(session.refresh_token),
      sb: '',
      token_type: 'bearer',
      type,
    });
    return { status: 303, headers: { Location: `${redirectTo}#${fragment}` } };
  } catch (e) {
    // Browsers follow these links, so failures are reported in the redirect, not as JSON.
    if (!(e instanceof AuthApiError)) {
      svc.log(`verify failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
    const err = e instanceof AuthApiError ? e : internalError('Internal Server Error');
    const fragment = formEncode({
      error: ERROR_BY_STATUS[err.status] ?? 'server_error',
      error_code: err.code,
      error_description: err.message,
      sb: '',
    });
    return { status: 303, headers: { Location: `${redirectTo}#${fragment}` } };
  }
}

export async function verifyPost(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const type = str(ctx.body, 'type');
  const token = str(ctx.body, 'token');
  const tokenHash = str(ctx.body, 'token_hash');
  const rawEmail = str(ctx.body, 'email');
  const phone = str(ctx.body, 'phone');
  if (type === '') throw badRequest('validation_failed', 'Verify requires a verification type');
  if ((token === '') === (tokenHash === '')) {
    throw badRequest('validation_failed', 'Verify requires either a token or a token hash');
  }
  if (tokenHash !== '') {
    if (rawEmail !== '' || phone !== '' || ctx.url.searchParams.get('redirect_to')) {
      throw badRequest('validation_failed', 'Only the token_hash and type should be provided');
    }
    const session = await svc.tx(async (c) => {
      const verified = await verifyTokenHash(svc, c, type, tokenHash);
      return verified.pending ? null : issueSession(svc, c, verified.userId, 'otp', ctx);
    });
    return { status: 200, body: session ?? SINGLE_CONFIRMATION_BODY };
  }
  if (phone !== '') throw forbidden('otp_expired', 'Token has expired or is invalid');
  if (rawEmail === '' || !isValidEmail(rawEmail.trim()))
    throw unprocessable('validation_failed', 'Invalid email format');
  const email = rawEmail.trim().toLowerCase();
  const session = await svc.tx(async (c) => {
    const verified = await verifyEmailOtp(svc, c, type, email, token);
    return verified.pending ? null : issueSession(svc, c, verified.userId, 'otp', ctx);
  });
  return { status: 200, body: session ?? SINGLE_CONFIRMATION_BODY };
}
