// The function matrix's shape and its two-factor rows (REQ-MFA-2; docs/decisions/0251). Besides
// anon, a signed-in non-admin, an admin without a factor and the service role, every function is
// called by an admin with a verified factor at aal1 (the rights of a non-admin) and at aal2 (an
// admin's), unless its row names their cells itself (`mfa`).
import { expect } from 'vitest';
import { addVerifiedFactor, type BaseRole } from './admin-mfa-support.ts';
import { createAdmin, sql, type TestUser } from '../support/stack.ts';

export interface FunctionSpec {
  /** Roles whose call goes through; the others get 42501. */
  allowed: BaseRole[];
  args(): Promise<Record<string, unknown>>;
  /** What an allowed call answers for this role. */
  expected(role: BaseRole): unknown;
  /** Checks afterwards that a refused call changed nothing (and cleans up an allowed one). */
  after?(role: BaseRole, allowed: boolean, args: Record<string, unknown>): Promise<void>;
  /** Cells of the two-factor roles that differ from the rights they stand for. */
  mfa?: Partial<Record<'admin_aal1' | 'admin_aal2', { allowed: boolean; expected: unknown }>>;
}

/** The rows of the two-factor RPCs; `users` collects the accounts made, for the clean-up. */
export function mfaFunctions(users: TestUser[]): Record<string, FunctionSpec> {
  return {
    // The SPA asks after sign-in what the session lacks for admin rights.
    'my_admin_access()': {
      allowed: ['user', 'admin'],
      args: async () => ({}),
      expected: (role) => ({ admin: role === 'admin', needs: 'none' }),
      mfa: { admin_aal1: { allowed: true, expected: { admin: true, needs: 'code' } } },
    },
    // Lost phone: an admin with admin rights removes a colleague's factor.
    'admin_remove_colleague_factor(uuid)': {
      allowed: ['admin'],
      async args() {
        const colleague = await createAdmin();
        users.push(colleague);
        return { p_factor_id: await addVerifiedFactor(colleague.id, 'Matrix phone') };
      },
      expected: () => expect.any(String),
      async after(_role, allowed, args) {
        const rows = await sql('select 1 from auth.mfa_factors where id = $1', [args.p_factor_id]);
        expect(rows, allowed ? 'factor removed' : 'factor kept').toHaveLength(allowed ? 0 : 1);
      },
    },
    // The Admins tab's view of who uses two-factor sign-in (ids and dates, no secret).
    'admin_factors()': {
      allowed: ['admin'],
      args: async () => ({}),
      expected: () => expect.any(Array),
    },
    // Auth's MFA verification attempt hook (decision 0253): only supabase_auth_admin runs it; an
    // API role could otherwise reset or inflate an account's count of wrong codes.
    'hook_mfa_verification_attempt(jsonb)': {
      allowed: [],
      async args() {
        const target = await createAdmin();
        users.push(target);
        return {
          event: {
            user_id: target.id,
            factor_id: crypto.randomUUID(),
            factor_type: 'totp',
            valid: false,
          },
        };
      },
      expected: () => null,
      async after(_role, _allowed, args) {
        const event = args.event as { user_id: string };
        const rows = await sql('select 1 from private.mfa_failed_attempts where user_id = $1', [
          event.user_id,
        ]);
        expect(rows, 'no wrong code counted').toHaveLength(0);
      },
    },
  };
}
