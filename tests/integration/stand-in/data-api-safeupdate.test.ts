// The Data API refuses an UPDATE or DELETE without WHERE as hosted Supabase does (its Postgres
// loads `safeupdate` for the API roles; PostgREST answers 400 with SQLSTATE 21000): supabase-js
// requests without a filter, on a throwaway table whose rows must survive them, and the filtered
// requests that must still go through (docs/decisions/0201, stack/safeupdate.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, serviceClient, sql, stackEnv, waitForTable } from '../../support/stack.ts';
import { uniqueId } from '../../support/names.ts';

const table = uniqueId('safeupdate_probe').replace(/-/g, '_');

const refusal = (command: 'UPDATE' | 'DELETE') => ({
  code: '21000',
  details: null,
  hint: null,
  message: `${command} requires a WHERE clause`,
});

/** The error's fields as PostgREST sent them (supabase-js keeps them on its error object). */
function fields(error: { code: string; details: unknown; hint: unknown; message: string } | null) {
  return (
    error && { code: error.code, details: error.details, hint: error.hint, message: error.message }
  );
}

async function ids(): Promise<number[]> {
  const rows = await sql<{ id: number }>(`select id from public.${table} order by id`);
  return rows.map((r) => r.id);
}

describe('the Data API and UPDATE/DELETE without WHERE', () => {
  beforeAll(async () => {
    await sql(`create table public.${table} (id int primary key, n int not null default 0)`);
    await sql(`alter table public.${table} enable row level security`);
    await sql(`grant select, update, delete on public.${table} to service_role`);
    await sql(`insert into public.${table} (id) select generate_series(1, 5)`);
    await waitForTable(table);
  });
  afterAll(async () => {
    await sql(`drop table if exists public.${table}`);
  });

  it('refuses a delete without filter with 400 and 21000, and deletes nothing', async () => {
    const { error, status, data } = await serviceClient().from(table).delete();
    expect(status).toBe(400);
    expect(data).toBeNull();
    expect(fields(error)).toEqual(refusal('DELETE'));
    expect(await ids()).toEqual([1, 2, 3, 4, 5]);
  });

  it('refuses an update without filter, with or without select, and changes nothing', async () => {
    const service = serviceClient();
    const plain = await service.from(table).update({ n: 9 });
    expect(plain.status).toBe(400);
    expect(fields(plain.error)).toEqual(refusal('UPDATE'));
    const returning = await service.from(table).update({ n: 9 }).select('id').order('id');
    expect(returning.status).toBe(400);
    expect(fields(returning.error)).toEqual(refusal('UPDATE'));
    const [{ n }] = await sql<{ n: string }>(`select sum(n) as n from public.${table}`);
    expect(Number(n)).toBe(0);
  });

  it('gives anon the same answer, before any privilege check (as hosted)', async () => {
    const { error, status } = await anonClient().from('products').delete();
    expect(status).toBe(400);
    expect(fields(error)).toEqual(refusal('DELETE'));
  });

  it('lets filtered updates and deletes through', async () => {
    const service = serviceClient();
    const updated = await service.from(table).update({ n: 1 }).gte('id', 4).select('id');
    expect(updated.error).toBeNull();
    expect(updated.data).toHaveLength(2);
    const either = await service.from(table).update({ n: 2 }).or('id.eq.1,id.eq.2').select('id');
    expect(either.error).toBeNull();
    expect(either.data).toHaveLength(2);
    const deleted = await service.from(table).delete().eq('id', 5);
    expect(deleted.error).toBeNull();
    expect(await ids()).toEqual([1, 2, 3, 4]);
  });

  it('keeps the refusal to the table route (functions and other services are untouched)', async () => {
    const env = stackEnv();
    const headers = { apikey: env.SERVICE_ROLE_KEY };
    // PostgREST's own answer for a function called with PATCH (PGRST101), not 21000.
    const rpc = await fetch(`${env.REST_URL}/rpc/search_key`, { method: 'PATCH', headers });
    expect(rpc.status).toBe(405);
    expect(((await rpc.json()) as { code: string }).code).toBe('PGRST101');
    // A filter the API key's query parameter stands beside still counts as a filter.
    const keyed = await fetch(`${env.REST_URL}/${table}?id=eq.4&apikey=${env.SERVICE_ROLE_KEY}`, {
      method: 'DELETE',
    });
    expect(keyed.status).toBe(204);
    expect(await ids()).toEqual([1, 2, 3]);
  });
});
