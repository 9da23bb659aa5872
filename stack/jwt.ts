// Minimal HS256 JWT signing/verification (the only algorithm the local stack issues).
import { createHmac, timingSafeEqual } from 'node:crypto';

const b64url = (buf: Buffer | string) => Buffer.from(buf).toString('base64url');

export function signHs256(payload: Record<string, unknown>, secret: string): string {
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64url(JSON.stringify(payload));
  const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

/** Returns the payload when the signature is valid and the token is not expired, else null. */
export function verifyHs256(
  token: string,
  secret: string,
  nowSeconds = Date.now() / 1000,
): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [head, body, sig] = parts as [string, string, string];
  try {
    const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: string };
    if (header.alg !== 'HS256') return null;
    const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest();
    const given = Buffer.from(sig, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    if (typeof payload.exp === 'number' && payload.exp < nowSeconds) return null;
    return payload;
  } catch {
    return null;
  }
}
