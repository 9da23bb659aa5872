// Decisions 0020 and 0030: a 6-digit e-mail code cannot be brute-forced. Every one-time code has a
// per-account limit on wrong tries (stored in the database, counted atomically), and the per-IP
// limits key on the one hop the gateway adds, so rotating X-Forwarded-For values gain nothing.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfirmedUser } from '../../support/stack.ts';
import {
  PASSWORD,
  authSql,
  mailedCode,
  post,
  rotatingIp,
  startOwnServer,
  viaGateway,
  type OwnAuthServer,
} from './auth-own-server.ts';
import { uniqueEmail } from '../../support/names.ts';

const WRONG_TRIES_ALLOWED = 5;

let server: OwnAuthServer;
beforeAll(async () => {
  server = await startOwnServer();
});
afterAll(async () => {
  await server?.close();
});

/** A code that is not `right`. */
const wrongCode = (right: string, i: number) =>
  String((Number(right) + 1 + i) % 1_000_000).padStart(6, '0');

async function verify(email: string, token: string, type: string) {
  return post(
    server,
    '/verify',
    { email, token, type },
    { 'X-Forwarded-For': viaGateway(rotatingIp()) },
  );
}

describe('one-time codes survive guessing from any number of addresses', () => {
  const cases: Array<{
    name: string;
    type: string;
    subject: string;
    request: () => Promise<string>;
  }> = [
    {
      name: 'magic link code (POST /otp) of a confirmed account',
      type: 'magiclink',
      subject: 'Your Magic Link',
      request: async () => {
        const { email } = await createConfirmedUser({
          email: uniqueEmail('otp-guess'),
          password: PASSWORD,
        });
        expect((await post(server, '/otp', { email })).status).toBe(200);
        return email;
      },
    },
    {
      name: 'sign-up code of an unconfirmed account',
      type: 'signup',
      subject: 'Confirm Your Signup',
      request: async () => {
        const email = uniqueEmail('signup-guess');
        expect((await post(server, '/signup', { email, password: PASSWORD })).status).toBe(200);
        return email;
      },
    },
    {
      name: 'recovery code',
      type: 'recovery',
      subject: 'Reset Your Password',
      request: async () => {
        const { email } = await createConfirmedUser({
          email: uniqueEmail('recover-guess'),
          password: PASSWORD,
        });
        expect((await post(server, '/recover', { email })).status).toBe(200);
        return email;
      },
    },
  ];

  for (const c of cases) {
    it(`${c.name}: void after ${WRONG_TRIES_ALLOWED} wrong tries (sent in parallel), a new one works`, async () => {
      const email = await c.request();
      const code = await mailedCode(email, c.subject);
      const wrong = await Promise.all(
        Array.from({ length: WRONG_TRIES_ALLOWED }, (_, i) =>
          verify(email, wrongCode(code, i), c.type),
        ),
      );
      expect(wrong.map((r) => [r.status, r.body.code])).toEqual(
        wrong.map(() => [403, 'otp_expired']),
      );
      const right = await verify(email, code, c.type);
      expect([right.status, right.body.code]).toEqual([403, 'otp_expired']);
      expect(
        await authSql(
          `select 1 from auth.one_time_tokens t join auth.users u on u.id = t.user_id where lower(u.email) = $1`,
          [email],
        ),
      ).toHaveLength(0);

      // A new code resets the count (max_frequency is 1 s here).
      await sleep(1_100);
      const again =
        c.type === 'signup'
          ? await post(server, '/resend', { email, type: 'signup' })
          : await post(server, c.type === 'recovery' ? '/recover' : '/otp', { email });
      expect(again.status).toBe(200);
      let fresh = code;
      for (let i = 0; i < 50 && fresh === code; i++) {
        fresh = await mailedCode(email, c.subject);
        if (fresh === code) await sleep(100);
      }
      expect(fresh).not.toBe(code);
      expect((await verify(email, wrongCode(fresh, 0), c.type)).status).toBe(403);
      const ok = await verify(email, fresh, c.type);
      expect(ok.status).toBe(200);
      expect(typeof ok.body.access_token).toBe('string');
    });
  }
});

describe('the client address is the hop the gateway adds', () => {
  it('rotating X-Forwarded-For values share the peer limit of /verify', async () => {
    const limited = await startOwnServer({
      rateLimits: { signInSignUps: 5, tokenRefresh: 5, tokenVerifications: 5, emailSent: 100 },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        const r = await post(
          limited,
          '/verify',
          { email: 'nobody@example.test', token: '000000', type: 'email' },
          { 'X-Forwarded-For': viaGateway(rotatingIp(), '127.0.0.7') },
        );
        statuses.push(r.status);
      }
      expect(statuses.slice(0, 5)).toEqual([403, 403, 403, 403, 403]);
      expect(statuses.slice(5)).toEqual([429, 429, 429]);
    } finally {
      await limited.close();
    }
  });

  it('sessions and the audit log store the peer, not the made-up address', async () => {
    const { email, id } = await createConfirmedUser({
      email: uniqueEmail('ip-audit'),
      password: PASSWORD,
    });
    const r = await post(
      server,
      '/token?grant_type=password',
      { email, password: PASSWORD },
      { 'X-Forwarded-For': viaGateway('203.0.113.50', '127.0.0.9') },
    );
    expect(r.status).toBe(200);
    const sessions = await authSql<{ ip: string }>(
      'select host(ip) as ip from auth.sessions where user_id = $1',
      [id],
    );
    expect(sessions.map((s) => s.ip)).toEqual(['127.0.0.9']);
    const audit = await authSql<{ ip_address: string }>(
      `select ip_address from auth.audit_log_entries where payload ->> 'actor_id' = $1 and payload ->> 'action' = 'login'`,
      [id],
    );
    expect(audit.map((a) => a.ip_address)).toEqual(['127.0.0.9']);
  });
});
