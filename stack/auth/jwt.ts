// HS256 access tokens as Supabase Auth issues and checks them. node:crypto only.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type JwtClaims = Record<string, unknown>;

const b64url = (data: string | Buffer): string => Buffer.from(data).toString('base64url');

export function signJwt(claims: JwtClaims, secret: string): string {
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64url(JSON.stringify(claims));
  const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

/** Thrown by verifyJwt; `detail` mirrors the wording of golang-jwt that GoTrue puts in bad_jwt messages. */
export class JwtError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'JwtError';
  }
}

function decodeSegment(segment: string, what: string): unknown {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(segment))
    throw new JwtError(`token is malformed: could not base64 decode ${what}`);
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    throw new JwtError(`token is malformed: could not JSON decode ${what}`);
  }
}

/**
 * Verifies signature and time claims. GoTrue accepts HS256 tokens signed with the project secret
 * (anon / service_role keys and its own access tokens); expiry is checked without leeway.
 */
export function verifyJwt(
  token: string,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): JwtClaims {
  const parts = token.split('.');
  if (parts.length !== 3)
    throw new JwtError('token is malformed: token contains an invalid number of segments');
  const [head, body, sig] = parts as [string, string, string];
  const header = decodeSegment(head, 'header');
  if (!header || typeof header !== 'object')
    throw new JwtError('token is malformed: could not JSON decode header');
  const claims = decodeSegment(body, 'claim');
  if (!claims || typeof claims !== 'object' || Array.isArray(claims)) {
    throw new JwtError('token is malformed: could not JSON decode claim');
  }
  const alg = (header as { alg?: unknown }).alg;
  if (alg !== 'HS256')
    throw new JwtError(`token is unverifiable: signing method ${String(alg)} is invalid`);
  const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest();
  const given = /^[A-Za-z0-9_-]*$/.test(sig) ? Buffer.from(sig, 'base64url') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new JwtError('token signature is invalid: signature is invalid');
  }
  const c = claims as JwtClaims;
  if (c.exp !== undefined) {
    if (typeof c.exp !== 'number')
      throw new JwtError('token has invalid claims: invalid type for claim');
    if (nowSeconds >= c.exp) throw new JwtError('token has invalid claims: token is expired');
  }
  if (typeof c.nbf === 'number' && nowSeconds < c.nbf) {
    throw new JwtError('token has invalid claims: token is not valid yet');
  }
  if (typeof c.iat === 'number' && nowSeconds < c.iat - 30) {
    throw new JwtError('token has invalid claims: token used before issued');
  }
  return c;
}
