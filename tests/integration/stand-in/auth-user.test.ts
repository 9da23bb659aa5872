// The auth service's user endpoint (GET/PUT /user): which access tokens it refuses, and the
// e-mail change that PUT /user starts and the mailed link completes.
import { describe, expect, it } from 'vitest';
import { authMailSubject, extractLinks, waitForMail } from '../../support/mail.ts';
import { stackEnv } from '../../support/stack.ts';
import {
  PASSWORD,
  decodeJwt,
  signToken,
  authFetch,
  openLink,
  fragmentParams,
  signUpAndConfirm,
  anonClientFromOwnIp,
} from '../auth-support.ts';
import { uniqueEmail } from '../../support/names.ts';

const env = stackEnv();

describe("Supabase's errors", () => {
  it('tampered, foreign-signed and expired JWTs: 403 bad_jwt', async () => {
    const email = uniqueEmail('jwt');
    await signUpAndConfirm(email);
    const { data } = await anonClientFromOwnIp().auth.signInWithPassword({
      email,
      password: PASSWORD,
    });
    const token = data.session!.access_token;
    const [head, , sig] = token.split('.');
    const claims = decodeJwt(token);
    const tampered = `${head}.${Buffer.from(JSON.stringify({ ...claims, role: 'service_role' })).toString('base64url')}.${sig}`;

    const viaClient = await anonClientFromOwnIp().auth.getUser(tampered);
    expect(viaClient.error).toMatchObject({ code: 'bad_jwt', status: 403 });

    const raw = await authFetch('/user', { token: tampered });
    expect(raw.status).toBe(403);
    expect(raw.headers.get('x-sb-error-code')).toBe('bad_jwt');
    expect(raw.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(raw.body.message).toBe(
      'invalid JWT: unable to parse or verify signature, token signature is invalid: signature is invalid',
    );

    const foreign = signToken({ ...claims }, 'a-completely-different-secret-of-32-chars');
    expect((await authFetch('/user', { token: foreign })).status).toBe(403);

    const now = Math.floor(Date.now() / 1000);
    const expired = signToken({ ...claims, iat: now - 7200, exp: now - 3600 });
    const old = await authFetch('/user', { token: expired });
    expect(old.status).toBe(403);
    expect(old.body).toEqual({
      code: 'bad_jwt',
      message:
        'invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired',
    });

    // The anon key verifies but has no subject.
    const anon = await authFetch('/user');
    expect([anon.status, anon.body.code, anon.body.message]).toEqual([
      403,
      'bad_jwt',
      'invalid claim: missing sub claim',
    ]);
  });
});

describe('e-mail change', () => {
  // double_confirm_changes = true: the current address's link comes first (more in
  // auth-email-change.test.ts), then the new address's link switches the e-mail.
  it('sends links to both addresses and switches the e-mail once both are followed', async () => {
    const email = uniqueEmail('change-old');
    const newEmail = uniqueEmail('change-new');
    await signUpAndConfirm(email);
    const taken = uniqueEmail('change-taken');
    await signUpAndConfirm(taken);
    const client = anonClientFromOwnIp();
    await client.auth.signInWithPassword({ email, password: PASSWORD });

    const clash = await client.auth.updateUser({ email: taken });
    expect(clash.error).toMatchObject({ code: 'email_exists', status: 422 });

    const { data, error } = await client.auth.updateUser({ email: newEmail.toUpperCase() });
    expect(error).toBeNull();
    expect(data.user!.email).toBe(email);
    expect(data.user!.new_email).toBe(newEmail);
    const currentMail = await waitForMail(env.MAILPIT_URL, {
      to: email,
      subject: authMailSubject('email_change'),
    });
    const first = await openLink(
      extractLinks(currentMail).find((l) => l.includes('type=email_change'))!,
    );
    expect(fragmentParams(first.headers.get('location')!).get('message')).toMatch(
      /^Confirmation link accepted/,
    );
    const mail = await waitForMail(env.MAILPIT_URL, {
      to: newEmail,
      subject: authMailSubject('email_change'),
    });
    const res = await openLink(extractLinks(mail).find((l) => l.includes('type=email_change'))!);
    expect(res.status).toBe(303);
    const params = fragmentParams(res.headers.get('location')!);
    expect(params.get('type')).toBe('email_change');
    const user = await anonClientFromOwnIp().auth.getUser(params.get('access_token')!);
    expect(user.data.user?.email).toBe(newEmail);
    expect(user.data.user?.new_email).toBeUndefined();
    expect(
      (await anonClientFromOwnIp().auth.signInWithPassword({ email: newEmail, password: PASSWORD }))
        .error,
    ).toBeNull();
  });
});
