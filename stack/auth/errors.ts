// GoTrue error responses: the 2024-01-01 body shape when the client asks for it (supabase-js
// always does), the legacy shape otherwise. Status, code and message strings follow the
// contract's catalogue so that auth-js maps them to the same AuthError classes.

export interface WeakPasswordPayload {
  reasons: string[];
}

export class AuthApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly weakPassword?: WeakPasswordPayload,
  ) {
    super(message);
    this.name = 'AuthApiError';
  }
}

export const badRequest = (code: string, message: string) => new AuthApiError(400, code, message);
export const unprocessable = (code: string, message: string) =>
  new AuthApiError(422, code, message);
export const forbidden = (code: string, message: string) => new AuthApiError(403, code, message);
export const notFound = (code: string, message: string) => new AuthApiError(404, code, message);
export const tooManyRequests = (code: string, message: string) =>
  new AuthApiError(429, code, message);
export const internalError = (message: string) =>
  new AuthApiError(500, 'unexpected_failure', message);

export const API_VERSION_2024 = '2024-01-01';
const API_VERSION_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The API version the request asked for, if it is a valid date on or after 2024-01-01. */
export function resolveApiVersion(header: string | undefined): string | null {
  if (!header) return null;
  const m = API_VERSION_RE.exec(header.trim());
  if (!m) return null;
  const date = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (Number.isNaN(date) || date < Date.UTC(2024, 0, 1)) return null;
  // Only one dated version exists; any later date resolves to it.
  return API_VERSION_2024;
}

export interface FormattedError {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export function formatError(
  err: AuthApiError,
  apiVersion: string | null,
  errorId?: string,
): FormattedError {
  const headers: Record<string, string> = {};
  let body: Record<string, unknown>;
  if (apiVersion) {
    headers['X-Supabase-Api-Version'] = apiVersion;
    body = { code: err.code, message: err.message };
    // GoTrue leaves the header off for weak_password in the 2024 shape.
    if (err.code !== 'weak_password') headers['x-sb-error-code'] = err.code;
  } else {
    headers['x-sb-error-code'] = err.code;
    body = { code: err.status, error_code: err.code, msg: err.message };
    if (err.status >= 500 && errorId) body.error_id = errorId;
  }
  if (err.weakPassword) body.weak_password = { reasons: err.weakPassword.reasons };
  return { status: err.status, headers, body };
}
