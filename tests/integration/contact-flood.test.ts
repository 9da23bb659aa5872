// The contact form under a flood (docs/decisions/0203): a human check (Cloudflare Turnstile,
// verified by the function against a local stand-in of siteverify), per-source limits that count
// an IPv6 /64 as one source, and a daily cap on mails to the owner past which messages are
// stored and sent together in one digest by the retry.
//
// The function reads its settings when it starts, so this file runs its own throwaway stack with
// the human check on (CONTACT_TURNSTILE_SECRET, CONTACT_TURNSTILE_VERIFY_URL) and a small cap.
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findFreePortBase,
  startStack,
  type RunningStack,
  type StackEnv,
} from '../../stack/stack.ts';
import { startSiteverify, type Siteverify } from '../support/siteverify.ts';
import { waitForMail } from '../support/mail.ts';
import {
  client,
  contactUrl,
  mailsWithSubject,
  postContact,
  rowsByEmail,
  STORE_ADDRESS,
  visitorMessage,
  type VisitorMessage,
  subjectOf,
} from './contact-support.ts';
import { sql } from '../support/stack.ts';
import { randomLoopbackIp } from '../support/loopback.ts';

const DAILY_MAIL_CAP = 3;

let stack: RunningStack;
let env: StackEnv;
let root: string;
let siteverify: Siteverify;

beforeAll(async () => {
  siteverify = await startSiteverify();
  root = mkdtempSync(path.join(tmpdir(), 'mar-contact-flood-'));
  const lines: string[] = [];
  try {
    stack = await startStack({
      portBase: await findFreePortBase(),
      dataDir: path.join(root, 'data'),
      seed: false,
      log: (line) => lines.push(line),
      functionEnv: {
        CONTACT_TURNSTILE_SECRET: siteverify.secret,
        CONTACT_TURNSTILE_VERIFY_URL: siteverify.url,
        CONTACT_DAILY_MAIL_CAP: String(DAILY_MAIL_CAP),
      },
    });
  } catch (err) {
    throw new Error(
      `the contact flood stack did not start: ${(err as Error).message}\n${lines.join('\n')}`,
    );
  }
  env = stack.env;
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await siteverify?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Sends `msg` with a token the stand-in issued (a visitor who passed the check). */
async function sendChecked(msg: VisitorMessage, ip = randomLoopbackIp()): Promise<Response> {
  return postContact(env, { ...msg, turnstileToken: siteverify.issue() }, { ip });
}

describe('daily mail cap and digest', () => {
  it('past the cap, messages are stored but not mailed one by one; one digest carries them all', async () => {
    // Messages stored today (none: this is the file's first test on a fresh stack).
    const [today] = await sql<{ n: string }>(
      `select count(*) as n from public.contact_messages
        where created_at >= date_trunc('day', now(), 'UTC')`,
      [],
      env,
    );
    const room = Math.max(0, DAILY_MAIL_CAP - Number(today!.n));
    const single = Array.from({ length: room }, () => visitorMessage());
    const over = Array.from({ length: 4 }, () => visitorMessage());
    for (const msg of [...single, ...over]) expect((await sendChecked(msg)).status).toBe(200);

    for (const msg of single)
      await waitForMail(env.MAILPIT_URL, { to: STORE_ADDRESS, subject: subjectOf(msg) });
    // Every message is stored; the ones over the cap wait for the digest.
    for (const msg of over) {
      const rows = await rowsByEmail(env, msg.email);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ delivery_status: 'pending', digest: true });
    }
    await sleep(500);
    for (const msg of over)
      expect(await mailsWithSubject(env.MAILPIT_URL, subjectOf(msg))).toHaveLength(0);

    // The retry (npm run contact:retry; Supabase Cron on hosted) sends one digest.
    const retry = async () => {
      const res = await fetch(contactUrl(env, '/retry'), {
        method: 'POST',
        headers: {
          apikey: env.SERVICE_ROLE_KEY,
          authorization: `Bearer ${env.SERVICE_ROLE_KEY}`,
          'content-type': 'application/json',
        },
        body: '{}',
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { digest: { messages: number; sent: boolean } };
    };
    const first = await retry();
    expect(first.digest).toEqual({ messages: over.length, sent: true });
    const digest = await waitForMail(env.MAILPIT_URL, {
      to: STORE_ADDRESS,
      subject: `Contact form digest: ${over.length} message(s)`,
    });
    for (const msg of over) {
      expect(digest.text).toContain(msg.message);
      expect(digest.text).toContain(`Email: ${msg.email}`);
      expect((await rowsByEmail(env, msg.email))[0]).toMatchObject({ delivery_status: 'sent' });
    }
    // Nothing is left and nothing is sent twice.
    expect((await retry()).digest).toEqual({ messages: 0, sent: false });
    await sleep(300);
    for (const msg of over)
      expect(await mailsWithSubject(env.MAILPIT_URL, subjectOf(msg))).toHaveLength(0);
  });

  it('holds under concurrent submissions: exactly the room left is mailed one by one', async () => {
    // Today's single mails down to two short of the cap (this stack is the file's own).
    await sql(
      `delete from public.contact_messages
        where not digest and created_at >= date_trunc('day', now(), 'UTC')`,
      [],
      env,
    );
    const fillers = await sql<{ id: string }>(
      `insert into public.contact_messages (name, email, message, delivery_status, attempts, sent_at)
       select 'Filler', 'filler-' || g || '@example.test', 'filler', 'sent', 1, now()
         from generate_series(1, $1::int) g
       returning id`,
      [DAILY_MAIL_CAP - 2],
      env,
    );
    const sent = Array.from({ length: 6 }, () => visitorMessage());
    const answers = await Promise.all(sent.map((msg) => sendChecked(msg)));
    expect(answers.map((r) => r.status)).toEqual(Array(6).fill(200));
    const rows = await sql<{ id: string; digest: boolean }>(
      'select id, digest from public.contact_messages where email = any($1::text[])',
      [sent.map((m) => m.email)],
      env,
    );
    expect(rows).toHaveLength(6);
    expect(rows.filter((r) => !r.digest)).toHaveLength(2);
    // Out of the overall cap's minute again, so the tests below are not refused by it.
    await sql(
      'delete from public.contact_messages where id = any($1::uuid[])',
      [[...fillers, ...rows].map((r) => r.id)],
      env,
    );
  });
});

describe('human check (Turnstile)', () => {
  it('refuses a message without a token: a clear message, nothing stored, nothing mailed', async () => {
    const msg = visitorMessage();
    const res = await postContact(env, msg, { ip: randomLoopbackIp() });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { error: string; code: string };
    expect(body.code).toBe('human_check_failed');
    expect(body.error).toMatch(/not a robot/);
    expect(await rowsByEmail(env, msg.email)).toHaveLength(0);
    await sleep(300);
    expect(await mailsWithSubject(env.MAILPIT_URL, subjectOf(msg))).toHaveLength(0);
  });

  it('refuses a token the check did not issue, and a token used before', async () => {
    const made = visitorMessage();
    const res = await postContact(
      env,
      { ...made, turnstileToken: 'XXXX.DUMMY.TOKEN.made-up' },
      { ip: randomLoopbackIp() },
    );
    expect(res.status).toBe(403);
    expect(await rowsByEmail(env, made.email)).toHaveLength(0);

    const token = siteverify.issue();
    const first = visitorMessage();
    const ok = await postContact(
      env,
      { ...first, turnstileToken: token },
      { ip: randomLoopbackIp() },
    );
    expect(ok.status).toBe(200);
    const again = visitorMessage();
    const replay = await postContact(
      env,
      { ...again, turnstileToken: token },
      { ip: randomLoopbackIp() },
    );
    expect(replay.status).toBe(403);
    expect(await rowsByEmail(env, first.email)).toHaveLength(1);
    expect(await rowsByEmail(env, again.email)).toHaveLength(0);
  });

  it('accepts a valid token: siteverify got our secret, the token and the visitor address', async () => {
    const ip = randomLoopbackIp();
    const msg = visitorMessage();
    const token = siteverify.issue();
    const { data, error } = await client(env, env.ANON_KEY, ip).functions.invoke('contact', {
      body: { ...msg, turnstileToken: token },
    });
    expect(error).toBeNull();
    expect(data).toEqual({ ok: true });
    expect(siteverify.requests.at(-1)).toEqual({
      secret: siteverify.secret,
      response: token,
      remoteip: ip,
    });
    expect(await rowsByEmail(env, msg.email)).toHaveLength(1);
  });

  it('fails closed while siteverify is down: a clear message, nothing stored', async () => {
    for (const mode of ['down', 'internal-error'] as const) {
      siteverify.mode = mode;
      const msg = visitorMessage();
      try {
        const res = await sendChecked(msg);
        expect(res.status).toBe(503);
        const body = (await res.json()) as { error: string; code: string };
        expect(body.code).toBe('human_check_unavailable');
        expect(body.error).toMatch(/not available right now/);
        expect(res.headers.get('retry-after')).toBe('60');
      } finally {
        siteverify.mode = 'up';
      }
      expect(await rowsByEmail(env, msg.email)).toHaveLength(0);
    }
  });
});

describe('per-source limit: IPv4 address, IPv6 /64', () => {
  // The function passes the address the gateway saw; loopback tests cannot send from IPv6
  // networks, so this calls the database function the contact function calls, as it does.
  async function submit(ip: string) {
    const { data, error } = await client(env, env.SERVICE_ROLE_KEY).rpc('contact_submit', {
      p_name: 'Flood',
      p_email: visitorMessage().email,
      p_message: 'flood',
      p_ip: ip,
      p_max: 5,
      p_window_seconds: 600,
      p_claim: false,
    });
    expect(error).toBeNull();
    return (data as { status: string; scope?: string }).status === 'stored'
      ? 'stored'
      : `refused:${(data as { scope: string }).scope}`;
  }

  it('counts every address of one IPv6 /64 as one source; another /64 is its own', async () => {
    const net = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:7`;
    const answers: string[] = [];
    // Six different addresses of one /64, as a machine stepping through its addresses.
    for (let i = 1; i <= 6; i++) answers.push(await submit(`${net}:${i.toString(16)}::${i}`));
    expect(answers).toEqual(['stored', 'stored', 'stored', 'stored', 'stored', 'refused:ip']);
    expect(await submit(`${net}:ffff:ffff:ffff:ffff`)).toBe('refused:ip');
    expect(await submit(`${net.replace(/:7$/, ':8')}::1`)).toBe('stored');
  });

  it('counts IPv4 per address (an IPv4-mapped IPv6 address as its IPv4 address)', async () => {
    const a = `198.51.100.${1 + Math.floor(Math.random() * 200)}`;
    const neighbour = a.replace(/\d+$/, (d) => String(Number(d) + 1));
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) answers.push(await submit(i % 2 ? `::ffff:${a}` : a));
    expect(answers).toEqual(Array(5).fill('stored'));
    expect(await submit(a)).toBe('refused:ip');
    expect(await submit(`::ffff:${a}`)).toBe('refused:ip');
    expect(await submit(neighbour)).toBe('stored');
  });
});
