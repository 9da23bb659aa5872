// The contact function under abuse, against the shared throwaway stack: a made-up
// X-Forwarded-For does not give a visitor a fresh rate limit (the address comes from the socket,
// through the gateway), and an overall cap per minute holds however many addresses send.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { stackEnv, sql } from '../support/stack.ts';
import { DEFAULT_GLOBAL_RATE_LIMIT_PER_MINUTE } from '../../supabase/functions/contact/config.ts';
import { mailsWithSubject, postContact, rowsByEmail, visitorMessage } from './contact-support.ts';
import { randomLoopbackIp } from '../support/loopback.ts';

const env = stackEnv();

/** Rows this file inserted directly (to use up a limit quickly); removed after each test. */
const fillerIds: string[] = [];

afterEach(async () => {
  if (fillerIds.length === 0) return;
  await sql('delete from public.contact_messages where id = any($1::uuid[])', [fillerIds], env);
  fillerIds.length = 0;
});

/**
 * Stores `count` delivered messages from `ip`, `ageSeconds` old. Two minutes old counts against
 * the per-address limit (10 minutes) but not against the overall cap (last minute).
 */
async function fill(count: number, opts: { ip: string | null; ageSeconds: number }) {
  const rows = await sql<{ id: string }>(
    `insert into public.contact_messages
       (name, email, message, ip, created_at, delivery_status, attempts, sent_at)
     select 'Filler', 'filler-' || g || '-' || md5(random()::text) || '@example.test', 'filler',
            $1::inet, now() - make_interval(secs => $2), 'sent', 1, now()
       from generate_series(1, $3::int) g
     returning id`,
    [opts.ip, opts.ageSeconds, count],
    env,
  );
  fillerIds.push(...rows.map((r) => r.id));
}

describe('client address', () => {
  it('records the socket address, not a made-up X-Forwarded-For or CF-Connecting-IP', async () => {
    const ip = randomLoopbackIp();
    const msg = visitorMessage();
    // The function reads CF-Connecting-IP (decision 0200), which the gateway sets from the
    // socket as hosted's edge does, whatever the client sent.
    const res = await postContact(env, msg, {
      ip,
      headers: {
        'x-forwarded-for': '192.0.2.77',
        'x-real-ip': '192.0.2.78',
        'cf-connecting-ip': '192.0.2.79',
      },
    });
    expect(res.status).toBe(200);
    const [row] = await rowsByEmail(env, msg.email);
    expect(row?.ip).toBe(ip);
  });

  it('rotating X-Forwarded-For values does not lift the per-address limit', async () => {
    const ip = randomLoopbackIp();
    // This address has used its 5 messages (older than a minute: the overall cap is not involved).
    await fill(5, { ip, ageSeconds: 120 });
    const sent = Array.from({ length: 10 }, (_, i) =>
      visitorMessage({ email: `rotating-${i}-${Date.now().toString(36)}@example.test` }),
    );
    const statuses: number[] = [];
    for (const [i, msg] of sent.entries()) {
      const res = await postContact(env, msg, {
        ip,
        headers: { 'x-forwarded-for': `192.0.2.${i + 1}`, 'cf-connecting-ip': `192.0.2.${i + 1}` },
      });
      statuses.push(res.status);
      await res.body?.cancel();
    }
    expect(statuses).toEqual(Array(10).fill(429));
    for (const msg of sent) expect(await rowsByEmail(env, msg.email)).toHaveLength(0);
    await sleep(300);
    for (const msg of sent)
      expect(await mailsWithSubject(env.MAILPIT_URL, `Contact form: ${msg.name}`)).toHaveLength(0);
  });
});

describe('overall cap per minute', () => {
  const cap = DEFAULT_GLOBAL_RATE_LIMIT_PER_MINUTE;

  /** Messages stored in the last minute (by earlier tests too). */
  async function lastMinute(): Promise<number> {
    const [row] = await sql<{ n: string }>(
      "select count(*) as n from public.contact_messages where created_at > now() - interval '1 minute'",
      [],
      env,
    );
    return Number(row!.n);
  }

  it('refuses messages from fresh addresses once the whole function took its cap this minute', async () => {
    await fill(Math.max(0, cap - (await lastMinute())), { ip: null, ageSeconds: 0 });
    const sent = Array.from({ length: 3 }, () => visitorMessage());
    for (const msg of sent) {
      const res = await postContact(env, msg, { ip: randomLoopbackIp() });
      expect(res.status).toBe(429);
      const body = (await res.json()) as { error: string; retryAfter: number };
      expect(body.error).toMatch(/too many messages/i);
      expect(body.retryAfter).toBeGreaterThan(0);
      expect(body.retryAfter).toBeLessThanOrEqual(60);
      expect(Number(res.headers.get('retry-after'))).toBe(body.retryAfter);
    }
    for (const msg of sent) expect(await rowsByEmail(env, msg.email)).toHaveLength(0);
  });

  it('holds under concurrent submissions from many addresses', async () => {
    // Room for exactly 3 more this minute; 8 visitors send at once.
    await fill(Math.max(0, cap - 3 - (await lastMinute())), { ip: null, ageSeconds: 0 });
    const sent = Array.from({ length: 8 }, () => visitorMessage());
    const answers = await Promise.all(
      sent.map((msg) => postContact(env, msg, { ip: randomLoopbackIp() })),
    );
    for (const res of answers) await res.body?.cancel();
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    let stored = 0;
    for (const msg of sent) stored += (await rowsByEmail(env, msg.email)).length;
    expect(stored).toBe(3);
    // The accepted ones are removed with the fillers, so later files start below the cap.
    const ids = await sql<{ id: string }>(
      'select id from public.contact_messages where email = any($1::text[])',
      [sent.map((m) => m.email)],
      env,
    );
    fillerIds.push(...ids.map((r) => r.id));
  });
});
