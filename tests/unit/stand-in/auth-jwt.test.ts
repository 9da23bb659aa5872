// HS256 signing/verification of the local auth service (stack/auth/jwt.ts).
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { JwtError, signJwt, verifyJwt } from '../../../stack/auth/jwt.ts';

const SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';
// The Supabase CLI's well-known anon key, signed with the default secret.
const CLI_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';

function detailOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof JwtError) return e.detail;
    throw e;
  }
  throw new Error('expected a JwtError');
}

describe('signJwt', () => {
  it('reproduces the CLI demo anon key byte for byte', () => {
    expect(signJwt({ iss: 'supabase-demo', role: 'anon', exp: 1983812996 }, SECRET)).toBe(
      CLI_ANON_KEY,
    );
  });

  it('emits an HS256 JWT header and the claims unchanged', () => {
    const token = signJwt({ sub: 'abc', aud: 'authenticated', n: 1 }, SECRET);
    const [head, body] = token.split('.');
    expect(JSON.parse(Buffer.from(head!, 'base64url').toString())).toEqual({
      alg: 'HS256',
      typ: 'JWT',
    });
    expect(JSON.parse(Buffer.from(body!, 'base64url').toString())).toEqual({
      sub: 'abc',
      aud: 'authenticated',
      n: 1,
    });
  });
});

describe('verifyJwt', () => {
  const now = 1_800_000_000;

  it('accepts a token signed with the secret and returns its claims', () => {
    const token = signJwt({ sub: 'u1', exp: now + 60, iat: now }, SECRET);
    expect(verifyJwt(token, SECRET, now)).toEqual({ sub: 'u1', exp: now + 60, iat: now });
  });

  it('accepts the CLI anon key', () => {
    expect(verifyJwt(CLI_ANON_KEY, SECRET, now).role).toBe('anon');
  });

  it('rejects an expired token with golang-jwt wording', () => {
    const token = signJwt({ sub: 'u1', exp: now - 1 }, SECRET);
    expect(detailOf(() => verifyJwt(token, SECRET, now))).toBe(
      'token has invalid claims: token is expired',
    );
    // exp equal to now is already expired.
    expect(detailOf(() => verifyJwt(signJwt({ exp: now }, SECRET), SECRET, now))).toContain(
      'token is expired',
    );
  });

  it('rejects a token signed with another secret', () => {
    const token = signJwt({ sub: 'u1', exp: now + 60 }, 'another-secret-another-secret-another');
    expect(detailOf(() => verifyJwt(token, SECRET, now))).toBe(
      'token signature is invalid: signature is invalid',
    );
  });

  it('rejects tampered claims', () => {
    const token = signJwt({ sub: 'u1', role: 'authenticated', exp: now + 60 }, SECRET);
    const [head, , sig] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ sub: 'u1', role: 'service_role', exp: now + 60 }),
    ).toString('base64url');
    expect(detailOf(() => verifyJwt(`${head}.${forged}.${sig}`, SECRET, now))).toBe(
      'token signature is invalid: signature is invalid',
    );
  });

  it('rejects malformed tokens', () => {
    expect(detailOf(() => verifyJwt('abc', SECRET, now))).toBe(
      'token is malformed: token contains an invalid number of segments',
    );
    expect(detailOf(() => verifyJwt('a.b.c', SECRET, now))).toMatch(/^token is malformed/);
  });

  it('rejects alg none and other algorithms even with a matching HMAC', () => {
    const head = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const body = Buffer.from(JSON.stringify({ sub: 'u1' })).toString('base64url');
    const sig = createHmac('sha256', SECRET).update(`${head}.${body}`).digest('base64url');
    expect(detailOf(() => verifyJwt(`${head}.${body}.${sig}`, SECRET, now))).toMatch(
      /signing method none is invalid/,
    );
    expect(detailOf(() => verifyJwt(`${head}.${body}.`, SECRET, now))).toMatch(
      /signing method none is invalid/,
    );
  });

  it('rejects tokens that are not valid yet', () => {
    expect(detailOf(() => verifyJwt(signJwt({ nbf: now + 100 }, SECRET), SECRET, now))).toBe(
      'token has invalid claims: token is not valid yet',
    );
  });
});
