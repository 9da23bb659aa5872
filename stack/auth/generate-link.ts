// POST /admin/generate_link: a link and code made for the caller to deliver (nothing is mailed).
import { randomUUID } from 'node:crypto';
import { findUserByEmail, insertUser, loadUser, userResponse } from './accounts.ts';
import { type IssuedCode, prepareCode, prepareEmailChange } from './code-mail.ts';
import { badRequest, notFound } from './errors.ts';
import { type Ctx, obj, redirectFor, type Reply, str } from './http.ts';
import { confirmationUrl } from './mailer.ts';
import { type AuthService, emailExists } from './service.ts';
import { mergeMetadata, type UserRow } from './users.ts';
import { assertPasswordAcceptable, normalizeEmail } from './validation.ts';

const LINK_TYPES = [
  'signup',
  'invite',
  'magiclink',
  'recovery',
  'email_change_current',
  'email_change_new',
];

export async function adminGenerateLink(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const body = ctx.body;
  const type = str(body, 'type');
  if (!LINK_TYPES.includes(type))
    throw badRequest('validation_failed', 'Invalid email action link type requested');
  const email = normalizeEmail(str(body, 'email'));
  const redirectTo = redirectFor(ctx, svc.redirectCfg);
  const data = obj(body, 'data');
  const password = str(body, 'password');

  return svc.tx(async (c) => {
    let user = await findUserByEmail(c, email, true);
    let verificationType = type;
    let tokens: IssuedCode;
    const createUnconfirmed = async (passwordHash: string, invited: boolean): Promise<UserRow> => {
      const id = randomUUID();
      await insertUser(svc, c, {
        id,
        email,
        passwordHash,
        appMetadata: { provider: 'email', providers: ['email'] },
        // Only the caller's data, as GoTrue's generate_link stores it (the identity, not the
        // user's metadata, gets sub, email and the verified flags).
        userMetadata: data ?? {},
        emailConfirmed: false,
        invited,
      });
      return (await loadUser(c, id))!;
    };
    switch (type) {
      case 'signup': {
        if (user?.email_confirmed_at) throw emailExists();
        if (!user) {
          if (password === '')
            throw badRequest('validation_failed', 'Signup requires a valid password');
          assertPasswordAcceptable(password, svc.policy);
          user = await createUnconfirmed(await svc.hashPassword(password), false);
        } else if (data) {
          await c.query('update auth.users set raw_user_meta_data = $2 where id = $1', [
            user.id,
            JSON.stringify(mergeMetadata(user.raw_user_meta_data, data)),
          ]);
        }
        tokens = await prepareCode(svc, c, user, 'signup', redirectTo, 'none');
        break;
      }
      case 'invite': {
        if (user?.email_confirmed_at) throw emailExists();
        if (!user) user = await createUnconfirmed(await svc.randomPasswordHash(), true);
        tokens = await prepareCode(svc, c, user, 'invite', redirectTo, 'none');
        break;
      }
      case 'magiclink': {
        if (!user) {
          // Unknown addresses get a sign-up link instead, as GoTrue does.
          verificationType = 'signup';
          user = await createUnconfirmed(await svc.randomPasswordHash(), false);
          tokens = await prepareCode(svc, c, user, 'signup', redirectTo, 'none');
        } else {
          tokens = await prepareCode(svc, c, user, 'magiclink', redirectTo, 'none');
        }
        break;
      }
      case 'recovery': {
        if (!user) throw notFound('user_not_found', 'User with this email not found');
        tokens = await prepareCode(svc, c, user, 'recovery', redirectTo, 'none');
        break;
      }
      default: {
        if (!user) throw notFound('user_not_found', 'User with this email not found');
        if (type === 'email_change_current' && svc.opts.doubleConfirmChanges === false)
          throw badRequest(
            'validation_failed',
            'Enable secure email change to generate link for current email',
          );
        const newEmail = normalizeEmail(str(body, 'new_email'));
        if (await findUserByEmail(c, newEmail)) throw emailExists();
        const t = await prepareEmailChange(svc, c, user, newEmail, redirectTo, 'none');
        tokens = {
          otp: type === 'email_change_new' ? t.otp : t.currentOtp,
          tokenHash: type === 'email_change_new' ? t.tokenHash : t.currentHash,
        };
        verificationType = 'email_change';
      }
    }
    const userBody = await userResponse(c, user.id);
    return {
      status: 200,
      body: {
        ...userBody,
        action_link: confirmationUrl(
          svc.authExternalUrl,
          tokens.tokenHash,
          verificationType,
          redirectTo,
        ),
        email_otp: tokens.otp,
        hashed_token: tokens.tokenHash,
        verification_type: verificationType,
        redirect_to: redirectTo,
      },
    };
  });
}
