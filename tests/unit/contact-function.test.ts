// Pure parts of the contact edge function (supabase/functions/contact): CORS, the byte-limited
// body reader, client IP, key checks, configuration and the composed e-mail. These modules use
// no Deno APIs or npm: imports, so they run here unchanged.
import { describe, expect, it } from 'vitest';
import { DEFAULT_FROM, DEFAULT_TO, loadConfig } from '../../supabase/functions/contact/config.ts';
import {
  BodyTooLargeError,
  bearerToken,
  clientIp,
  corsHeaders,
  hasServiceKey,
  isJsonContentType,
  isOriginAllowed,
  normaliseIp,
  parseOrigins,
  readBodyLimited,
  safeEqual,
} from '../../supabase/functions/contact/http.ts';
import { composeMail } from '../../supabase/functions/contact/message.ts';

const base = { SUPABASE_URL: 'http://127.0.0.1:54321', SUPABASE_SERVICE_ROLE_KEY: 'service-key' };
const lookup = (vars: Record<string, string>) => (name: string) => vars[name];

describe('CORS', () => {
  it('allows any origin when nothing is configured', () => {
    const allowed = loadConfig(lookup(base)).allowedOrigins;
    expect(allowed).toEqual(['*']);
    expect(isOriginAllowed('http://localhost:5173', allowed)).toBe(true);
    expect(corsHeaders('http://localhost:5173', allowed)['Access-Control-Allow-Origin']).toBe('*');
  });

  it('echoes only configured origins (CONTACT_ALLOWED_ORIGINS, then SITE_URL)', () => {
    const allowed = loadConfig(
      lookup({
        ...base,
        CONTACT_ALLOWED_ORIGINS: 'https://shop.example, https://www.shop.example/',
        SITE_URL: 'https://ignored.example',
      }),
    ).allowedOrigins;
    expect(allowed).toEqual(['https://shop.example', 'https://www.shop.example']);
    expect(isOriginAllowed('https://shop.example', allowed)).toBe(true);
    expect(isOriginAllowed('https://evil.example', allowed)).toBe(false);
    // No Origin header: not a browser page, CORS does not apply.
    expect(isOriginAllowed(null, allowed)).toBe(true);
    const ok = corsHeaders('https://shop.example', allowed);
    expect(ok['Access-Control-Allow-Origin']).toBe('https://shop.example');
    expect(ok.Vary).toBe('Origin');
    expect(
      corsHeaders('https://evil.example', allowed)['Access-Control-Allow-Origin'],
    ).toBeUndefined();

    const fromSite = loadConfig(
      lookup({ ...base, SITE_URL: 'https://shop.example/some/path' }),
    ).allowedOrigins;
    expect(fromSite).toEqual(['https://shop.example']);
  });

  it('allows the headers supabase-js sends', () => {
    const h = corsHeaders(null, ['*'])['Access-Control-Allow-Headers']!;
    for (const name of ['authorization', 'x-client-info', 'apikey', 'content-type'])
      expect(h).toContain(name);
  });

  it('rejects a malformed origin list at start-up', () => {
    expect(() => parseOrigins('not a url')).toThrow(/Invalid origin/);
    expect(parseOrigins(' , ')).toBeNull();
  });
});

describe('readBodyLimited', () => {
  const streamOf = (...chunks: string[]) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
        c.close();
      },
    });

  it('reads a body within the limit (UTF-8, across chunks)', async () => {
    const req = new Request('http://x/', {
      method: 'POST',
      body: streamOf('{"a":"£', '1"}'),
      duplex: 'half',
    } as RequestInit);
    await expect(readBodyLimited(req, 100)).resolves.toBe('{"a":"£1"}');
  });

  it('stops at the limit even without Content-Length', async () => {
    const req = new Request('http://x/', {
      method: 'POST',
      body: streamOf('a'.repeat(60), 'b'.repeat(60)),
      duplex: 'half',
    } as RequestInit);
    expect(req.headers.get('content-length')).toBeNull();
    await expect(readBodyLimited(req, 100)).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it('refuses early when Content-Length announces too much', async () => {
    const req = new Request('http://x/', {
      method: 'POST',
      body: 'x',
      headers: { 'content-length': '5000' },
    });
    await expect(readBodyLimited(req, 100)).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it('does not trust a Content-Length that understates the body', async () => {
    const body = 'z'.repeat(500);
    const req = new Request('http://x/', {
      method: 'POST',
      body: streamOf(body),
      duplex: 'half',
      headers: { 'content-length': '10' },
    } as RequestInit);
    await expect(readBodyLimited(req, 100)).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it('rejects bytes that are not UTF-8', async () => {
    const req = new Request('http://x/', {
      method: 'POST',
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    await expect(readBodyLimited(req, 100)).rejects.toThrow(TypeError);
  });

  it('returns an empty string for no body', async () => {
    await expect(readBodyLimited(new Request('http://x/', { method: 'POST' }), 100)).resolves.toBe(
      '',
    );
  });
});

describe('overall cap setting', () => {
  it('defaults to 30 messages a minute and can be changed', () => {
    expect(loadConfig(lookup(base)).globalPerMinute).toBe(30);
    expect(
      loadConfig(lookup({ ...base, CONTACT_GLOBAL_RATE_LIMIT_PER_MINUTE: '5' })).globalPerMinute,
    ).toBe(5);
    expect(() =>
      loadConfig(lookup({ ...base, CONTACT_GLOBAL_RATE_LIMIT_PER_MINUTE: '0' })),
    ).toThrow(/CONTACT_GLOBAL_RATE_LIMIT_PER_MINUTE/);
  });
});

describe('client IP', () => {
  const h = (xff: string) => new Headers({ 'x-forwarded-for': xff });

  it("reads the platform edge's CF-Connecting-IP by default, never X-Forwarded-For (decision 0200)", () => {
    // Hosted: a client's own X-Forwarded-For stays on the left, proxies append on the right;
    // Cloudflare's CF-Connecting-IP is the connecting address, overwritten whatever was sent.
    const hosted = new Headers({
      'x-forwarded-for': '192.0.2.1, 203.0.113.9, 10.1.2.3',
      'cf-connecting-ip': '203.0.113.9',
    });
    expect(clientIp(hosted, 0)).toBe('203.0.113.9');
    // Without the platform's header the address is unknown, not the made-up one.
    expect(clientIp(h('192.0.2.1, 203.0.113.9'), 0)).toBeNull();
    expect(loadConfig(lookup(base)).clientAddressHeader).toBe('cf-connecting-ip');
  });

  it('reads another header when configured, skipping entries of trusted proxies of its own', () => {
    const config = loadConfig(
      lookup({ ...base, CONTACT_CLIENT_ADDRESS_HEADER: 'X-Forwarded-For' }),
    );
    expect(config.clientAddressHeader).toBe('x-forwarded-for');
    // client forged "1.1.1.1"; the shop's proxy appended the real client, then its own address.
    expect(clientIp(h('1.1.1.1, 203.0.113.9, 10.0.0.2'), 1, 'x-forwarded-for')).toBe('203.0.113.9');
    expect(clientIp(h('203.0.113.9'), 3, 'x-forwarded-for')).toBe('203.0.113.9');
    expect(() =>
      loadConfig(lookup({ ...base, CONTACT_CLIENT_ADDRESS_HEADER: 'x forwarded' })),
    ).toThrow(/CONTACT_CLIENT_ADDRESS_HEADER/);
  });

  it('ignores junk and strips ports', () => {
    expect(clientIp(new Headers(), 0)).toBeNull();
    expect(clientIp(new Headers({ 'cf-connecting-ip': 'unknown' }), 0)).toBeNull();
    expect(normaliseIp('203.0.113.7:51234')).toBe('203.0.113.7');
    expect(normaliseIp('[2001:DB8::1]:443')).toBe('2001:db8::1');
    expect(normaliseIp('999.1.1.1')).toBeNull();
    expect(normaliseIp("1.2.3.4'; drop table x")).toBeNull();
  });
});

describe('service key check', () => {
  it('accepts the service role key as bearer or apikey, nothing else', () => {
    const secrets = ['service-key', 'sb_secret_abc'];
    expect(hasServiceKey(new Headers({ authorization: 'Bearer service-key' }), secrets)).toBe(true);
    expect(hasServiceKey(new Headers({ apikey: 'sb_secret_abc' }), secrets)).toBe(true);
    expect(
      hasServiceKey(new Headers({ authorization: 'Bearer anon-key', apikey: 'anon-key' }), secrets),
    ).toBe(false);
    expect(hasServiceKey(new Headers({ authorization: 'Bearer service-ke' }), secrets)).toBe(false);
    expect(hasServiceKey(new Headers(), secrets)).toBe(false);
    // An empty configured secret never matches an empty presented one.
    expect(hasServiceKey(new Headers({ apikey: '' }), [''])).toBe(false);
  });

  it('compares strings exactly', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(bearerToken(new Headers({ authorization: 'bearer  tok ' }))).toBe('tok');
    expect(bearerToken(new Headers({ authorization: 'Basic tok' }))).toBeNull();
  });
});

describe('content type', () => {
  it('accepts JSON media types only', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType('Application/JSON; charset=utf-8')).toBe(true);
    expect(isJsonContentType('application/vnd.api+json')).toBe(true);
    expect(isJsonContentType('text/plain')).toBe(false);
    expect(isJsonContentType(null)).toBe(false);
  });
});

describe('configuration', () => {
  it('has local defaults: store address, sender, limits, no provider', () => {
    const cfg = loadConfig(lookup(base));
    expect(cfg.to).toBe(DEFAULT_TO);
    expect(cfg.from).toBe(DEFAULT_FROM);
    expect(cfg.transport).toEqual({ kind: 'none' });
    expect(cfg.rateLimit).toEqual({ max: 5, windowSeconds: 600 });
    expect(cfg.maxBodyBytes).toBe(65536);
    expect(cfg.retrySecrets).toEqual(['service-key']);
  });

  it('uses SMTP when SMTP_HOST is set (the local stack), with TLS on port 465', () => {
    expect(
      loadConfig(lookup({ ...base, SMTP_HOST: '127.0.0.1', SMTP_PORT: '54325' })).transport,
    ).toEqual({
      kind: 'smtp',
      host: '127.0.0.1',
      port: 54325,
      secure: false,
      user: null,
      pass: null,
    });
    expect(
      loadConfig(
        lookup({
          ...base,
          SMTP_HOST: 'smtp.example',
          SMTP_PORT: '465',
          SMTP_USER: 'u',
          SMTP_PASS: 'p',
        }),
      ).transport,
    ).toMatchObject({
      secure: true,
      user: 'u',
      pass: 'p',
    });
  });

  it('prefers Resend when its key is set, unless CONTACT_MAIL_PROVIDER says otherwise', () => {
    const both = { ...base, SMTP_HOST: '127.0.0.1', RESEND_API_KEY: 're_123' };
    expect(loadConfig(lookup(both)).transport).toEqual({
      kind: 'resend',
      apiKey: 're_123',
      apiUrl: 'https://api.resend.com',
    });
    expect(loadConfig(lookup({ ...both, CONTACT_MAIL_PROVIDER: 'smtp' })).transport.kind).toBe(
      'smtp',
    );
    expect(() => loadConfig(lookup({ ...base, CONTACT_MAIL_PROVIDER: 'resend' }))).toThrow(
      /RESEND_API_KEY/,
    );
    expect(() => loadConfig(lookup({ ...base, CONTACT_MAIL_PROVIDER: 'pigeon' }))).toThrow(
      /CONTACT_MAIL_PROVIDER/,
    );
  });

  it('reads the store address, sender, limits and secret keys', () => {
    const cfg = loadConfig(
      lookup({
        ...base,
        CONTACT_TO: 'owner@shop.example',
        CONTACT_FROM: 'Shop <contact@shop.example>',
        CONTACT_RATE_LIMIT_MAX: '3',
        CONTACT_RATE_LIMIT_WINDOW_SECONDS: '60',
        SUPABASE_SECRET_KEYS: '{"default":"sb_secret_x"}',
      }),
    );
    expect(cfg.to).toBe('owner@shop.example');
    expect(cfg.from).toBe('Shop <contact@shop.example>');
    expect(cfg.rateLimit).toEqual({ max: 3, windowSeconds: 60 });
    expect(cfg.retrySecrets).toEqual(['service-key', 'sb_secret_x']);
  });

  it('refuses to start with missing or nonsensical settings', () => {
    expect(() => loadConfig(lookup({}))).toThrow(/SUPABASE_URL/);
    expect(() => loadConfig(lookup({ ...base, CONTACT_RATE_LIMIT_MAX: '0' }))).toThrow(
      /CONTACT_RATE_LIMIT_MAX/,
    );
    expect(() => loadConfig(lookup({ ...base, SMTP_HOST: 'h', SMTP_PORT: 'abc' }))).toThrow(
      /SMTP_PORT/,
    );
  });
});

describe('composeMail', () => {
  const msg = {
    id: '7d1f6c1e-0000-4000-8000-000000000001',
    name: 'Ann Smith',
    email: 'ann@example.test',
    message: 'Line one\nLine two <b>not html</b>',
    created_at: '2026-11-22T10:15:00.123456+00:00',
  };

  it('addresses the store, replies to the visitor and carries everything as plain text', () => {
    const mail = composeMail(msg, {
      from: 'MAR Online Store <no-reply@mar-online-store.test>',
      to: 'shop@mar-online-store.test',
    });
    expect(mail.to).toBe('shop@mar-online-store.test');
    expect(mail.from).toBe('MAR Online Store <no-reply@mar-online-store.test>');
    expect(mail.replyTo).toEqual({ name: 'Ann Smith', address: 'ann@example.test' });
    expect(mail.subject).toBe('Contact form: Ann Smith');
    expect(mail.text).toContain(
      'Name: Ann Smith\nEmail: ann@example.test\nReceived: 2026-11-22T10:15:00.123Z',
    );
    expect(mail.text).toContain(`Reference: ${msg.id}`);
    expect(mail.text).toContain('Message:\nLine one\nLine two <b>not html</b>\n');
    expect(mail.messageId).toBe(`<contact-${msg.id}@mar-online-store.test>`);
    expect(mail.idempotencyKey).toBe(`contact-message/${msg.id}`);
  });
});
