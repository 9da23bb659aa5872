// The contact function under abuse, against the shared throwaway stack: a made-up
// X-Forwarded-For does not give a visitor a fresh rate limit (the address comes from the socket,
// through the gateway), and an overall cap per minute holds however many addresses send.
import { afterEach, describe, expect, it } from 'vitest';
import { stackEnv } from '../support/stack.ts';
import {
  mailsWithSubject,
  postContact,
  rowsByEmail,
  sleep,
  sql,
  uniqueIp,
  visitorMessage,
} from './contact-support.ts';

const env = stackEnv();

/** Rows this file inserted directly (to use up a limit quickly); removed after each test. */
const fillerIds: string[] = [];

afterEach(async () => {
  if (fillerIds.length === 0) return;
  await sql(env, 'delete from public.contact_messages where id = any($1::uuid[])', [fillerIds]);
  fillerIds.length = 0;
});

/**
 * Stores `count` delivered messages from `ip`, `ageSeconds` old. Two minutes old counts against
 * the per-address limit (10 minutes) but not against the overall cap (last minute).
 */
async function fill(count: number, opts: { ip: string | null; ageSeconds: number }) {
  const rows = await sql<{ id: string }>(
    env,
    `insert into public.contact_messages
       (name, email, message, ip, created_at, delivery_status, attempts, sent_at)
     select 'Filler', 'filler-' || g || '-' || md5(random()::text) || '@example.test', 'filler',
            $1::inet, now() - make_interval(secs => $2), 'sent', 1, now()
       from generate_series(1, $3::int) g
     returning id`,
    [opts.ip, opts.ageSeconds, count],
  );
  fillerIds.push(...rows.map((r) => r.id));
}

describe('client address', () => {
  it('records the socket address, not a made-up X-Forwarded-For', async () => {
    const ip = uniqueIp();
    const msg = visitorMessage();
    const res = await postContact(env, msg, {
      ip,
      headers: { 'x-forwarded-for': '192.0.2.77', 'x-real-ip': '192.0.2.78' },
    });
    expect(res.status).toBe(200);
    const [row] = await rowsByEmail(env, msg.email);
    expect(row?.ip).toBe(ip);
  });

  it('rotating X-Forwarded-For values does not lift the per-address limit', async () => {
    const ip = uniqueIp();
    // This address has used its 5 messages (older than a minute: the overall cap is not involved).
    await fill(5, { ip, ageSeconds: 120 });
    const sent = Array.from({ length: 10 }, (_, i) =>
      visitorMessage({ email: `rotating-${i}-${Date.now().toString(36)}@example.test` }),
    );
    const statuses: number[] = [];
    for (const [i, msg] of sent.entries()) {
      const res = await postContact(env, msg, {
        ip,
        headers: { 'x-forwarded-for': `192.0.2.${i + 1}` },
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
