// What a migration may do to the auth and storage tables is what hosted lets it do (decision
// 0204, stack/PLATFORM.md: Roles): `postgres` (the role `supabase db push` connects as) owns
// none of them and is no member of their owners, and supautils' policy_grants and
// drop_trigger_grants (stack/db/policy-grants.sql) let it manage policies and drop triggers on
// hosted's fixed list of tables, nothing else. Each statement runs as `postgres`, as a migration.
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

const probe = uniqueId('it_priv').replace(/-/g, '_');

afterAll(async () => {
  await sql(`drop policy if exists "${probe}" on auth.users`).catch(() => undefined);
  await sql(`drop trigger if exists ${probe} on auth.users`).catch(() => undefined);
  await sql(`drop function if exists public.${probe}()`).catch(() => undefined);
});

async function isMember(role: string): Promise<boolean> {
  const [row] = await sql<{ member: boolean }>(
    `select pg_has_role('postgres', $1, 'MEMBER') as member`,
    [role],
  );
  return row!.member;
}

describe('what fails on hosted fails here', () => {
  it.each([
    ['alter table storage.objects add column it_extra text', 'must be owner of table objects'],
    ['create index on storage.objects (created_at)', 'must be owner of table objects'],
    ['alter table storage.objects disable row level security', 'must be owner of table objects'],
    ['alter table auth.users add column it_extra text', 'must be owner of table users'],
    [
      'create function storage.it_probe() returns int language sql as $$ select 1 $$',
      'permission denied for schema storage',
    ],
    [
      'create policy "it probe" on auth.flow_state for select using (true)',
      'must be owner of table flow_state',
    ],
  ])('%s', async (statement, message) => {
    await expect(sql(statement)).rejects.toThrow(message);
    expect(await isMember('supabase_storage_admin')).toBe(false);
    expect(await isMember('supabase_auth_admin')).toBe(false);
  });
});

describe('what hosted’s supautils allows applies here', () => {
  it('a policy on auth.users is created, changed and dropped', async () => {
    await sql(`create policy "${probe}" on auth.users for select to authenticated
                 using ((select auth.uid()) = id)`);
    expect(
      await sql(`select tablename from pg_policies where schemaname = 'auth' and policyname = $1`, [
        probe,
      ]),
    ).toEqual([{ tablename: 'users' }]);
    await sql(`alter policy "${probe}" on auth.users using (false)`);
    await sql(`drop policy "${probe}" on auth.users`);
    expect(await sql(`select 1 from pg_policies where policyname = $1`, [probe])).toHaveLength(0);
    // The owners' rights were lent for those statements only.
    expect(await isMember('supabase_auth_admin')).toBe(false);
    expect(await isMember('supabase_storage_admin')).toBe(false);
  });

  it('a trigger on auth.users is created and dropped by postgres', async () => {
    await sql(`create function public.${probe}() returns trigger language plpgsql
                 set search_path = '' as $$ begin return new; end $$`);
    await sql(`create trigger ${probe} after insert on auth.users
                 for each row execute function public.${probe}()`);
    await sql(`drop trigger ${probe} on auth.users`);
    expect(await sql(`select 1 from pg_trigger where tgname = $1`, [probe])).toHaveLength(0);
  });

  it('a refused statement in a transaction leaves no membership behind', async () => {
    await expect(
      sql(`begin;
           create policy "${probe}" on auth.users for select using (true);
           alter table storage.objects add column it_extra text;
           commit;`),
    ).rejects.toThrow('must be owner of table objects');
    expect(await isMember('supabase_auth_admin')).toBe(false);
    expect(await sql(`select 1 from pg_policies where policyname = $1`, [probe])).toHaveLength(0);
  });
});
