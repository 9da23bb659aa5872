// RELIABILITY.md §6, row 9: with [auth.email] double_confirm_changes = true (the store's
// config.toml) an e-mail change needs the links sent to BOTH the current and the new address, as
// hosted Auth.
import { describe, expect, it } from 'vitest';
import {
  authMailSubject,
  codeFromLink,
  extractLinks,
  listMail,
  waitForMail,
} from '../../support/mail.ts';
import { post, startOwnServer } from './auth-own-server.ts';
import { sql, stackEnv } from '../../support/stack.ts';
import {
  PASSWORD,
  authFetch,
  fragmentParams,
  openLink,
  signUpAndConfirm,
  anonClientFromOwnIp,
} from '../auth-support.ts';
import { uniqueEmail } from '../../support/names.ts';

const env = stackEnv();
const ACCEPTED =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

/** Signs up `email`, asks to move it to a new address, returns both mailed links. */
async function requestChange(tag: string) {
  const email = uniqueEmail(`${tag}-old`);
  const newEmail = uniqueEmail(`${tag}-new`);
  await signUpAndConfirm(email);
  const client = anonClientFromOwnIp();
  await client.auth.signInWithPassword({ email, password: PASSWORD });
  const { error } = await client.auth.updateUser({ email: newEmail });
  expect(error).toBeNull();
  const linkTo = async (to: string) => {
    const mail = await waitForMail(env.MAILPIT_URL, {
      to,
      subject: authMailSubject('email_change'),
    });
    return extractLinks(mail).find((l) => l.includes('type=email_change'))!;
  };
  return { email, newEmail, client, current: await linkTo(email), next: await linkTo(newEmail) };
}

async function emailOf(client: ReturnType<typeof anonClientFromOwnIp>) {
  const { data } = await client.auth.refreshSession();
  return { email: data.user?.email, newEmail: data.user?.new_email };
}

describe('e-mail change with double confirmation', () => {
  for (const order of ['current first', 'new first'] as const) {
    it(`needs both links (${order}); the first only says so`, async () => {
      const change = await requestChange(order === 'current first' ? 'dc-cur' : 'dc-new');
      expect(change.current).not.toBe(change.next);
      const [first, second] =
        order === 'current first' ? [change.current, change.next] : [change.next, change.current];

      const one = await openLink(first);
      expect(one.status).toBe(303);
      const location = one.headers.get('location')!;
      expect(fragmentParams(location).get('message')).toBe(ACCEPTED);
      expect(fragmentParams(location).get('access_token')).toBeNull();
      expect(await emailOf(change.client)).toEqual({
        email: change.email,
        newEmail: change.newEmail,
      });

      // The link already used is spent.
      const again = fragmentParams((await openLink(first)).headers.get('location')!);
      expect(again.get('error_code')).toBe('otp_expired');

      const two = fragmentParams((await openLink(second)).headers.get('location')!);
      expect(two.get('type')).toBe('email_change');
      const user = await anonClientFromOwnIp().auth.getUser(two.get('access_token')!);
      expect(user.data.user?.email).toBe(change.newEmail);
      expect(user.data.user?.new_email).toBeUndefined();

      const reused = fragmentParams((await openLink(second)).headers.get('location')!);
      expect(reused.get('error_code')).toBe('otp_expired');
      expect(
        (
          await anonClientFromOwnIp().auth.signInWithPassword({
            email: change.newEmail,
            password: PASSWORD,
          })
        ).error,
      ).toBeNull();
    });
  }

  it('POST /verify with a token hash: the first answers the message, the second the session', async () => {
    const change = await requestChange('dc-post');
    const hashOf = (link: string) => new URL(link).searchParams.get('token')!;
    const verify = (token_hash: string) =>
      authFetch('/verify', { method: 'POST', body: { type: 'email_change', token_hash } });

    const one = await verify(hashOf(change.current));
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ msg: ACCEPTED, code: '200' });
    expect((await emailOf(change.client)).email).toBe(change.email);

    const two = await verify(hashOf(change.next));
    expect(two.status).toBe(200);
    expect((two.body.user as { email: string }).email).toBe(change.newEmail);
  });

  it('refuses an unknown token and leaves the pending change alone', async () => {
    const change = await requestChange('dc-bad');
    const forged = new URL(change.current);
    forged.searchParams.set('token', 'f'.repeat(56));
    const res = fragmentParams((await openLink(forged.toString())).headers.get('location')!);
    expect(res.get('error_code')).toBe('otp_expired');
    expect(await emailOf(change.client)).toEqual({
      email: change.email,
      newEmail: change.newEmail,
    });
  });

  it('each address gets its own code; verifying both codes changes the e-mail', async () => {
    const change = await requestChange('dc-otp');
    const codeCurrent = codeFromLink(change.current, change.email);
    const codeNew = codeFromLink(change.next, change.newEmail);
    expect(codeCurrent).not.toBe(codeNew);
    const verify = (email: string, token: string) =>
      authFetch('/verify', { method: 'POST', body: { type: 'email_change', email, token } });

    // A code only works with the address it was sent to.
    expect((await verify(change.newEmail, codeCurrent)).body.code).toBe('otp_expired');
    const one = await verify(change.newEmail, codeNew);
    expect(one.body).toEqual({ msg: ACCEPTED, code: '200' });
    const two = await verify(change.email, codeCurrent);
    expect((two.body.user as { email: string }).email).toBe(change.newEmail);
  });

  it('refuses links older than otp_expiry', async () => {
    const change = await requestChange('dc-old');
    await sql(
      `update auth.users set email_change_sent_at = now() - interval '2 hours' where email = $1`,
      [change.email],
    );
    for (const link of [change.current, change.next]) {
      const res = fragmentParams((await openLink(link)).headers.get('location')!);
      expect(res.get('error_code')).toBe('otp_expired');
    }
    expect((await emailOf(change.client)).email).toBe(change.email);
  });
});

describe('e-mail change with double_confirm_changes = false', () => {
  it('mails the new address only, and its link alone changes the e-mail', async () => {
    const server = await startOwnServer({ doubleConfirmChanges: false });
    try {
      const email = uniqueEmail('sc-old');
      const newEmail = uniqueEmail('sc-new');
      await signUpAndConfirm(email);
      const signIn = await post(server, '/token?grant_type=password', {
        email,
        password: PASSWORD,
      });
      const res = await fetch(`${server.url}/user`, {
        method: 'PUT',
        headers: {
          Authorization: `Bearer ${String(signIn.body.access_token)}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ email: newEmail }),
      });
      expect(res.status).toBe(200);
      const mail = await waitForMail(env.MAILPIT_URL, {
        to: newEmail,
        subject: 'Confirm Email Change',
      });
      const toCurrent = (await listMail(env.MAILPIT_URL)).filter(
        (m) => m.subject === 'Confirm Email Change' && m.to.some((t) => t.address === email),
      );
      expect(toCurrent).toEqual([]);
      const link = extractLinks(mail).find((l) => l.includes('type=email_change'))!;
      const token_hash = new URL(link).searchParams.get('token')!;
      const verified = await post(server, '/verify', { type: 'email_change', token_hash });
      expect(verified.status).toBe(200);
      expect((verified.body.user as { email: string }).email).toBe(newEmail);
    } finally {
      await server.close();
    }
  });
});
