// Pure parts of the contact function's flood defences (docs/decisions/0203): the settings, how a
// siteverify answer becomes a verdict, and the digest mail. The whole path runs against the real
// stack in tests/integration/contact-flood.test.ts.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DAILY_MAIL_CAP,
  loadConfig,
  TURNSTILE_VERIFY_URL,
} from '../../supabase/functions/contact/config.ts';
import { composeDigest } from '../../supabase/functions/contact/message.ts';
import { verifyHumanCheck } from '../../supabase/functions/contact/turnstile.ts';

const base = { SUPABASE_URL: 'http://api.test', SUPABASE_SERVICE_ROLE_KEY: 'service-key' };
const lookup = (env: Record<string, string>) => (name: string) => env[name];
const cfg = { secret: 's3cret', verifyUrl: 'http://verify.test/siteverify', timeoutMs: 1000 };

/** A siteverify that answers `status` and `body`, recording what it was sent. */
function siteverify(status: number, body: unknown) {
  const sent: { url: string; form: URLSearchParams; type: string | null }[] = [];
  const fetchImpl = (async (url: string, init: RequestInit) => {
    sent.push({
      url,
      form: new URLSearchParams(init.body as string),
      type: new Headers(init.headers).get('content-type'),
    });
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
  }) as unknown as typeof fetch;
  return { sent, fetchImpl };
}

describe('settings', () => {
  it('has the check off without a secret, a daily cap of 200 and 500 messages a digest', () => {
    const c = loadConfig(lookup(base));
    expect(c.turnstile).toBeNull();
    expect(c.dailyMailCap).toBe(DEFAULT_DAILY_MAIL_CAP);
    expect(DEFAULT_DAILY_MAIL_CAP).toBe(200);
    expect(c.digestMaxMessages).toBe(500);
  });

  it('turns the check on with a secret (Cloudflare by default, or the given URL)', () => {
    expect(loadConfig(lookup({ ...base, CONTACT_TURNSTILE_SECRET: 'x' })).turnstile).toEqual({
      secret: 'x',
      verifyUrl: TURNSTILE_VERIFY_URL,
      timeoutMs: 5000,
    });
    expect(
      loadConfig(
        lookup({
          ...base,
          CONTACT_TURNSTILE_SECRET: 'x',
          CONTACT_TURNSTILE_VERIFY_URL: 'http://127.0.0.1:9/v',
        }),
      ).turnstile?.verifyUrl,
    ).toBe('http://127.0.0.1:9/v');
    expect(() =>
      loadConfig(
        lookup({ ...base, CONTACT_TURNSTILE_SECRET: 'x', CONTACT_TURNSTILE_VERIFY_URL: 'ftp://x' }),
      ),
    ).toThrow(/CONTACT_TURNSTILE_VERIFY_URL/);
    expect(() => loadConfig(lookup({ ...base, CONTACT_DAILY_MAIL_CAP: '-1' }))).toThrow(
      /CONTACT_DAILY_MAIL_CAP/,
    );
  });
});

describe('verifyHumanCheck', () => {
  it('posts the secret, the token and the visitor address form-encoded', async () => {
    const sv = siteverify(200, { success: true, 'error-codes': [] });
    expect(await verifyHumanCheck(cfg, 'tok', '203.0.113.9', sv.fetchImpl)).toEqual({ ok: true });
    expect(sv.sent[0]!.url).toBe(cfg.verifyUrl);
    expect(sv.sent[0]!.type).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(sv.sent[0]!.form)).toEqual({
      secret: 's3cret',
      response: 'tok',
      remoteip: '203.0.113.9',
    });
  });

  it('refuses a missing or oversized token without asking Cloudflare', async () => {
    const sv = siteverify(200, { success: true });
    for (const token of [undefined, '', '  ', 'x'.repeat(2049)])
      expect(await verifyHumanCheck(cfg, token, null, sv.fetchImpl)).toMatchObject({
        ok: false,
        reason: 'rejected',
      });
    expect(sv.sent).toHaveLength(0);
  });

  it.each([
    [['invalid-input-response'], 'rejected'],
    [['timeout-or-duplicate'], 'rejected'],
    [[], 'rejected'],
    [['invalid-input-secret'], 'unavailable'],
    [['internal-error'], 'unavailable'],
  ])('error codes %j: %s', async (codes, reason) => {
    const sv = siteverify(200, { success: false, 'error-codes': codes });
    expect(await verifyHumanCheck(cfg, 'tok', null, sv.fetchImpl)).toMatchObject({ reason });
  });

  it('fails closed when siteverify cannot answer', async () => {
    for (const sv of [siteverify(502, 'bad gateway'), siteverify(200, 'not json')])
      expect(await verifyHumanCheck(cfg, 'tok', null, sv.fetchImpl)).toMatchObject({
        reason: 'unavailable',
      });
    const down = (async () => {
      throw new TypeError('fetch failed');
    }) as unknown as typeof fetch;
    expect(await verifyHumanCheck(cfg, 'tok', null, down)).toMatchObject({
      reason: 'unavailable',
    });
  });
});

describe('composeDigest', () => {
  it('carries every message in full, oldest first, with a key stable for the same set', () => {
    const msgs = [1, 2, 3].map((i) => ({
      id: `id-${i}`,
      name: `Visitor ${i}`,
      email: `v${i}@example.test`,
      message: `Message ${i}\nsecond line`,
      created_at: `2026-01-0${i}T10:00:00Z`,
    }));
    const mail = composeDigest(msgs, { from: 'Shop <no-reply@shop.test>', to: 'owner@shop.test' });
    expect(mail.subject).toBe('Contact form digest: 3 message(s)');
    expect(mail.replyTo).toBeUndefined();
    for (const m of msgs) {
      expect(mail.text).toContain(`Email: ${m.email}`);
      expect(mail.text).toContain(m.message);
    }
    expect(mail.text.indexOf('Message 1')).toBeLessThan(mail.text.indexOf('Message 3'));
    expect(mail.idempotencyKey).toBe(
      composeDigest(msgs, { from: 'x@shop.test', to: 'y' }).idempotencyKey,
    );
  });
});
