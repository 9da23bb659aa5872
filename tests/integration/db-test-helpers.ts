// Shared helpers for the database integration tests (RLS matrix, catalogue rules, admin model).
// Everything goes through supabase-js over HTTP against the throwaway stack that
// tests/integration/global-setup.ts starts; the service role is the independent observer that
// checks what a request really changed.
import type { SupabaseClient } from '@supabase/supabase-js';
import { anonClient, serviceClient, type TestUser } from '../support/stack.ts';

/** Whether `userId` has a row in public.admins (as the service role sees it). */
export async function isAdminRow(userId: string, service = serviceClient()): Promise<boolean> {
  const { data, error } = await service.from('admins').select('user_id').eq('user_id', userId);
  if (error) throw new Error(error.message);
  return data.length === 1;
}

/**
 * Signs up through the public Auth API, as anyone on the internet could; the account is added to
 * `users` for clean-up. Confirmation is required, so no session comes back.
 */
export async function publicSignUp(
  users: TestUser[],
  email: string,
  password: string,
  data: Record<string, unknown> = {},
): Promise<TestUser> {
  const { data: res, error } = await anonClient().auth.signUp({
    email,
    password,
    options: { data: { display_name: 'Someone', ...data } },
  });
  if (error || !res.user) throw new Error(`signUp(${email}) failed: ${error?.message}`);
  if (res.session) throw new Error(`signUp(${email}) returned a session before confirmation`);
  const user = { id: res.user.id, email, password };
  users.push(user);
  return user;
}

/** Removes test accounts (admins rows cascade) and any invites for their e-mails. */
export async function deleteUsers(service: SupabaseClient, users: TestUser[]): Promise<void> {
  for (const u of users) {
    await service.auth.admin.deleteUser(u.id);
    await service.from('admin_invites').delete().eq('email', u.email);
  }
}

/** Seed-independent product fields; callers add title and cat. */
export function productFields(cat: string, title: string, price = '£10.00') {
  return {
    title,
    cat,
    price,
    image: '/products/match-football.svg',
    com: 'Integration test product',
    link: 'https://shop.example.com/test',
  };
}

/**
 * The seeded catalogue as the service role sees it, for "left as found" checks: other test files
 * share the stack, so a test file must not leave changes behind.
 */
export async function catalogueSnapshot(service: SupabaseClient): Promise<unknown> {
  const [cats, products] = await Promise.all([
    service.from('catagories').select('id, title, created_at').order('id'),
    service
      .from('products')
      .select('id, title, cat, image, price, com, link, created_at')
      .order('id'),
  ]);
  if (cats.error || products.error) throw new Error((cats.error ?? products.error)!.message);
  return { catagories: cats.data, products: products.data };
}
