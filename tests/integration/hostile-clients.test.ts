// Hostile clients against the real stack, over HTTP through the gateway: no key, the anon key,
// forged/expired/edited JWTs (wrong secret, alg "none", role or app_metadata edited) and a real
// non-admin's token. None of them may write the catalogue, the admin tables or contact messages,
// nor read contact messages or invites. Every attempt is followed by a service-role snapshot of
// all those tables, so "refused" means "nothing changed", not just "got an error code".
// The hostile clients themselves and the writes they try are in hostile-clients-support.ts.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchFrom, randomLoopbackIp } from '../support/loopback.ts';
import {
  clientWithToken,
  createConfirmedUser,
  serviceClient,
  signedInClient,
  stackEnv,
  type TestUser,
  createAdmin,
} from '../support/stack.ts';
import { deleteUsers, productFields } from './db-test-helpers.ts';
import { uniqueId, uniqueEmail } from '../support/names.ts';
import { headers, hostileClients, writeAttempts, type Hostile } from './hostile-clients-support.ts';

const env = stackEnv();

let admin: TestUser;
let shopper: TestUser;
let shopperToken: string;
let adminToken: string;
let service: SupabaseClient;
let hostiles: Hostile[];
let product: { id: string; title: string };
let category: { id: string; title: string };
let contactId: string;
let inviteEmail: string;
const attempts = { tried: 0, refused: 0 };

async function snapshot(): Promise<string> {
  const tables = ['products', 'catagories', 'admins', 'admin_invites', 'contact_messages'];
  const parts = await Promise.all(
    tables.map((t) =>
      service
        .from(t)
        .select('*')
        .order(t === 'admins' ? 'user_id' : t === 'admin_invites' ? 'email' : 'id'),
    ),
  );
  for (const p of parts) if (p.error) throw new Error(p.error.message);
  return JSON.stringify(parts.map((p) => p.data));
}

beforeAll(async () => {
  service = serviceClient();
  admin = await createAdmin();
  shopper = await createConfirmedUser();
  const shopperClient = await signedInClient(shopper);
  shopperToken = (await shopperClient.auth.getSession()).data.session!.access_token;
  const adminClient = await signedInClient(admin);
  adminToken = (await adminClient.auth.getSession()).data.session!.access_token;

  const cat = await service
    .from('catagories')
    .insert({ title: uniqueId('HostileCat') })
    .select()
    .single();
  if (cat.error) throw new Error(cat.error.message);
  category = cat.data as { id: string; title: string };
  const prod = await service
    .from('products')
    .insert(productFields(category.title, uniqueId('HostileProduct')))
    .select()
    .single();
  if (prod.error) throw new Error(prod.error.message);
  product = prod.data as { id: string; title: string };
  inviteEmail = uniqueEmail('hostile-open-invite');
  const inv = await service.from('admin_invites').insert({ email: inviteEmail });
  if (inv.error) throw new Error(inv.error.message);
  const msg = await service
    .from('contact_messages')
    .insert({ name: 'Hostile Fixture', email: 'fixture@example.test', message: 'fixture' })
    .select('id')
    .single();
  if (msg.error) throw new Error(msg.error.message);
  contactId = (msg.data as { id: string }).id;

  hostiles = hostileClients({ admin, shopperToken, adminToken });
});

afterAll(async () => {
  if (!service) return;
  await service
    .from('products')
    .delete()
    .eq('id', product?.id ?? '');
  await service
    .from('catagories')
    .delete()
    .eq('id', category?.id ?? '');
  await service
    .from('contact_messages')
    .delete()
    .eq('id', contactId ?? '');
  await service
    .from('admin_invites')
    .delete()
    .eq('email', inviteEmail ?? '');
  await deleteUsers(service, [admin, shopper].filter(Boolean));
  console.info(`hostile clients: ${attempts.tried} requests tried, ${attempts.refused} refused`);
});

describe('hostile clients cannot write or read what they must not', () => {
  it('the admin and the service role themselves can (so the refusals below are meaningful)', async () => {
    const res = await fetch(`${env.REST_URL}/contact_messages?id=eq.${contactId}`, {
      headers: { apikey: env.ANON_KEY, Authorization: `Bearer ${adminToken}` },
    });
    expect(await res.json()).toHaveLength(1);
    const inv = await fetch(
      `${env.REST_URL}/admin_invites?email=eq.${encodeURIComponent(inviteEmail)}`,
      {
        headers: { apikey: env.ANON_KEY, Authorization: `Bearer ${adminToken}` },
      },
    );
    expect(await inv.json()).toHaveLength(1);
  });

  it('every hostile client × every write changes nothing', async () => {
    const before = await snapshot();
    const failures: string[] = [];
    for (const h of hostiles) {
      for (const a of writeAttempts({ product, category, shopper, contactId, inviteEmail })) {
        attempts.tried++;
        const res = await fetch(`${env.REST_URL}${a.path}`, {
          method: a.method,
          headers: headers(h, { Prefer: 'return=representation' }),
          body: a.body === undefined ? undefined : JSON.stringify(a.body),
        });
        const text = await res.text();
        // Refused: an error status, or a success that touched no row (RLS filtered them all).
        const touchedNothing = res.ok && (text === '' || text === '[]');
        if (res.status >= 400 || touchedNothing) attempts.refused++;
        else failures.push(`${h.name} / ${a.what}: ${res.status} ${text.slice(0, 200)}`);
        if (res.status >= 500) failures.push(`${h.name} / ${a.what}: server error ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toBe(before);
  });

  it('the same writes through supabase-js with hostile tokens change nothing', async () => {
    const before = await snapshot();
    const failures: string[] = [];
    for (const h of hostiles.filter((x) => x.bearer && x.apikey === env.ANON_KEY)) {
      const c = clientWithToken(h.bearer!);
      const ops = [
        c
          .from('products')
          .insert(productFields(category.title, uniqueId('js')))
          .select(),
        c.from('products').update({ price: '£0.02' }).eq('id', product.id).select(),
        c.from('catagories').delete().eq('id', category.id).select(),
        c.from('admins').insert({ user_id: shopper.id, email: shopper.email }).select(),
        c
          .from('admin_invites')
          .insert({ email: uniqueEmail('js-invite') })
          .select(),
        c
          .from('contact_messages')
          .update({ delivery_status: 'sent', sent_at: new Date().toISOString() })
          .eq('id', contactId)
          .select(),
      ];
      for (const { data, error } of await Promise.all(ops)) {
        attempts.tried++;
        if (error || (Array.isArray(data) && data.length === 0)) attempts.refused++;
        else failures.push(`${h.name}: ${JSON.stringify(data).slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toBe(before);
  });

  it('no hostile client reads contact messages, invites or the admin list', async () => {
    const leaks: string[] = [];
    for (const h of hostiles) {
      for (const path of [
        '/contact_messages?select=*',
        '/admin_invites?select=*',
        '/admins?select=*',
        `/contact_messages?id=eq.${contactId}`,
      ]) {
        attempts.tried++;
        const res = await fetch(`${env.REST_URL}${path}`, { headers: headers(h) });
        const text = await res.text();
        if (res.status >= 400 || text === '[]') attempts.refused++;
        else leaks.push(`${h.name} ${path}: ${res.status} ${text.slice(0, 120)}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it('the contact function does not hand out messages to a hostile token', async () => {
    for (const h of hostiles) {
      attempts.tried++;
      const res = await fetch(`${env.FUNCTIONS_URL}/contact/retry`, {
        method: 'POST',
        headers: headers(h),
      });
      await res.body?.cancel();
      expect(res.status, h.name).toBeGreaterThanOrEqual(400);
      attempts.refused++;
    }
  });
});

describe('rate limits', () => {
  // 150-odd password hashes one after another: 19 s on a quiet machine, over a minute under load.
  it('repeated wrong passwords from one address end in 429, even for the right password', async () => {
    const ip = randomLoopbackIp();
    const statuses: number[] = [];
    const signIn = (password: string) =>
      fetchFrom(ip)(`${env.API_URL}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: env.ANON_KEY, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: shopper.email, password }),
      });
    // The limiter is a token bucket (token_refresh = 150 per 5 minutes: one token back every 2 s),
    // so on a loaded machine a token may come back between the first 429 and the right password.
    // Drain again and retry a few times: a limiter that ignored right passwords would answer 200
    // every time.
    let right: Response | null = null;
    for (let round = 0; round < 4 && right?.status !== 429; round++) {
      await right?.body?.cancel();
      let limited = false;
      for (let i = 0; i < 400 && !limited; i++) {
        const res = await signIn(`wrong-${round}-${i}`);
        await res.body?.cancel();
        statuses.push(res.status);
        limited = res.status === 429;
        attempts.tried++;
        attempts.refused++;
      }
      right = await signIn(shopper.password);
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s !== 400 && s !== 429)).toEqual([]);
    expect(right?.status).toBe(429);
    expect(((await right?.json()) as { error_code?: string }).error_code).toBe(
      'over_request_rate_limit',
    );
    // Another address is not locked out by the first one's failures.
    const other = await fetchFrom(randomLoopbackIp())(
      `${env.API_URL}/auth/v1/token?grant_type=password`,
      {
        method: 'POST',
        headers: { apikey: env.ANON_KEY, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: shopper.email, password: shopper.password }),
      },
    );
    expect(other.status).toBe(200);
    await other.body?.cancel();
  }, 120_000);

  it('repeated sign-ups from one address end in 429', async () => {
    const ip = randomLoopbackIp();
    const statuses: number[] = [];
    // Sign-ups for an address that already has a confirmed account: accepted-looking (200) without
    // sending mail, so the stack's hourly mail budget that other tests rely on is not spent.
    for (let i = 0; i < 100 && !statuses.includes(429); i++) {
      const res = await fetchFrom(ip)(`${env.API_URL}/auth/v1/signup`, {
        method: 'POST',
        headers: { apikey: env.ANON_KEY, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: shopper.email, password: `another-${i}-password` }),
      });
      await res.body?.cancel();
      statuses.push(res.status);
      attempts.tried++;
      attempts.refused++;
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(statuses.indexOf(429)).toBeGreaterThan(0);
  });
});
