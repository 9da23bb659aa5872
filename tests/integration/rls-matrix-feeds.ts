// The feed tables' rows of the RLS matrix (REQ-FEED-1; docs/decisions/0240): admins configure
// feed sources and read runs, unmatched rows and held changes; only the sync RPCs write those
// (so the service role reads them through the table and writes through the RPCs).
import { randomUUID } from 'node:crypto';
import { serviceClient, sql } from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

type Role = 'anon' | 'user' | 'admin' | 'service_role';
type Action = 'select' | 'insert' | 'update' | 'delete';
type Row = Record<string, unknown>;
interface TableSpec {
  expect: Record<Role, Action[]>;
  fixture(): Promise<{ key: string; value: unknown }>;
  newRow(): Promise<{ row: Row; key: string; value: unknown }>;
  change(): { column: string; value: unknown };
}

const ADMIN_READS: Record<Role, Action[]> = {
  anon: [],
  user: [],
  admin: ['select'],
  service_role: ['select'],
};

async function sellerId(): Promise<string> {
  const [s] = await sql<{ id: string }>('select id from public.sellers order by id limit 1');
  return s!.id;
}

const sourceRow = async (): Promise<Row> => ({
  name: uniqueId('Feed RLS Matrix'),
  seller_id: await sellerId(),
  url: 'https://feeds.example/m.csv',
  mapping: { link: 'l', price: 'p' },
});

async function newSource(): Promise<string> {
  const { data, error } = await serviceClient()
    .from('feed_sources')
    .insert(await sourceRow())
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  return data.id as string;
}

async function newRun(): Promise<string> {
  const [r] = await sql<{ id: string }>(
    `insert into public.feed_runs (source_id, trigger, status) values ($1, 'manual', 'done')
     returning id`,
    [await newSource()],
  );
  return r!.id;
}

export async function cleanUpFeeds(): Promise<void> {
  await serviceClient().from('feed_sources').delete().like('name', 'Feed RLS Matrix%');
}

export const FEED_TABLES: Record<string, TableSpec> = {
  feed_sources: {
    expect: {
      anon: [],
      user: [],
      admin: ['select', 'insert', 'update', 'delete'],
      service_role: ['select', 'insert', 'update', 'delete'],
    },
    fixture: async () => ({ key: 'id', value: await newSource() }),
    async newRow() {
      const row = await sourceRow();
      return { row, key: 'name', value: row.name };
    },
    change: () => ({ column: 'max_change_pct', value: 77 }),
  },
  feed_runs: {
    expect: ADMIN_READS,
    fixture: async () => ({ key: 'id', value: await newRun() }),
    async newRow() {
      const source = await newSource();
      return {
        row: { source_id: source, trigger: 'manual', status: 'done', added: 1000 },
        key: 'source_id',
        value: source,
      };
    },
    change: () => ({ column: 'added', value: 1000 }),
  },
  feed_unmatched: {
    expect: ADMIN_READS,
    async fixture() {
      const key = randomUUID();
      await sql(
        `insert into public.feed_unmatched (source_id, match_key, link, price)
         values ($1, $2, 'https://feeds.example/u', '1')`,
        [await newSource(), key],
      );
      return { key: 'match_key', value: key };
    },
    async newRow() {
      const key = randomUUID();
      return {
        row: { source_id: await newSource(), match_key: key, link: 'https://feeds.example/u' },
        key: 'match_key',
        value: key,
      };
    },
    change: () => ({ column: 'status', value: 'ignored' }),
  },
  feed_held_changes: {
    expect: ADMIN_READS,
    async fixture() {
      const [o] = await sql<{ id: string; product_id: string }>(
        'select id, product_id from public.offers order by id limit 1',
      );
      const [h] = await sql<{ id: string }>(
        `insert into public.feed_held_changes (source_id, offer_id, product_id, old_price,
                                               new_price, change)
         values ($1, $2, $3, 1, 100, '{}') returning id`,
        [await newSource(), o!.id, o!.product_id],
      );
      return { key: 'id', value: h!.id };
    },
    async newRow() {
      const [o] = await sql<{ id: string; product_id: string }>(
        'select id, product_id from public.offers order by id limit 1',
      );
      const source = await newSource();
      return {
        row: { source_id: source, offer_id: o!.id, product_id: o!.product_id, change: {} },
        key: 'source_id',
        value: source,
      };
    },
    change: () => ({ column: 'status', value: 'applied' }),
  },
};
