// The auth service's mail-sending endpoints: POST /recover (password recovery), POST /otp
// (magic links) and POST /resend (with max_frequency and the mailed six-digit code).
import { describe, expect, it } from 'vitest';
import {
  authMailSubject,
  codeFromLink,
  extractLinks,
  listMail,
  waitForMail,
} from '../../support/mail.ts';
import { stackEnv } from '../../support/stack.ts';
import {
  PASSWORD,
  SITE_URL,
  decodeJwt,
  openLink,
  fragmentParams,
  confirmationLink,
  mailsTo,
  signUpAndConfirm,
  anonClientFromOwnIp,
} from '../auth-support.ts';
import { uniqueEmail } from '../../support/names.ts';

const env = stackEnv();

describe('resend, OTP codes and mail frequency', () => {
  it('limits resends by max_frequency, invalidates the old link and verifies the mailed code', async () => {
    const email = uniqueEmail('resend');
    const client = anonClientFromOwnIp();
    expect((await client.auth.signUp({ email, password: PASSWORD })).error).toBeNull();
    // config.toml [auth.email] max_frequency = "1s"
    const tooSoon = await client.auth.resend({ type: 'signup', email });
    expect(tooSoon.error).toMatchObject({ code: 'over_email_send_rate_limit', status: 429 });
    expect(tooSoon.error!.message).toMatch(
      /^For security purposes, you can only request this after \d+ seconds\.$/,
    );

    const firstLink = await confirmationLink(email);
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await client.auth.resend({ type: 'signup', email })).error).toBeNull();
    const mails = await mailsTo(email, 2);
    expect(mails).toHaveLength(2);
    const latest = mails.sort((a, b) => Date.parse(b.date) - Date.parse(a.date))[0]!;
    const code = codeFromLink(
      extractLinks(latest).find((l) => l.includes('type=signup'))!,
      email,
    );

    const stale = await openLink(firstLink);
    expect(fragmentParams(stale.headers.get('location')!).get('error_code')).toBe('otp_expired');

    const wrong = await client.auth.verifyOtp({
      email,
      token: code === '000000' ? '111111' : '000000',
      type: 'signup',
    });
    expect(wrong.error).toMatchObject({
      code: 'otp_expired',
      status: 403,
      message: 'Token has expired or is invalid',
    });
    const ok = await client.auth.verifyOtp({ email, token: code, type: 'signup' });
    expect(ok.error).toBeNull();
    expect(ok.data.session?.user.email_confirmed_at).toBeTruthy();

    // Confirmed addresses get 200 and no further mail.
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await client.auth.resend({ type: 'signup', email })).error).toBeNull();
    const after = (await listMail(env.MAILPIT_URL)).filter((m) =>
      m.to.some((t) => t.address === email),
    );
    expect(after).toHaveLength(2);
  });
});

describe('password recovery', () => {
  it('mails a recovery link that signs the user in, then updateUser sets a new password', async () => {
    const email = uniqueEmail('recover');
    await signUpAndConfirm(email);
    const { error } = await anonClientFromOwnIp().auth.resetPasswordForEmail(email, {
      redirectTo: `${SITE_URL}/reset`,
    });
    expect(error).toBeNull();
    const mail = await waitForMail(env.MAILPIT_URL, {
      to: email,
      subject: authMailSubject('recovery'),
    });
    const link = extractLinks(mail).find((l) => l.includes('type=recovery'))!;
    const res = await openLink(link);
    expect(res.status).toBe(303);
    const params = fragmentParams(res.headers.get('location')!);
    expect(params.get('type')).toBe('recovery');

    const client = anonClientFromOwnIp();
    const set = await client.auth.setSession({
      access_token: params.get('access_token')!,
      refresh_token: params.get('refresh_token')!,
    });
    expect(set.error).toBeNull();
    const same = await client.auth.updateUser({ password: PASSWORD });
    expect(same.error).toMatchObject({ code: 'same_password', status: 422 });
    expect((await client.auth.updateUser({ password: 'Brand-new-pw-1' })).error).toBeNull();
    expect(
      (await anonClientFromOwnIp().auth.signInWithPassword({ email, password: 'Brand-new-pw-1' }))
        .error,
    ).toBeNull();
    expect(
      (await anonClientFromOwnIp().auth.signInWithPassword({ email, password: PASSWORD })).error,
    ).toMatchObject({ code: 'invalid_credentials' });
  });

  it('answers 200 for unknown addresses without sending mail', async () => {
    const email = uniqueEmail('ghost');
    expect((await anonClientFromOwnIp().auth.resetPasswordForEmail(email)).error).toBeNull();
    await new Promise((r) => setTimeout(r, 300));
    expect(
      (await listMail(env.MAILPIT_URL)).some((m) => m.to.some((t) => t.address === email)),
    ).toBe(false);
  });
});

describe('magic links and invites', () => {
  it('signInWithOtp mails a magic link to a confirmed user that signs them in', async () => {
    const email = uniqueEmail('magic');
    await signUpAndConfirm(email);
    const { error } = await anonClientFromOwnIp().auth.signInWithOtp({
      email,
      options: { emailRedirectTo: `${SITE_URL}/magic` },
    });
    expect(error).toBeNull();
    const mail = await waitForMail(env.MAILPIT_URL, {
      to: email,
      subject: authMailSubject('magiclink'),
    });
    const res = await openLink(extractLinks(mail).find((l) => l.includes('type=magiclink'))!);
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    expect(location.startsWith(`${SITE_URL}/magic#`)).toBe(true);
    const claims = decodeJwt(fragmentParams(location).get('access_token')!);
    expect(claims.email).toBe(email);

    const noSignup = await anonClientFromOwnIp().auth.signInWithOtp({
      email: uniqueEmail('nosignup'),
      options: { shouldCreateUser: false },
    });
    expect(noSignup.error).toMatchObject({ code: 'otp_disabled', status: 422 });
  });
});
