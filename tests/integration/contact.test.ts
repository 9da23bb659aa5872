// The contact edge function against the shared throwaway stack (global-setup.ts): a valid
// message is stored and mailed to the store, bad input is refused with 400 and stores nothing,
// the honeypot, the rate limits, the retry route's guard, and who may read or change
// contact_messages. SMTP outages and the retry itself: contact-outage.test.ts.
import { setTimeout as sleep } from 'node:timers/promises';
import { FunctionsHttpError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForMail } from '../support/mail.ts';
import {
  stackEnv,
  createConfirmedUser,
  serviceClient,
  signedInClient,
  type TestUser,
  sql,
  createAdmin,
} from '../support/stack.ts';
import {
  client,
  contactUrl,
  countRows,
  header,
  mailsWithSubject,
  postContact,
  rowsByEmail,
  STORE_ADDRESS,
  visitorMessage,
} from './contact-support.ts';
import { deleteUsers } from './db-test-helpers.ts';
import { uniqueEmail } from '../support/names.ts';
import { randomLoopbackIp } from '../support/loopback.ts';

const env = stackEnv();

describe('a valid message', () => {
  it('is stored and e-mailed to the store with the visitor as reply-to (supabase-js functions.invoke)', async () => {
    const msg = visitorMessage({
      message: 'Do you deliver to Leeds?\nI need 3 rugby balls by Friday.',
    });
    const ip = randomLoopbackIp();
    const { data, error } = await client(env, env.ANON_KEY, ip).functions.invoke('contact', {
      body: msg,
    });
    expect(error).toBeNull();
    expect(data).toEqual({ ok: true });

    const rows = await rowsByEmail(env, msg.email);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({
      name: msg.name,
      email: msg.email,
      message: msg.message,
      ip,
      delivery_status: 'sent',
      attempts: 1,
      last_error: null,
      claimed_at: null,
    });
    expect(row.sent_at).toBeInstanceOf(Date);

    const subject = `Contact form: ${msg.name}`;
    const mail = await waitForMail(env.MAILPIT_URL, { to: STORE_ADDRESS, subject }, 10_000);
    expect(mail.to.map((a) => a.address)).toEqual([STORE_ADDRESS]);
    expect(header(mail, 'reply-to')).toContain(`<${msg.email}>`);
    expect(header(mail, 'reply-to')).toContain(msg.name);
    expect(mail.from[0]?.address).toBe('no-reply@mar-online-store.test');
    expect(mail.text).toContain(`Name: ${msg.name}`);
    expect(mail.text).toContain(`Email: ${msg.email}`);
    expect(mail.text).toContain('Do you deliver to Leeds?\nI need 3 rugby balls by Friday.');
    expect(mail.text).toContain(`Reference: ${row.id}`);
    expect(mail.html ?? '').toBe('');
    // Exactly one mail for one message.
    expect(await mailsWithSubject(env.MAILPIT_URL, subject)).toHaveLength(1);
  });

  it('is accepted through plain fetch; fields are trimmed and unknown keys ignored', async () => {
    const msg = visitorMessage({ message: '  Ünïcödé is fine: £25, ½ price — ⚽  ' });
    const res = await postContact(
      env,
      { ...msg, name: `  ${msg.name}  `, email: ` ${msg.email} `, extra: 'ignored' },
      { ip: randomLoopbackIp() },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ ok: true });

    const [row] = await rowsByEmail(env, msg.email);
    expect(row).toMatchObject({
      name: msg.name,
      email: msg.email,
      message: 'Ünïcödé is fine: £25, ½ price — ⚽',
    });
    const mail = await waitForMail(env.MAILPIT_URL, {
      to: STORE_ADDRESS,
      subject: `Contact form: ${msg.name}`,
    });
    expect(mail.text).toContain('Ünïcödé is fine: £25, ½ price — ⚽');
  });

  it('answers a CORS preflight and sends CORS headers with its answers', async () => {
    const res = await fetch(contactUrl(env), { method: 'OPTIONS' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = res.headers.get('access-control-allow-headers') ?? '';
    for (const h of ['authorization', 'apikey', 'content-type', 'x-client-info'])
      expect(allowed).toContain(h);

    const bad = await postContact(env, {}, { headers: { origin: 'http://127.0.0.1:5173' } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('bad input', () => {
  const long = (n: number) => 'x'.repeat(n);
  const valid = () => visitorMessage();
  const cases: { title: string; body: () => unknown; field?: string }[] = [
    { title: 'missing name', body: () => ({ ...valid(), name: undefined }), field: 'name' },
    { title: 'blank name', body: () => ({ ...valid(), name: '   ' }), field: 'name' },
    { title: 'name too long', body: () => ({ ...valid(), name: long(101) }), field: 'name' },
    {
      title: 'name with a line break (header injection)',
      body: () => ({ ...valid(), name: 'Eve\r\nBcc: x@example.test' }),
      field: 'name',
    },
    { title: 'name not a string', body: () => ({ ...valid(), name: 42 }), field: 'name' },
    { title: 'missing email', body: () => ({ ...valid(), email: undefined }), field: 'email' },
    { title: 'empty email', body: () => ({ ...valid(), email: '' }), field: 'email' },
    {
      title: 'malformed email',
      body: () => ({ ...valid(), email: 'not-an-address' }),
      field: 'email',
    },
    {
      title: 'email with two @',
      body: () => ({ ...valid(), email: 'a@b@example.test' }),
      field: 'email',
    },
    {
      title: 'email too long',
      body: () => ({ ...valid(), email: `${long(250)}@example.test` }),
      field: 'email',
    },
    {
      title: 'missing message',
      body: () => ({ ...valid(), message: undefined }),
      field: 'message',
    },
    { title: 'blank message', body: () => ({ ...valid(), message: ' \n\t ' }), field: 'message' },
    {
      title: 'message too long',
      body: () => ({ ...valid(), message: long(5001) }),
      field: 'message',
    },
    { title: 'a JSON array instead of an object', body: () => [valid()] },
    { title: 'JSON null', body: () => null },
  ];

  for (const c of cases) {
    it(`refuses ${c.title} with 400 and stores nothing`, async () => {
      const before = await countRows(env);
      const res = await postContact(env, c.body(), { ip: randomLoopbackIp() });
      expect(res.status).toBe(400);
      const body = (await res.json()) as {
        error: string;
        fieldErrors: Record<string, string[]>;
        formErrors: string[];
      };
      expect(body.error).toBeTruthy();
      if (c.field) expect(body.fieldErrors[c.field]?.length).toBeGreaterThan(0);
      else expect(body.formErrors.length).toBeGreaterThan(0);
      expect(await countRows(env)).toBe(before);
    });
  }

  it('reports every invalid field at once (supabase-js sees a FunctionsHttpError)', async () => {
    const before = await countRows(env);
    const { data, error } = await client(env, env.ANON_KEY, randomLoopbackIp()).functions.invoke(
      'contact',
      {
        body: { name: '', email: 'nope', message: '' },
      },
    );
    expect(data).toBeNull();
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const res = (error as FunctionsHttpError).context as Response;
    expect(res.status).toBe(400);
    const body = (await res.json()) as { fieldErrors: Record<string, string[]> };
    expect(Object.keys(body.fieldErrors).sort()).toEqual(['email', 'message', 'name']);
    expect(await countRows(env)).toBe(before);
  });

  it('refuses a body that is not JSON with 400', async () => {
    const before = await countRows(env);
    const res = await postContact(env, '{"name": "Ann", ', { raw: true });
    expect(res.status).toBe(400);
    expect(await countRows(env)).toBe(before);
  });

  it('refuses another media type with 415', async () => {
    const msg = visitorMessage();
    const form = new URLSearchParams({
      name: msg.name,
      email: msg.email,
      message: msg.message,
    }).toString();
    const res = await postContact(env, form, {
      raw: true,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(await rowsByEmail(env, msg.email)).toHaveLength(0);
  });

  it('refuses other methods with 405', async () => {
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      const res = await fetch(contactUrl(env), { method, headers: { apikey: env.ANON_KEY } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST, OPTIONS');
      await res.body?.cancel();
    }
  });

  it('answers 404 for unknown sub-paths', async () => {
    const res = await fetch(contactUrl(env, '/nope'), { method: 'POST' });
    expect(res.status).toBe(404);
    await res.body?.cancel();
  });

  it('refuses an oversized body with 413, whether or not Content-Length announces it', async () => {
    const before = await countRows(env);
    const big = { ...visitorMessage(), message: 'y'.repeat(70 * 1024) };

    const declared = await postContact(env, big, { ip: randomLoopbackIp() });
    expect(declared.status).toBe(413);

    // Streamed (chunked, no Content-Length): the function must count the bytes itself.
    const payload = new TextEncoder().encode(JSON.stringify(big));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < payload.length; i += 8192)
          controller.enqueue(payload.slice(i, i + 8192));
        controller.close();
      },
    });
    const chunked = await fetch(contactUrl(env), {
      method: 'POST',
      headers: { apikey: env.ANON_KEY, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await countRows(env)).toBe(before);
  });
});

describe('honeypot', () => {
  it('answers a filled honeypot like a success but stores and sends nothing', async () => {
    const msg = visitorMessage({ website: 'http://spam.example' });
    const res = await postContact(env, msg, { ip: randomLoopbackIp() });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(await rowsByEmail(env, msg.email)).toHaveLength(0);
    await sleep(500);
    expect(await mailsWithSubject(env.MAILPIT_URL, `Contact form: ${msg.name}`)).toHaveLength(0);
  });

  it('accepts an empty honeypot (what a person sends)', async () => {
    const msg = visitorMessage({ website: '' });
    const res = await postContact(env, msg, { ip: randomLoopbackIp() });
    expect(res.status).toBe(200);
    expect(await rowsByEmail(env, msg.email)).toHaveLength(1);
  });
});

describe('rate limit (5 messages per 10 minutes)', () => {
  it('answers 429 with a clear message for the 6th message from one e-mail address', async () => {
    const email = uniqueEmail('busy');
    for (let i = 0; i < 5; i++) {
      // Different IPs: only the address limit applies.
      const res = await postContact(env, visitorMessage({ email }), { ip: randomLoopbackIp() });
      expect(res.status, `message ${i + 1}`).toBe(200);
    }
    // Upper case is the same address.
    const res = await postContact(env, visitorMessage({ email: email.toUpperCase() }), {
      ip: randomLoopbackIp(),
    });
    expect(res.status).toBe(429);
    const body = (await res.json()) as { error: string; retryAfter: number };
    expect(body.error).toMatch(/too many messages/i);
    expect(body.retryAfter).toBeGreaterThan(0);
    expect(body.retryAfter).toBeLessThanOrEqual(600);
    expect(Number(res.headers.get('retry-after'))).toBe(body.retryAfter);
    expect(await rowsByEmail(env, email)).toHaveLength(5);
  });

  it('answers 429 for the 6th message from one IP address', async () => {
    const ip = randomLoopbackIp();
    for (let i = 0; i < 5; i++) {
      const res = await postContact(env, visitorMessage(), { ip });
      expect(res.status, `message ${i + 1}`).toBe(200);
    }
    const last = visitorMessage();
    const { data, error } = await client(env, env.ANON_KEY, ip).functions.invoke('contact', {
      body: last,
    });
    expect(data).toBeNull();
    const res = (error as FunctionsHttpError).context as Response;
    expect(res.status).toBe(429);
    expect(((await res.json()) as { error: string }).error).toMatch(/too many messages/i);
    expect(await rowsByEmail(env, last.email)).toHaveLength(0);
    const fromIp = await sql<{ n: string }>(
      'select count(*) as n from public.contact_messages where ip = $1',
      [ip],
      env,
    );
    expect(Number(fromIp[0]?.n)).toBe(5);
  });

  it('counts concurrent submissions correctly (no more than 5 get through)', async () => {
    const email = uniqueEmail('burst');
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        postContact(env, visitorMessage({ email }), { ip: randomLoopbackIp() }),
      ),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect(await rowsByEmail(env, email)).toHaveLength(5);
  });
});

describe('retry route', () => {
  it('refuses callers without the service role key', async () => {
    for (const headers of [
      {},
      { apikey: env.ANON_KEY, authorization: `Bearer ${env.ANON_KEY}` },
    ] as Record<string, string>[]) {
      const res = await fetch(contactUrl(env, '/retry'), { method: 'POST', headers });
      expect(res.status).toBe(401);
      await res.body?.cancel();
    }
  });

  it('runs for the service role (also with the opaque secret key)', async () => {
    for (const headers of [
      { apikey: env.SERVICE_ROLE_KEY, authorization: `Bearer ${env.SERVICE_ROLE_KEY}` },
      { apikey: env.SECRET_KEY },
    ] as Record<string, string>[]) {
      const res = await fetch(contactUrl(env, '/retry'), {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: '{"limit": 5}',
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        claimed: number;
        sent: number;
        failed: number;
        results: unknown[];
      };
      expect(body.claimed).toBe(body.sent + body.failed);
      expect(body.results).toHaveLength(body.claimed);
    }
  });
});

describe('who can read or change contact_messages', () => {
  const service = serviceClient();
  const users: TestUser[] = [];
  let rowId: string;
  let shopper: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    const msg = visitorMessage();
    const res = await postContact(env, msg, { ip: randomLoopbackIp() });
    expect(res.status).toBe(200);
    rowId = (await rowsByEmail(env, msg.email))[0]!.id;
    shopper = await createConfirmedUser();
    admin = await createAdmin();
    users.push(shopper, admin);
  });

  afterAll(async () => {
    await deleteUsers(service, users);
  });

  async function rowState() {
    const [row] = await sql<{ name: string; delivery_status: string; last_error: string | null }>(
      'select name, delivery_status, last_error from public.contact_messages where id = $1',
      [rowId],
      env,
    );
    return row;
  }

  for (const who of ['anon', 'signed-in non-admin'] as const) {
    it(`${who} can neither read nor write it, nor call its functions`, async () => {
      const c = who === 'anon' ? client(env) : await signedInClient(shopper);
      const before = await rowState();
      const totalBefore = await countRows(env);

      const read = await c.from('contact_messages').select('*').eq('id', rowId);
      expect(read.data ?? []).toEqual([]);
      const all = await c.from('contact_messages').select('id');
      expect(all.data ?? []).toEqual([]);

      const ins = await c
        .from('contact_messages')
        .insert({ name: 'Mallory', email: 'm@example.test', message: 'spam' });
      expect(ins.error).not.toBeNull();
      const upd = await c
        .from('contact_messages')
        .update({ delivery_status: 'sent', last_error: 'x' })
        .eq('id', rowId)
        .select();
      expect(upd.error !== null || (upd.data ?? []).length === 0).toBe(true);
      const del = await c.from('contact_messages').delete().eq('id', rowId).select();
      expect(del.error !== null || (del.data ?? []).length === 0).toBe(true);

      const submit = await c.rpc('contact_submit', {
        p_name: 'Mallory',
        p_email: 'm@example.test',
        p_message: 'bypassing the function',
        p_ip: null,
        p_max: 1000,
        p_window_seconds: 1,
        p_claim: false,
      });
      expect(submit.error).not.toBeNull();
      const claim = await c.rpc('contact_claim_undelivered', { p_limit: 100, p_lease_seconds: 60 });
      expect(claim.error).not.toBeNull();
      const record = await c.rpc('contact_record_delivery', {
        p_id: rowId,
        p_sent: false,
        p_error: 'x',
      });
      expect(record.error).not.toBeNull();

      expect(await rowState()).toEqual(before);
      expect(await countRows(env)).toBe(totalBefore);
    });
  }

  it('an admin reads messages (newest first) but cannot change them', async () => {
    const c = await signedInClient(admin);
    const { data, error } = await c
      .from('contact_messages')
      .select('id, created_at, delivery_status')
      .order('created_at', { ascending: false })
      .limit(1000);
    expect(error).toBeNull();
    expect(data?.some((r) => r.id === rowId)).toBe(true);
    const times = (data ?? []).map((r) => Date.parse(r.created_at as string));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const before = await rowState();
    const upd = await c
      .from('contact_messages')
      .update({ last_error: 'admin edit' })
      .eq('id', rowId)
      .select();
    expect(upd.error !== null || (upd.data ?? []).length === 0).toBe(true);
    const del = await c.from('contact_messages').delete().eq('id', rowId).select();
    expect(del.error !== null || (del.data ?? []).length === 0).toBe(true);
    expect(await rowState()).toEqual(before);
  });
});
