// POST /logout?scope=global|local|others: ends the user's sessions.
import { audit } from './accounts.ts';
import { signedInUser } from './authenticate.ts';
import { badRequest } from './errors.ts';
import type { Ctx, Reply } from './http.ts';
import type { AuthService } from './service.ts';

export async function logout(svc: AuthService, ctx: Ctx): Promise<Reply> {
  const scope = ctx.url.searchParams.get('scope') ?? '';
  if (!['', 'global', 'local', 'others'].includes(scope)) {
    throw badRequest('validation_failed', `Unsupported logout scope "${scope}"`);
  }
  const { user, sessionId } = signedInUser(ctx);
  if (sessionId === null || scope === '' || scope === 'global') {
    await svc.pool.query('delete from auth.sessions where user_id = $1', [user.id]);
  } else if (scope === 'local') {
    await svc.pool.query('delete from auth.sessions where id = $1', [sessionId]);
  } else {
    await svc.pool.query('delete from auth.sessions where user_id = $1 and id <> $2', [
      user.id,
      sessionId,
    ]);
  }
  await audit(svc.pool, ctx, user, 'logout', 'account');
  return { status: 204 };
}
