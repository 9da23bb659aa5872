// Pure pieces of the local auth service: user JSON, metadata merge, mail links, rate limiting.
import { describe, expect, it } from 'vitest';
import { confirmationUrl, renderMail } from '../../../stack/auth/mailer.ts';
import { EmailBudget, IpRateLimiter, clientIp } from '../../../stack/auth/rate-limit.ts';
import { parseGoDuration } from '../../../stack/auth/server.ts';
import {
  mergeMetadata,
  pgTimestampToRfc3339,
  userJson,
  type UserRow,
} from '../../../stack/auth/users.ts';

describe('pgTimestampToRfc3339', () => {
  it('turns UTC text output into RFC 3339 with Z', () => {
    expect(pgTimestampToRfc3339('2024-05-01 10:00:00.123456+00')).toBe(
      '2024-05-01T10:00:00.123456Z',
    );
    expect(pgTimestampToRfc3339('2024-05-01 10:00:00')).toBe('2024-05-01T10:00:00Z');
    expect(pgTimestampToRfc3339('2024-05-01 10:00:00+05:30')).toBe('2024-05-01T10:00:00+05:30');
  });
});

describe('mergeMetadata', () => {
  it('merges key by key and deletes keys set to null', () => {
    expect(mergeMetadata({ a: 1, b: 2, keep: true }, { a: 3, b: null, c: 'x' })).toEqual({
      a: 3,
      keep: true,
      c: 'x',
    });
    expect(mergeMetadata(null, { a: 1 })).toEqual({ a: 1 });
  });
});

describe('userJson', () => {
  const row = {
    id: 'u1',
    aud: 'authenticated',
    role: 'authenticated',
    email: 'a@b.c',
    email_confirmed_at: null,
    invited_at: null,
    confirmation_sent_at: '2024-01-01T00:00:00Z',
    recovery_sent_at: null,
    email_change: '',
    email_change_sent_at: null,
    last_sign_in_at: null,
    raw_app_meta_data: { provider: 'email', providers: ['email'] },
    raw_user_meta_data: { sub: 'u1' },
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2024-01-01T00:00:00Z',
    phone: null,
    phone_confirmed_at: null,
    phone_change: '',
    phone_change_sent_at: null,
    confirmed_at: null,
    banned_until: null,
    reauthentication_sent_at: null,
    deleted_at: null,
    is_anonymous: false,
  } as unknown as UserRow;

  it('omits null/empty optional keys, keeps phone "" and is_anonymous, in GoTrue key order', () => {
    const json = userJson(row, []);
    expect(Object.keys(json)).toEqual([
      'id',
      'aud',
      'role',
      'email',
      'phone',
      'confirmation_sent_at',
      'app_metadata',
      'user_metadata',
      'identities',
      'created_at',
      'updated_at',
      'is_anonymous',
    ]);
    expect(json.phone).toBe('');
  });

  it('shows a pending e-mail change as new_email', () => {
    const json = userJson(
      { ...row, email_change: 'n@b.c', email_change_sent_at: '2024-01-02T00:00:00Z' },
      null,
    );
    expect(json.new_email).toBe('n@b.c');
    expect(json.email_change_sent_at).toBe('2024-01-02T00:00:00Z');
    expect(json).not.toHaveProperty('identities');
  });
});

describe('confirmation mail', () => {
  it('builds GoTrue verify links, escaping redirect_to only when it needs it', () => {
    expect(
      confirmationUrl(
        'http://127.0.0.1:54321/auth/v1',
        'abc',
        'signup',
        'http://127.0.0.1:3000/welcome',
      ),
    ).toBe(
      'http://127.0.0.1:54321/auth/v1/verify?token=abc&type=signup&redirect_to=http://127.0.0.1:3000/welcome',
    );
    expect(confirmationUrl('http://x/auth/v1', 'abc', 'recovery', 'http://h/?a=1&b=2')).toBe(
      'http://x/auth/v1/verify?token=abc&type=recovery&redirect_to=http%3A%2F%2Fh%2F%3Fa%3D1%26b%3D2',
    );
  });

  it('renders the CLI default subject with the link HTML-escaped', () => {
    const mail = renderMail('signup', {
      ConfirmationURL: 'http://x/verify?token=t&type=signup',
      Token: '123456',
    });
    expect(mail.subject).toBe('Confirm Your Signup');
    expect(mail.html).toContain('href="http://x/verify?token=t&amp;type=signup"');
    expect(mail.text).toContain('http://x/verify?token=t&type=signup');
    expect(renderMail('recovery', { ConfirmationURL: 'l', Token: '1' }).subject).toBe(
      'Reset Your Password',
    );
  });
});

describe('rate limiting', () => {
  it('allows `limit` requests per key and refills over the window', () => {
    let now = 0;
    const limiter = new IpRateLimiter(3, 300_000, () => now);
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(limiter.take('b')).toBe(true);
    now += 100_000; // one third of the window refills one token
    expect(limiter.take('a')).toBe(true);
    expect(limiter.take('a')).toBe(false);
  });

  it('keeps an hourly mail budget and returns released reservations', () => {
    let now = 0;
    const budget = new EmailBudget(2, () => now);
    expect([budget.take(), budget.take(), budget.take()]).toEqual([true, true, false]);
    budget.release();
    expect(budget.take()).toBe(true);
    now += 3_600_000;
    expect(budget.take()).toBe(true);
    expect(new EmailBudget(0).take()).toBe(false);
  });

  it('takes the client IP from the last X-Forwarded-For entry (the hop the gateway adds)', () => {
    expect(clientIp('203.0.113.9, 127.0.0.1', '127.0.0.1')).toBe('127.0.0.1');
    expect(clientIp(undefined, '::1')).toBe('::1');
  });
});

describe('parseGoDuration', () => {
  it('parses Go duration strings into seconds', () => {
    expect(parseGoDuration('24h')).toBe(86_400);
    expect(parseGoDuration('1h30m')).toBe(5_400);
    expect(parseGoDuration('500ms')).toBe(0.5);
    expect(parseGoDuration('forever')).toBeNull();
  });
});
