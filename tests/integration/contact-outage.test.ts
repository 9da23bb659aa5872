// Nothing a visitor sends is lost: with the SMTP server down the visitor still gets success and
// the row records the failure; `npm run contact:retry` delivers it once SMTP is back, exactly
// once, also when several retries run at the same time or a sender died mid-way.
//
// This file stops and restarts the mail catcher, so it runs its own throwaway stack instead of
// the shared one of global-setup.ts (whose handle the test files do not have).
import { setTimeout as sleep } from 'node:timers/promises';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../stack/config.ts';
import {
  findFreePortBase,
  startStack,
  type RunningStack,
  type StackEnv,
} from '../../stack/stack.ts';
import { waitForMail } from '../support/mail.ts';
import {
  client,
  contactUrl,
  mailsWithSubject,
  rowsByEmail,
  STORE_ADDRESS,
  visitorMessage,
  type ContactRow,
  type VisitorMessage,
  subjectOf,
} from './contact-support.ts';
import { sql } from '../support/stack.ts';
import { randomLoopbackIp } from '../support/loopback.ts';

const execFileAsync = promisify(execFile);

let stack: RunningStack;
let env: StackEnv;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'mar-contact-outage-'));
  const lines: string[] = [];
  try {
    stack = await startStack({
      portBase: await findFreePortBase(),
      dataDir: path.join(root, 'data'),
      seed: false,
      log: (line) => lines.push(line),
    });
  } catch (err) {
    throw new Error(
      `the contact outage stack did not start: ${(err as Error).message}\n${lines.join('\n')}`,
    );
  }
  env = stack.env;
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

async function send(msg: VisitorMessage): Promise<void> {
  const { data, error } = await client(env, env.ANON_KEY, randomLoopbackIp()).functions.invoke(
    'contact',
    {
      body: msg,
    },
  );
  expect(error).toBeNull();
  expect(data).toEqual({ ok: true });
}

async function row(msg: VisitorMessage): Promise<ContactRow> {
  const rows = await rowsByEmail(env, msg.email);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

interface RetryAnswer {
  claimed: number;
  sent: number;
  failed: number;
  results: { id: string; status: string; error?: string }[];
}

async function retryOnce(limit = 25): Promise<RetryAnswer> {
  const res = await fetch(contactUrl(env, '/retry'), {
    method: 'POST',
    headers: {
      apikey: env.SERVICE_ROLE_KEY,
      authorization: `Bearer ${env.SERVICE_ROLE_KEY}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ limit }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as RetryAnswer;
}

/** `npm run contact:retry` against this file's stack. */
async function runRetryScript(): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(
      path.join(REPO_ROOT, 'node_modules/.bin/tsx'),
      [path.join(REPO_ROOT, 'scripts/contact-retry.ts')],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          SUPABASE_URL: env.API_URL,
          SUPABASE_SERVICE_ROLE_KEY: env.SERVICE_ROLE_KEY,
        },
        timeout: 60_000,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('SMTP outage', () => {
  const during = [visitorMessage(), visitorMessage()];

  it('the visitor still gets success; the row records the failure', async () => {
    await stack.stopPart('mail');
    for (const msg of during) await send(msg);
    for (const msg of during) {
      const r = await row(msg);
      expect(r).toMatchObject({
        delivery_status: 'failed',
        attempts: 1,
        claimed_at: null,
        sent_at: null,
      });
      expect(r.last_error).toMatch(/ECONNREFUSED|connect/i);
    }
  });

  it('a retry while SMTP is still down keeps the messages for later', async () => {
    const answer = await retryOnce();
    expect(answer).toMatchObject({ claimed: 2, sent: 0, failed: 2 });
    for (const msg of during) {
      expect(await row(msg)).toMatchObject({
        delivery_status: 'failed',
        attempts: 2,
        claimed_at: null,
      });
    }
    // The script reports the failure with exit code 1 and sends nothing.
    const script = await runRetryScript();
    expect(script.code).toBe(1);
    expect(script.stderr).toContain('still failing');
  });

  it('once SMTP is back, npm run contact:retry delivers each message exactly once', async () => {
    await stack.restartPart('mail');
    const script = await runRetryScript();
    expect(script.stderr).toBe('');
    expect(script.code).toBe(0);
    expect(script.stdout).toContain('2 of 2 message(s) sent');

    for (const msg of during) {
      const mail = await waitForMail(env.MAILPIT_URL, {
        to: STORE_ADDRESS,
        subject: subjectOf(msg),
      });
      expect(mail.text).toContain(msg.message);
      expect(mail.headers['reply-to']).toContain(msg.email);
      const r = await row(msg);
      expect(r).toMatchObject({
        delivery_status: 'sent',
        attempts: 4,
        last_error: null,
        claimed_at: null,
      });
      expect(r.sent_at).toBeInstanceOf(Date);
    }

    // Nothing left: a second run sends nothing more.
    const again = await runRetryScript();
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing to send');
    await sleep(500);
    for (const msg of during)
      expect(await mailsWithSubject(env.MAILPIT_URL, subjectOf(msg))).toHaveLength(1);
  });

  it('messages sent while SMTP works are not sent again by a retry', async () => {
    const msg = visitorMessage();
    await send(msg);
    await waitForMail(env.MAILPIT_URL, { to: STORE_ADDRESS, subject: subjectOf(msg) });
    expect(await retryOnce()).toMatchObject({ claimed: 0, sent: 0 });
    await sleep(300);
    expect(await mailsWithSubject(env.MAILPIT_URL, subjectOf(msg))).toHaveLength(1);
  });
});

describe('exactly once under concurrency', () => {
  it('retries running at the same time send each message once', async () => {
    await stack.stopPart('mail');
    const msgs = [
      visitorMessage(),
      visitorMessage(),
      visitorMessage(),
      visitorMessage(),
      visitorMessage(),
    ];
    for (const msg of msgs) await send(msg);
    await stack.restartPart('mail');

    const answers = await Promise.all([retryOnce(), retryOnce(), retryOnce()]);
    expect(answers.reduce((n, a) => n + a.sent, 0)).toBe(msgs.length);
    const ids = answers.flatMap((a) => a.results.map((r) => r.id));
    expect(new Set(ids).size).toBe(ids.length);

    for (const msg of msgs)
      await waitForMail(env.MAILPIT_URL, { to: STORE_ADDRESS, subject: subjectOf(msg) });
    await sleep(500);
    for (const msg of msgs) {
      expect(await mailsWithSubject(env.MAILPIT_URL, subjectOf(msg))).toHaveLength(1);
      expect(await row(msg)).toMatchObject({ delivery_status: 'sent', attempts: 2 });
    }
  });

  it('a claim abandoned by a dead sender is taken over after the lease; a live claim is left alone', async () => {
    const stale = visitorMessage();
    const live = visitorMessage();
    // What a sender that died right after claiming leaves behind (lease: 15 minutes).
    await sql(
      `insert into public.contact_messages (name, email, message, delivery_status, attempts, claimed_at)
       values ($1, $2, $3, 'sending', 1, now() - interval '1 hour'),
              ($4, $5, $6, 'sending', 1, now())`,
      [stale.name, stale.email, stale.message, live.name, live.email, live.message],
      env,
    );
    const answer = await retryOnce();
    expect(answer).toMatchObject({ claimed: 1, sent: 1 });
    await waitForMail(env.MAILPIT_URL, { to: STORE_ADDRESS, subject: subjectOf(stale) });
    expect(await row(stale)).toMatchObject({ delivery_status: 'sent', attempts: 2 });
    expect(await row(live)).toMatchObject({ delivery_status: 'sending', attempts: 1 });
    expect(await mailsWithSubject(env.MAILPIT_URL, subjectOf(live))).toHaveLength(0);
  });
});
