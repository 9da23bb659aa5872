// Who may read and write the feed tables and call the feed RPCs (REQ-FEED-1, REQ-FEED-2,
// REQ-FEED-5, REQ-FEED-6; docs/decisions/0240), over HTTP with supabase-js: anon and a
// signed-in shopper nothing; admins configure sources and read runs but never write runs or
// call the sync RPCs; the sync RPCs are the service role's; the feed-uploads bucket is admins'.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteUsers } from './db-test-helpers.ts';
import { OfferFixtures, service } from './offers-support.ts';
import {
  anonClient,
  createAdmin,
  createConfirmedUser,
  signedInClient,
  type TestUser,
} from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

const f = new OfferFixtures();
const users: TestUser[] = [];
let admin: SupabaseClient;
let shopper: SupabaseClient;
const anon = anonClient();
let sellerId: string;
let sourceId: string;

beforeAll(async () => {
  await f.setUp();
  const a = await createAdmin();
  const s = await createConfirmedUser();
  users.push(a, s);
  admin = await signedInClient(a);
  shopper = await signedInClient(s);
  sellerId = (await f.seller()).id;
  const { data, error } = await admin
    .from('feed_sources')
    .insert({
      name: uniqueId('Feed RLS'),
      seller_id: sellerId,
      url: 'https://feeds.example/a.csv',
      mapping: { link: 'l', price: 'p' },
    })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  sourceId = data.id as string;
});

afterAll(async () => {
  await service.from('feed_sources').delete().like('name', 'Feed RLS%');
  await f.tearDown();
  await deleteUsers(service, users);
});

const TABLES = ['feed_sources', 'feed_runs', 'feed_unmatched', 'feed_held_changes'];
const SYNC = [
  ['feed_sync_claim', { p_max: 1 }],
  ['feed_sync_take', { p_run_id: '00000000-0000-0000-0000-000000000000' }],
  ['feed_sync_progress', { p_run_id: '00000000-0000-0000-0000-000000000000', p_patch: {} }],
  ['feed_stage_rows', { p_run_id: '00000000-0000-0000-0000-000000000000', p_rows: [] }],
  ['feed_run_restart', { p_run_id: '00000000-0000-0000-0000-000000000000' }],
  ['feed_run_unchanged', { p_run_id: '00000000-0000-0000-0000-000000000000', p_http_status: 304 }],
  ['feed_run_fail', { p_run_id: '00000000-0000-0000-0000-000000000000', p_error: 'x' }],
  [
    'feed_run_staged',
    { p_run_id: '00000000-0000-0000-0000-000000000000', p_etag: null, p_last_modified: null },
  ],
  ['feed_run_apply', { p_run_id: '00000000-0000-0000-0000-000000000000' }],
] as const;

describe('feed tables (REQ-FEED-1)', () => {
  for (const table of TABLES) {
    it(`REQ-FEED-1 anon and a shopper read nothing of ${table}`, async () => {
      const a = await anon.from(table).select('*').limit(1);
      expect(a.error?.code).toBe('42501');
      const s = await shopper.from(table).select('*').limit(1);
      expect(s.error).toBeNull();
      expect(s.data).toEqual([]);
    });
  }

  it('REQ-FEED-1 a shopper cannot add a feed; an admin can, with clear messages for bad values', async () => {
    const s = await shopper.from('feed_sources').insert({
      name: uniqueId('Feed RLS'),
      seller_id: sellerId,
      url: 'https://a.example/x',
      mapping: { link: 'l', price: 'p' },
    });
    expect(s.error?.code).toBe('42501');
    const bad = await admin.from('feed_sources').insert({
      name: uniqueId('Feed RLS'),
      seller_id: sellerId,
      url: 'https://a.example/x',
      mapping: { link: 'l', price: 'p', evil: 'x' },
    });
    expect(bad.error?.hint).toBe('mapping');
    const badUrl = await admin.from('feed_sources').insert({
      name: uniqueId('Feed RLS'),
      seller_id: sellerId,
      url: "javascript:alert('x')",
      mapping: { link: 'l', price: 'p' },
    });
    expect(badUrl.error?.hint).toBe('url');
  });

  it('REQ-FEED-1 admins cannot write the sync columns, runs or counters', async () => {
    const etag = await admin.from('feed_sources').update({ etag: 'forged' }).eq('id', sourceId);
    expect(etag.error?.code).toBe('42501');
    const run = await admin.from('feed_runs').insert({ source_id: sourceId, trigger: 'manual' });
    expect(run.error?.code).toBe('42501');
    const forge = await admin.from('feed_runs').update({ added: 1000 }).eq('source_id', sourceId);
    expect(forge.error?.code).toBe('42501');
  });
});

describe('feed RPCs (REQ-FEED-2, REQ-FEED-5)', () => {
  for (const [name, args] of SYNC) {
    it(`REQ-FEED-2 ${name} is the service role's only`, async () => {
      for (const client of [anon, shopper, admin]) {
        const r = await client.rpc(name, args);
        expect(r.error, name).not.toBeNull();
        expect(['42501', 'PGRST202']).toContain(r.error!.code);
      }
    });
  }

  it('REQ-FEED-5 admin RPCs refuse a shopper (42501) and anon', async () => {
    const s = await shopper.rpc('feed_run_request', { p_source_id: sourceId });
    expect(s.error?.code).toBe('42501');
    const a = await anon.rpc('feed_unmatched_ignore', { p_ids: [] });
    expect(a.error).not.toBeNull();
  });

  it('REQ-FEED-2 a batch over 5,000 rows is refused', async () => {
    const { data: runId } = await admin.rpc('feed_run_request', { p_source_id: sourceId });
    await service.rpc('feed_sync_take', { p_run_id: runId });
    const rows = Array.from({ length: 5001 }, (_, i) => ({
      line: i + 1,
      link: 'https://a.example/x',
      price: '1',
    }));
    const r = await service.rpc('feed_stage_rows', { p_run_id: runId, p_rows: rows });
    expect(r.error?.hint).toBe('rows');
    await service.rpc('feed_run_fail', { p_run_id: runId, p_error: 'test' });
  });
});

describe('feed-uploads bucket (REQ-FEED-1, REQ-FEED-6)', () => {
  it('REQ-FEED-1 admins upload and read; a shopper and anon cannot', async () => {
    const path = `${uniqueId('rls')}.csv`;
    const up = await admin.storage.from('feed-uploads').upload(path, new Blob(['a,b\n']));
    expect(up.error).toBeNull();
    const s = await shopper.storage.from('feed-uploads').download(path);
    expect(s.error).not.toBeNull();
    const a = await anon.storage.from('feed-uploads').upload(`x-${path}`, new Blob(['a']));
    expect(a.error).not.toBeNull();
    await admin.storage.from('feed-uploads').remove([path]);
  });
});
