// The feed RPCs' rows of the function matrix (REQ-FEED-2, REQ-FEED-5; docs/decisions/0240):
// sync RPCs are the service role's, admin RPCs the admins'. Each call gets a feed of its own
// (and a run in the state the RPC needs), removed afterwards.
import { expect } from 'vitest';
import { serviceClient, sql } from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

type Role = 'anon' | 'user' | 'admin' | 'service_role';
interface FunctionSpec {
  allowed: Role[];
  args(): Promise<Record<string, unknown>>;
  expected(role: Role): unknown;
  after?(role: Role, allowed: boolean, args: Record<string, unknown>): Promise<void>;
}

const service = serviceClient();
const sources: string[] = [];

async function feed(): Promise<string> {
  const [seller] = await sql<{ id: string }>('select id from public.sellers limit 1');
  const { data, error } = await service
    .from('feed_sources')
    .insert({
      name: uniqueId('Feed Matrix'),
      seller_id: seller!.id,
      url: 'https://feeds.example/matrix.csv',
      mapping: { link: 'l', price: 'p' },
    })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  sources.push(data.id as string);
  return data.id as string;
}

async function run(status: string): Promise<string> {
  const [r] = await sql<{ id: string }>(
    `insert into public.feed_runs (source_id, trigger, status, heartbeat_at)
     values ($1, 'manual', $2, now()) returning id`,
    [await feed(), status],
  );
  return r!.id;
}

const cleanUp = async () => {
  if (sources.length) await service.from('feed_sources').delete().in('id', sources.splice(0));
};
const sync = (args: () => Promise<Record<string, unknown>>, expected: unknown): FunctionSpec => ({
  allowed: ['service_role'],
  args,
  expected: () => expected,
  after: cleanUp,
});

export const FEED_FUNCTIONS: Record<string, FunctionSpec> = {
  'feed_sync_claim(integer)': sync(async () => ({ p_max: 1 }), expect.any(Array)),
  'feed_sync_take(uuid)': sync(
    async () => ({ p_run_id: await run('queued') }),
    expect.objectContaining({ run: expect.objectContaining({ status: 'fetching' }) }),
  ),
  'feed_sync_progress(uuid,jsonb)': sync(
    async () => ({ p_run_id: await run('fetching'), p_patch: { rows_read: 1 } }),
    null,
  ),
  'feed_stage_rows(uuid,jsonb)': sync(
    async () => ({ p_run_id: await run('fetching'), p_rows: [] }),
    0,
  ),
  'feed_run_restart(uuid)': sync(async () => ({ p_run_id: await run('fetching') }), null),
  'feed_run_unchanged(uuid,integer)': sync(
    async () => ({ p_run_id: await run('fetching'), p_http_status: 304 }),
    expect.objectContaining({ rowsRead: 0 }),
  ),
  'feed_run_fail(uuid,text)': sync(
    async () => ({ p_run_id: await run('fetching'), p_error: 'Matrix' }),
    expect.objectContaining({ error: 'Matrix' }),
  ),
  'feed_run_staged(uuid,text,text)': sync(
    async () => ({ p_run_id: await run('fetching'), p_etag: null, p_last_modified: null }),
    null,
  ),
  'feed_run_apply(uuid)': sync(
    async () => ({ p_run_id: await run('staged') }),
    expect.objectContaining({ rowsRead: 0 }),
  ),
  'feed_run_request(uuid)': {
    allowed: ['admin'],
    args: async () => ({ p_source_id: await feed() }),
    expected: () => expect.any(String),
    after: cleanUp,
  },
  'feed_unmatched_ignore(uuid[])': {
    allowed: ['admin'],
    args: async () => ({ p_ids: [] }),
    expected: () => 0,
  },
  'feed_unmatched_reopen(uuid[])': {
    allowed: ['admin'],
    args: async () => ({ p_ids: [] }),
    expected: () => 0,
  },
  'feed_held_decide(uuid[],boolean)': {
    allowed: ['admin'],
    args: async () => ({ p_ids: [], p_apply: false }),
    expected: () => 0,
  },
  'feed_unmatched_create_product(uuid,text,text)': {
    allowed: ['admin'],
    args: async () => {
      const title = uniqueId('Feed Matrix Product');
      const [u] = await sql<{ id: string }>(
        `insert into public.feed_unmatched (source_id, match_key, title, link, price, image)
         values ($1, $2, $2, 'https://feeds.example/p', '£5.00', 'https://feeds.example/p.jpg')
         returning id`,
        [await feed(), title],
      );
      return { p_id: u!.id, p_cat: 'Tennis', p_com: 'From the function matrix' };
    },
    expected: () => expect.any(String),
    after: async (_role, allowed, args) => {
      if (allowed) {
        const [u] = await sql<{ product_id: string }>(
          'select product_id from public.feed_unmatched where id = $1',
          [args.p_id],
        );
        if (u?.product_id) await service.from('products').delete().eq('id', u.product_id);
      }
      await cleanUp();
    },
  },
};
