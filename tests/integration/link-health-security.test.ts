// Link health, hostile side (REQ-INS-4, REQ-INS-5): who may run checks, that nobody can forge a
// result, and that stale results are dropped. The table/function matrices cover every role
// and action; this file tries the attacks with real rows.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLinkServer, type LinkServer } from '../support/link-servers';
import { deleteUsers } from './db-test-helpers.ts';
import {
  anonClient,
  createConfirmedUser,
  serviceClient,
  signedInClient,
  type TestUser,
  createAdmin,
} from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

const service = serviceClient();
const users: TestUser[] = [];
let admin: SupabaseClient;
let shopper: SupabaseClient;
let site: LinkServer;
let cat: string;
let brokenId: string;
let fineId: string;

async function invokeAs(client: SupabaseClient, body: object) {
  const { data, error } = await client.functions.invoke('link-health', { body });
  return { data, status: (error as { context?: Response } | null)?.context?.status ?? 200 };
}

beforeAll(async () => {
  site = await startLinkServer();
  const adminUser = await createAdmin();
  const plain = await createConfirmedUser();
  users.push(adminUser, plain);
  admin = await signedInClient(adminUser);
  shopper = await signedInClient(plain);
  cat = uniqueId('Link Security Cat');
  await service.from('catagories').insert({ title: cat });
  const insert = async (path: string) => {
    const { data, error } = await service
      .from('products')
      .insert({
        title: uniqueId(`Link Security ${path}`),
        cat,
        price: '£5',
        com: 'Link health security test product',
        link: `${site.origin}${path}`,
        image: '/products/match-football.svg',
      })
      .select('id')
      .single();
    if (error) throw new Error(error.message);
    return data.id as string;
  };
  brokenId = await insert('/missing');
  fineId = await insert('/ok');
});

afterAll(async () => {
  await service.from('products').delete().eq('cat', cat);
  await service.from('catagories').delete().eq('title', cat);
  await deleteUsers(service, users);
  await site?.close();
});

describe('who may run the link checker', () => {
  it('anon and signed-in shoppers are refused and nothing is checked', async () => {
    const body = { mode: 'products', ids: [brokenId], timeoutMs: 1000 };
    // No session (the anon key): 401 or 403, either way refused before anything is fetched.
    expect([401, 403]).toContain((await invokeAs(anonClient(), body)).status);
    expect((await invokeAs(shopper, body)).status).toBe(403);
    expect(site.requests).toEqual([]);
    const { data } = await service.from('link_checks').select('status').eq('product_id', brokenId);
    expect(data).toEqual([]);
  });

  it('a made-up bearer token is refused', async () => {
    const res = await fetch(`${process.env.API_URL}/functions/v1/link-health`, {
      method: 'POST',
      headers: {
        apikey: process.env.ANON_KEY!,
        authorization: 'Bearer not-a-key',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ mode: 'due', limit: 1 }),
    });
    expect(res.status).toBe(401);
  });

  it('admins may, and so may the schedule with the service role key', async () => {
    const asAdmin = await invokeAs(admin, {
      mode: 'products',
      ids: [brokenId, fineId],
      timeoutMs: 2000,
    });
    expect(asAdmin.status).toBe(200);
    // One failed check is not broken yet (REQ-OFF-6).
    expect(asAdmin.data).toMatchObject({ checked: 2, counts: { failing: 1, ok: 1 } });
    const asSchedule = await invokeAs(service, {
      mode: 'products',
      ids: [fineId],
      timeoutMs: 2000,
    });
    expect(asSchedule.status).toBe(200);
  });
});

describe('the address guard inside the deployed function', () => {
  it('refuses links to special-purpose and translated addresses without connecting', async () => {
    // IPv4 inside SIIT and local-use NAT64 (the metadata address where translated), Teredo,
    // documentation space: each was public to the guard before the full IANA table.
    const targets: Array<[string, string]> = [
      ['http://[::ffff:0:a9fe:a9fe]/latest/meta-data/', 'link-local'],
      ['http://[64:ff9b:1::a9fe:a9fe]/latest/meta-data/', 'link-local'],
      ['http://[2001::1]/', 'reserved'],
      ['http://[3fff::1]/', 'reserved'],
    ];
    const ids: string[] = [];
    for (const [link] of targets) {
      const { data, error } = await service
        .from('products')
        .insert({
          title: uniqueId('Link Security special'),
          cat,
          price: '£5',
          com: 'Link health security test product',
          link,
          image: '/products/match-football.svg',
        })
        .select('id')
        .single();
      if (error) throw new Error(error.message);
      ids.push(data.id as string);
    }
    const run = await invokeAs(admin, { mode: 'products', ids, timeoutMs: 2000 });
    expect(run.status).toBe(200);
    const { data } = await service
      .from('link_checks')
      .select('product_id, status, detail')
      .in('product_id', ids)
      .eq('kind', 'link');
    for (const [i, [link, kind]] of targets.entries()) {
      const host = new URL(link).hostname.replace(/^\[|\]$/g, '');
      expect(
        data!.find((r) => r.product_id === ids[i]),
        link,
      ).toMatchObject({
        status: 'unreachable',
        detail: `refused: ${kind} address (${host})`,
      });
    }
  });
});

describe('nobody forges a result', () => {
  it('an admin cannot write link_checks directly or through record_link_checks', async () => {
    const forged = {
      product_id: brokenId,
      kind: 'link',
      url: `${site.origin}/missing`,
      status: 'ok',
    };
    const insert = await admin.from('link_checks').insert(forged);
    expect(insert.error).not.toBeNull();
    const update = await admin
      .from('link_checks')
      .update({ status: 'ok' })
      .eq('product_id', brokenId);
    expect(update.error).not.toBeNull();
    const rpc = await admin.rpc('record_link_checks', { p_results: [forged] });
    expect(rpc.error?.code).toBe('42501');
    const del = await admin.from('link_checks').delete().eq('product_id', brokenId);
    expect(del.error).not.toBeNull();
    const { data } = await service
      .from('link_checks')
      .select('status')
      .eq('product_id', brokenId)
      .eq('kind', 'link');
    expect(data).toEqual([{ status: 'failing' }]);
  });

  it('shoppers and anon read no results and no settings', async () => {
    for (const client of [anonClient(), shopper]) {
      const checks = await client.from('link_checks').select('*').eq('product_id', brokenId);
      expect(checks.data ?? []).toEqual([]);
      const settings = await client.from('link_health_settings').select('*');
      expect(settings.data ?? []).toEqual([]);
      const change = await client
        .from('link_health_settings')
        .update({ hide_broken_links: true })
        .eq('id', true)
        .select();
      expect(change.data ?? []).toEqual([]);
    }
  });

  it('a result for a URL the product no longer has is not stored', async () => {
    const { data, error } = await service.rpc('record_link_checks', {
      p_results: [
        { product_id: fineId, kind: 'link', url: 'https://elsewhere.example/', status: 'broken' },
      ],
    });
    expect(error).toBeNull();
    expect(data).toBe(0);
  });
});

// Hiding itself (the store-wide switch) is tested in the browser (e2e/admin-link-health.spec.ts),
// on a stack of its own: the switch is global, and turning it on here would race the RLS matrix's
// "changed nothing" checks of the settings row, which run in parallel on this stack.
describe('results follow the product', () => {
  it('a changed seller link drops its old result (a fixed link is no longer broken)', async () => {
    // The second failed check in a row (the first was above): confirmed broken.
    await invokeAs(admin, { mode: 'products', ids: [brokenId], timeoutMs: 2000 });
    const { data: before } = await service
      .from('link_checks')
      .select('status')
      .eq('product_id', brokenId);
    expect(before).toEqual([{ status: 'broken' }]);
    const { error } = await admin
      .from('products')
      .update({ link: `${site.origin}/ok?fixed=1` })
      .eq('id', brokenId);
    expect(error).toBeNull();
    const { data: left } = await service
      .from('link_checks')
      .select('kind')
      .eq('product_id', brokenId);
    expect(left).toEqual([]);
  });

  it('a check never writes the product row (updated_at stays, so no activity-log entry)', async () => {
    const before = await service.from('products').select('updated_at').eq('id', fineId).single();
    await invokeAs(admin, { mode: 'products', ids: [fineId], timeoutMs: 2000 });
    const after = await service.from('products').select('updated_at').eq('id', fineId).single();
    expect(after.data).toEqual(before.data);
  });
});
