// Hostile clients against the real stack, over HTTP through the gateway: no key, the anon key,
// forged/expired/edited JWTs (wrong secret, alg "none", role or app_metadata edited) and a real
// non-admin's token. None of them may write the catalogue, the admin tables or contact messages,
// nor read contact messages or invites. Every attempt is followed by a service-role snapshot of
// all those tables, so "refused" means "nothing changed", not just "got an error code".
import type { SupabaseClient } from '@supabase/supabase-js';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../stack/auth/jwt.ts';
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

const env = stackEnv();
const WRONG_SECRET = 'not-the-stack-secret-but-at-least-32-characters-long';

const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');

function signWith(payload: Record<string, unknown>, secret: string): string {
  return signJwt(payload, secret);
}

/** An unsigned token ("alg":"none"), which a careless verifier would accept. */
function unsigned(payload: Record<string, unknown>): string {
  return `${b64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${b64url(JSON.stringify(payload))}.`;
}

/** The payload of a real access token with some claims changed, signature left as it was. */
function tamperedKeepSignature(token: string, patch: Record<string, unknown>): string {
  const [head, body, sig] = token.split('.') as [string, string, string];
  const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
  return `${head}.${b64url(JSON.stringify({ ...payload, ...patch }))}.${sig}`;
}

/** HS256 with the header claiming another algorithm (algorithm confusion). */
function hs256WithHeader(header: Record<string, unknown>, payload: Record<string, unknown>) {
  const h = b64url(JSON.stringify(header));
  const p = b64url(JSON.stringify(payload));
  const sig = createHmac('sha256', env.JWT_SECRET).update(`${h}.${p}`).digest('base64url');
  return `${h}.${p}.${sig}`;
}

interface Hostile {
  name: string;
  /** apikey header (undefined: none at all). */
  apikey?: string;
  /** Authorization bearer (undefined: none). */
  bearer?: string;
}

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

function headers(h: Hostile, extra: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = { 'Content-Type': 'application/json', ...extra };
  if (h.apikey !== undefined) out.apikey = h.apikey;
  if (h.bearer !== undefined) out.Authorization = `Bearer ${h.bearer}`;
  return out;
}

interface Attempt {
  what: string;
  method: 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
}

function writeAttempts(): Attempt[] {
  const t = uniqueId('hostile');
  return [
    {
      what: 'insert product',
      method: 'POST',
      path: '/products',
      body: productFields(category.title, `P ${t}`),
    },
    {
      what: 'update product',
      method: 'PATCH',
      path: `/products?id=eq.${product.id}`,
      body: { price: '£0.01' },
    },
    {
      what: 'update every product',
      method: 'PATCH',
      path: '/products?id=not.is.null',
      body: { com: 'pwned' },
    },
    { what: 'delete product', method: 'DELETE', path: `/products?id=eq.${product.id}` },
    {
      what: 'upsert product',
      method: 'POST',
      path: '/products?on_conflict=id',
      body: { ...productFields(category.title, `U ${t}`), id: product.id },
    },
    { what: 'insert category', method: 'POST', path: '/catagories', body: { title: `C ${t}` } },
    {
      what: 'rename category',
      method: 'PATCH',
      path: `/catagories?id=eq.${category.id}`,
      body: { title: `R ${t}` },
    },
    { what: 'delete category', method: 'DELETE', path: `/catagories?id=eq.${category.id}` },
    {
      what: 'make self admin',
      method: 'POST',
      path: '/admins',
      body: { user_id: shopper.id, email: shopper.email },
    },
    { what: 'delete admins', method: 'DELETE', path: '/admins?user_id=not.is.null' },
    {
      what: 'invite',
      method: 'POST',
      path: '/admin_invites',
      body: { email: uniqueEmail('hostile-invite') },
    },
    {
      what: 'accept invite',
      method: 'PATCH',
      path: `/admin_invites?email=eq.${encodeURIComponent(inviteEmail)}`,
      body: { accepted_at: new Date().toISOString() },
    },
    { what: 'delete invites', method: 'DELETE', path: '/admin_invites?email=not.is.null' },
    {
      what: 'insert contact message',
      method: 'POST',
      path: '/contact_messages',
      body: { name: 'X', email: 'x@example.test', message: 'spam' },
    },
    {
      what: 'mark message sent',
      method: 'PATCH',
      path: `/contact_messages?id=eq.${contactId}`,
      body: { message: 'edited' },
    },
    { what: 'delete contact messages', method: 'DELETE', path: '/contact_messages?id=not.is.null' },
    {
      what: 'rpc contact_submit',
      method: 'POST',
      path: '/rpc/contact_submit',
      body: {
        p_name: 'X',
        p_email: 'x@example.test',
        p_message: 'm',
        p_ip: '',
        p_max: 1000,
        p_window_seconds: 1,
        p_claim: false,
      },
    },
    {
      what: 'rpc contact_claim_undelivered',
      method: 'POST',
      path: '/rpc/contact_claim_undelivered',
      body: { p_limit: 100, p_lease_seconds: 1 },
    },
  ];
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

  const now = Math.floor(Date.now() / 1000);
  const adminClaims = {
    aud: 'authenticated',
    role: 'authenticated',
    sub: admin.id,
    email: admin.email,
    iat: now,
    exp: now + 3600,
  };
  const serviceClaims = { iss: 'supabase-demo', role: 'service_role', iat: now, exp: now + 3600 };
  hostiles = [
    { name: 'no key, no token' },
    { name: 'no key, anon key as bearer', bearer: env.ANON_KEY },
    { name: 'garbage apikey', apikey: 'garbage', bearer: 'garbage' },
    { name: 'anon key', apikey: env.ANON_KEY, bearer: env.ANON_KEY },
    { name: 'publishable key', apikey: env.PUBLISHABLE_KEY },
    {
      name: 'forged admin JWT (wrong secret)',
      apikey: env.ANON_KEY,
      bearer: signWith(adminClaims, WRONG_SECRET),
    },
    {
      name: 'forged service_role JWT (wrong secret)',
      apikey: env.ANON_KEY,
      bearer: signWith(serviceClaims, WRONG_SECRET),
    },
    {
      name: 'forged service_role JWT as apikey',
      apikey: signWith(serviceClaims, WRONG_SECRET),
      bearer: signWith(serviceClaims, WRONG_SECRET),
    },
    {
      name: 'expired admin JWT (right secret)',
      apikey: env.ANON_KEY,
      bearer: signWith({ ...adminClaims, iat: now - 7200, exp: now - 3600 }, env.JWT_SECRET),
    },
    {
      name: 'unsigned (alg none) service_role',
      apikey: env.ANON_KEY,
      bearer: unsigned(serviceClaims),
    },
    { name: 'unsigned (alg none) admin', apikey: env.ANON_KEY, bearer: unsigned(adminClaims) },
    {
      name: 'alg none as apikey',
      apikey: unsigned(serviceClaims),
      bearer: unsigned(serviceClaims),
    },
    {
      name: 'HS256 signature under an RS256 header',
      apikey: env.ANON_KEY,
      bearer: hs256WithHeader({ alg: 'RS256', typ: 'JWT' }, serviceClaims),
    },
    {
      name: "shopper's token, role edited to service_role (signature kept)",
      apikey: env.ANON_KEY,
      bearer: tamperedKeepSignature(shopperToken, { role: 'service_role' }),
    },
    {
      name: "shopper's token, sub edited to the admin (signature kept)",
      apikey: env.ANON_KEY,
      bearer: tamperedKeepSignature(shopperToken, { sub: admin.id }),
    },
    {
      name: "shopper's token, app_metadata edited (signature kept)",
      apikey: env.ANON_KEY,
      bearer: tamperedKeepSignature(shopperToken, {
        app_metadata: { provider: 'email', role: 'admin', is_admin: true },
      }),
    },
    {
      name: "shopper's token, role service_role re-signed with a wrong secret",
      apikey: env.ANON_KEY,
      bearer: signWith(
        {
          ...JSON.parse(Buffer.from(shopperToken.split('.')[1]!, 'base64url').toString()),
          role: 'service_role',
        },
        WRONG_SECRET,
      ),
    },
    {
      name: "shopper's token, app_metadata admin, alg none",
      apikey: env.ANON_KEY,
      bearer: unsigned({
        ...JSON.parse(Buffer.from(shopperToken.split('.')[1]!, 'base64url').toString()),
        app_metadata: { role: 'admin', is_admin: true },
      }),
    },
    // Even a correctly signed token claiming admin in app_metadata/user_metadata is not an admin:
    // admin rights come from the admins table alone.
    {
      name: 'validly signed shopper token with admin claims in metadata',
      apikey: env.ANON_KEY,
      bearer: signWith(
        {
          ...JSON.parse(Buffer.from(shopperToken.split('.')[1]!, 'base64url').toString()),
          app_metadata: { provider: 'email', role: 'admin', is_admin: true, admin: true },
          user_metadata: { is_admin: true, role: 'admin' },
        },
        env.JWT_SECRET,
      ),
    },
    { name: "a real non-admin's token", apikey: env.ANON_KEY, bearer: shopperToken },
    {
      name: "admin's token with the signature of the shopper's",
      apikey: env.ANON_KEY,
      bearer: `${adminToken.split('.').slice(0, 2).join('.')}.${shopperToken.split('.')[2]}`,
    },
  ];
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
      for (const a of writeAttempts()) {
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
  });

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
