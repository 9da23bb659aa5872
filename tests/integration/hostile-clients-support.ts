// The hostile clients of hostile-clients.test.ts: forged, expired and edited tokens (wrong
// secret, alg "none", claims edited with the signature kept, algorithm confusion), the keys on
// their own, and the writes each of them tries. Kept apart from the test so the test reads as
// what is asserted.
import { createHmac } from 'node:crypto';
import { signJwt } from '../../stack/auth/jwt.ts';
import { stackEnv, type TestUser } from '../support/stack.ts';
import { productFields } from './db-test-helpers.ts';
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

export interface Hostile {
  name: string;
  /** apikey header (undefined: none at all). */
  apikey?: string;
  /** Authorization bearer (undefined: none). */
  bearer?: string;
}

/** The request headers of a hostile client (plus any extra ones). */
export function headers(h: Hostile, extra: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = { 'Content-Type': 'application/json', ...extra };
  if (h.apikey !== undefined) out.apikey = h.apikey;
  if (h.bearer !== undefined) out.Authorization = `Bearer ${h.bearer}`;
  return out;
}

/** Every hostile client, built from a real admin and a real shopper's session. */
export function hostileClients({
  admin,
  shopperToken,
  adminToken,
}: {
  admin: TestUser;
  shopperToken: string;
  adminToken: string;
}): Hostile[] {
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
  return [
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
}

export interface Attempt {
  what: string;
  method: 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
}

/** The rows a write attempt aims at (made by the test as the service role). */
export interface Targets {
  product: { id: string; title: string };
  category: { id: string; title: string };
  shopper: TestUser;
  contactId: string;
  inviteEmail: string;
}

/** Every write a hostile client tries through PostgREST, with fresh names each call. */
export function writeAttempts({
  product,
  category,
  shopper,
  contactId,
  inviteEmail,
}: Targets): Attempt[] {
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
