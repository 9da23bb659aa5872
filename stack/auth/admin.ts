// The service-role admin API: GET|POST /admin/users, GET|PUT|DELETE /admin/users/{id} and
// POST /invite. The dispatcher has checked the service-role key (ctx.adminClaims).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { adminActor } from './authenticate.ts';
import { audit, findUserByEmail, insertUser, loadUser, userResponse } from './accounts.ts';
import { prepareCode } from './code-mail.ts';
import { factorJson, loadFactors } from './factors.ts';
import { badRequest, internalError, notFound, unprocessable } from './errors.ts';
import { type Ctx, obj, redirectFor, type Reply, str } from './http.ts';
import {
  AUDIENCE,
  type AuthService,
  DEFAULT_ROLE,
  EMAIL_APP_METADATA,
  emailExists,
  isUniqueViolation,
} from './service.ts';
import { type IdentityRow, type Json, mergeMetadata, type UserRow, userJson } from './users.ts';
import {
  assertPasswordAcceptable,
  checkPasswordLength,
  isUuid,
  normalizeEmail,
} from './validation.ts';

const GO_DURATION_UNITS: Record<string, number> = {
  ns: 1e-9,
  us: 1e-6,
  µs: 1e-6,
  ms: 1e-3,
  s: 1,
  m: 60,
  h: 3600,
};

/** Go duration string ("24h", "1h30m", "90s") in seconds; null when malformed. */
export function parseGoDuration(value: string): number | null {
  const s = value.trim();
  if (s === '' || s === '0') return s === '0' ? 0 : null;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;
  let total = 0;
  let consumed = '';
  for (const m of s.matchAll(re)) {
    total += Number(m[1]) * GO_DURATION_UNITS[m[2]!]!;
    consumed += m[0];
  }
  return consumed === s ? total : null;
}

/** ban_duration in seconds; null lifts a ban ("none"), undefined leaves it as it is. */
function banSeconds(body: Json): number | null | undefined {
  const raw = body.ban_duration;
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (raw === 'none') return null;
  const secs = typeof raw === 'string' ? parseGoDuration(raw) : null;
  if (secs === null)
    throw badRequest(
      'validation_failed',
      `invalid format for ban duration: time: invalid duration "${String(raw)}"`,
    );
  return secs;
}

function adminUserId(ctx: Ctx): string {
  const id = ctx.params[0] ?? '';
  if (!isUuid(id)) throw notFound('validation_failed', 'user_id must be an UUID');
  return id.toLowerCase();
}

/** auth.admin.inviteUserByEmail: creates (or re-invites) an unconfirmed user and mails the invite. */
export async function invite(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const email = normalizeEmail(str(ctx.body, 'email'));
  const data = obj(ctx.body, 'data') ?? {};
  const redirectTo = redirectFor(ctx, svc.redirectCfg);
  return svc.tx(async (c) => {
    let user = await findUserByEmail(c, email, true);
    if (user?.email_confirmed_at) throw emailExists();
    if (!user) {
      const id = randomUUID();
      await insertUser(svc, c, {
        id,
        email,
        passwordHash: await svc.randomPasswordHash(),
        appMetadata: EMAIL_APP_METADATA,
        userMetadata: data,
        emailConfirmed: false,
        invited: true,
      });
      user = (await loadUser(c, id))!;
    }
    await prepareCode(svc, c, user, 'invite', redirectTo, 'now');
    await audit(c, ctx, user, 'user_invited', 'team', { user_email: email });
    return { status: 200, body: await userResponse(c, user.id) };
  });
}

/** A page parameter as GoTrue's paginate() reads it (strconv.ParseUint), null when absent. */
function pageParameter(text: string | null): number | null {
  if (text === null || text === '') return null;
  const fail = (why: string) =>
    badRequest(
      'validation_failed',
      `Bad Pagination Parameters: strconv.ParseUint: parsing ${JSON.stringify(text)}: ${why}`,
    );
  if (!/^[0-9]+$/.test(text)) throw fail('invalid syntax');
  if (BigInt(text) > 0xffff_ffff_ffff_ffffn) throw fail('value out of range');
  // Beyond any real count of users: capped so that the offset stays a safe integer.
  return Math.min(Number(text), 1_000_000_000);
}

export async function adminListUsers(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const query = ctx.url.searchParams;
  // GoTrue parses both with Go's strconv.ParseUint and answers 400 on anything else (-1, 1.5,
  // +1, x); 0 stays as the database layer takes it (page 1; per page its default).
  const page = Math.max(1, pageParameter(query.get('page')) ?? 1);
  const perPage = pageParameter(query.get('per_page')) || 50;
  const filter = query.get('filter') ?? '';
  const sort = (query.get('sort') ?? '').trim().toLowerCase();
  const dir = sort === 'created_at asc' ? 'asc' : 'desc';
  const where = `aud = $1 and ($2 = '' or email ilike '%' || $2 || '%' or raw_user_meta_data ->> 'full_name' ilike '%' || $2 || '%')`;
  const total = Number(
    (
      await svc.pool.query<{ n: string }>(`select count(*) as n from auth.users where ${where}`, [
        AUDIENCE,
        filter,
      ])
    ).rows[0]!.n,
  );
  const rows = await svc.pool.query<UserRow>(
    `select * from auth.users where ${where} order by created_at ${dir}, id limit $3 offset $4`,
    [AUDIENCE, filter, perPage, (page - 1) * perPage],
  );
  const ids = rows.rows.map((u) => u.id);
  const idents = ids.length
    ? (
        await svc.pool.query<IdentityRow>(
          'select * from auth.identities where user_id = any($1) order by created_at, id',
          [ids],
        )
      ).rows
    : [];
  const factors = (await loadFactors(svc.pool, ids)).map((f) => ({ ...f, json: factorJson(f) }));
  const users = rows.rows.map((u) =>
    userJson(
      u,
      idents.filter((i) => i.user_id === u.id),
      factors.filter((f) => f.user_id === u.id).map((f) => f.json),
    ),
  );
  const lastPage = Math.ceil(total / perPage);
  const links: string[] = [];
  if (page < lastPage)
    links.push(`</admin/users?page=${page + 1}&per_page=${perPage}>; rel="next"`);
  links.push(`</admin/users?page=${lastPage}&per_page=${perPage}>; rel="last"`);
  return {
    status: 200,
    body: { users, aud: AUDIENCE },
    headers: { 'X-Total-Count': String(total), Link: links.join(', ') },
  };
}

export async function adminGetUser(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const id = adminUserId(ctx);
  const user = await loadUser(svc.pool, id);
  if (!user) throw notFound('user_not_found', 'User not found');
  return { status: 200, body: await userResponse(svc.pool, id) };
}

export async function adminCreateUser(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const admin = adminActor(ctx);
  const body = ctx.body;
  const rawEmail = str(body, 'email');
  const phone = str(body, 'phone');
  if (rawEmail === '' && phone === '')
    throw badRequest('validation_failed', 'Cannot create a user without either an email or phone');
  const email = rawEmail !== '' ? normalizeEmail(rawEmail) : null;
  if (body.id !== undefined && body.id !== null && !isUuid(body.id))
    throw badRequest('validation_failed', 'id must be a valid UUID');
  let passwordHash: string;
  const passwordHashParam = str(body, 'password_hash');
  if (passwordHashParam !== '') {
    if (!/^\$2[aby]\$\d{2}\$/.test(passwordHashParam))
      throw badRequest('validation_failed', 'Invalid password hash format');
    passwordHash = passwordHashParam;
  } else {
    const password = str(body, 'password') || randomBytes(48).toString('base64url').slice(0, 64);
    checkPasswordLength(password);
    passwordHash = await svc.hashPassword(password);
  }
  const appMetadata = mergeMetadata(
    { provider: email ? 'email' : 'phone', providers: [email ? 'email' : 'phone'] },
    obj(body, 'app_metadata') ?? {},
  );
  const emailConfirmed = body.email_confirm === true;
  const userMetadata: Json = { ...(obj(body, 'user_metadata') ?? {}) };
  if (emailConfirmed) userMetadata.email_verified = true;
  const ban = banSeconds(body);
  return svc.tx(async (c) => {
    if (email && (await findUserByEmail(c, email))) throw emailExists();
    if (phone) {
      const p = await c.query('select 1 from auth.users where phone = $1', [phone]);
      if (p.rowCount)
        throw unprocessable(
          'phone_exists',
          'A user with this phone number has already been registered',
        );
    }
    const id: string = await insertUser(svc, c, {
      id: typeof body.id === 'string' ? body.id.toLowerCase() : undefined,
      email,
      phone: phone || null,
      passwordHash,
      role: str(body, 'role') || DEFAULT_ROLE,
      appMetadata,
      userMetadata,
      emailConfirmed,
      phoneConfirmed: body.phone_confirm === true,
      bannedUntilSeconds: ban ?? null,
    });
    await audit(c, ctx, admin, 'user_signedup', 'team', {
      user_id: id,
      user_email: email ?? '',
      user_phone: phone,
    });
    return { status: 200, body: await userResponse(c, id) };
  });
}

export async function adminUpdateUser(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const id = adminUserId(ctx);
  const body = ctx.body;
  const email =
    typeof body.email === 'string' && body.email !== '' ? normalizeEmail(body.email) : null;
  const password = typeof body.password === 'string' && body.password !== '' ? body.password : null;
  if (password !== null) assertPasswordAcceptable(password, svc.policy);
  const ban = banSeconds(body);
  return svc.tx(async (c) => {
    const user = await loadUser(c, id, true);
    if (!user) throw notFound('user_not_found', 'User not found');
    const sets: string[] = [];
    const values: unknown[] = [id];
    const set = (sql: string, value?: unknown) => {
      if (value === undefined) {
        sets.push(sql);
      } else {
        values.push(value);
        sets.push(sql.replace('?', `$${values.length}`));
      }
    };
    let userMeta = user.raw_user_meta_data ?? {};
    if (email !== null && email !== user.email) {
      const taken = await findUserByEmail(c, email);
      if (taken && taken.id !== id) throw emailExists();
      set('email = ?', email);
      set(`email_change = ''`);
      set(`email_change_token_new = ''`);
      set(`email_change_token_current = ''`);
      await c.query(
        `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text), updated_at = now()
         where user_id = $1 and provider = 'email'`,
        [id, email],
      );
    }
    if (typeof body.phone === 'string' && body.phone !== (user.phone ?? ''))
      set('phone = ?', body.phone || null);
    if (password !== null) {
      set('encrypted_password = ?', await svc.hashPassword(password));
      // An admin password change ends every session of the user.
      await c.query('delete from auth.sessions where user_id = $1', [id]);
    }
    const pwHash = str(body, 'password_hash');
    if (pwHash !== '') set('encrypted_password = ?', pwHash);
    if (body.email_confirm === true) {
      set('email_confirmed_at = coalesce(email_confirmed_at, now())');
      set(`confirmation_token = ''`);
      userMeta = { ...userMeta, email_verified: true };
    }
    if (body.phone_confirm === true)
      set('phone_confirmed_at = coalesce(phone_confirmed_at, now())');
    const um = obj(body, 'user_metadata');
    if (um) userMeta = mergeMetadata(userMeta, um);
    if (um || body.email_confirm === true) set('raw_user_meta_data = ?', JSON.stringify(userMeta));
    const am = obj(body, 'app_metadata');
    if (am) set('raw_app_meta_data = ?', JSON.stringify(mergeMetadata(user.raw_app_meta_data, am)));
    if (typeof body.role === 'string' && body.role !== '') set('role = ?', body.role);
    if (ban !== undefined) {
      if (ban === null) set('banned_until = null');
      else set('banned_until = now() + make_interval(secs => ?::float8)', ban);
    }
    if (sets.length) {
      try {
        await c.query(
          `update auth.users set ${sets.join(', ')}, updated_at = now() where id = $1`,
          values,
        );
      } catch (e) {
        if (isUniqueViolation(e)) throw emailExists();
        svc.log(`admin update failed: ${e instanceof Error ? e.message : String(e)}`);
        throw internalError('Error updating user');
      }
    }
    if (body.email_confirm === true) {
      await c.query(
        `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb
         where user_id = $1 and provider = 'email'`,
        [id],
      );
    }
    return { status: 200, body: await userResponse(c, id) };
  });
}

export async function adminDeleteUser(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const admin = adminActor(ctx);
  const id = adminUserId(ctx);
  const soft = ctx.body.should_soft_delete === true;
  await svc.tx(async (c) => {
    const user = await loadUser(c, id, true);
    if (!user) throw notFound('user_not_found', 'User not found');
    await audit(c, ctx, admin, 'user_deleted', 'team', {
      user_id: user.id,
      user_email: user.email ?? '',
      user_phone: user.phone ?? '',
    });
    if (!soft) {
      await c.query('delete from auth.users where id = $1', [id]);
      return;
    }
    // Soft delete: keep the row for foreign keys but make the account unusable and anonymous.
    const obfuscate = (v: string | null) =>
      v ? createHash('sha256').update(v).digest('hex') : null;
    await c.query('delete from auth.sessions where user_id = $1', [id]);
    await c.query('delete from auth.one_time_tokens where user_id = $1', [id]);
    await c.query('delete from auth.mfa_factors where user_id = $1', [id]);
    await c.query(
      `update auth.users set email = $2, phone = $3, encrypted_password = '', raw_user_meta_data = '{}'::jsonb,
         raw_app_meta_data = '{}'::jsonb, confirmation_token = '', recovery_token = '', email_change = '',
         email_change_token_new = '', email_change_token_current = '', deleted_at = now(), updated_at = now()
       where id = $1`,
      [id, obfuscate(user.email), obfuscate(user.phone)],
    );
    await c.query(
      `update auth.identities set provider_id = encode(sha256(convert_to(provider_id, 'utf8')), 'hex'),
         identity_data = '{}'::jsonb, updated_at = now() where user_id = $1`,
      [id],
    );
  });
  return { status: 200, body: {} };
}
