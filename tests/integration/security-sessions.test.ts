// Admin rights need a live session. An access token used to keep writing the catalogue after its
// session was ended (logout, "sign out everywhere", "sign out other devices") until it expired,
// because is_admin() looked only at the user id. Each way of ending a session must stop that
// session's writes at once and leave the others working.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteUsers, productFields } from './db-test-helpers.ts';
import { serviceClient, stackEnv, type TestUser, createAdmin } from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

const service = serviceClient();
const users: TestUser[] = [];
let adminUser: TestUser;
let category: string;
let productId: string;

beforeAll(async () => {
  adminUser = await createAdmin();
  users.push(adminUser);
  category = uniqueId('Session Cat');
  const cat = await service.from('catagories').insert({ title: category });
  if (cat.error) throw new Error(cat.error.message);
  const { data, error } = await service
    .from('products')
    .insert(productFields(category, uniqueId('Session Product')))
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  productId = data.id as string;
});

afterAll(async () => {
  await service.from('products').delete().eq('cat', category);
  await service.from('catagories').delete().eq('title', category);
  await deleteUsers(service, users);
});

/** A fresh session (sign-in with password); its raw access token. */
async function signIn(): Promise<string> {
  const env = stackEnv();
  const res = await fetch(`${env.API_URL}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: env.ANON_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ email: adminUser.email, password: adminUser.password }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function logout(token: string, scope: 'local' | 'global' | 'others'): Promise<void> {
  const env = stackEnv();
  const res = await fetch(`${env.API_URL}/auth/v1/logout?scope=${scope}`, {
    method: 'POST',
    headers: { apikey: env.ANON_KEY, authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(204);
}

/** A PostgREST call that sends exactly this access token, whatever Auth thinks of it now. */
async function rest(token: string, path: string, init: RequestInit): Promise<Response> {
  const env = stackEnv();
  return fetch(`${env.API_URL}/rest/v1/${path}`, {
    ...init,
    headers: {
      apikey: env.ANON_KEY,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    },
  });
}

/** Whether a price change with this token reached the database. */
async function canWrite(token: string): Promise<boolean> {
  const price = `£${(Math.random() * 1000).toFixed(2)}`;
  const res = await rest(token, `products?id=eq.${productId}`, {
    method: 'PATCH',
    body: JSON.stringify({ price }),
  });
  expect(res.status, 'a refused write is no error, just no row').toBe(204);
  const { data } = await service.from('products').select('price').eq('id', productId).single();
  return data!.price === price;
}

async function isAdmin(token: string): Promise<boolean> {
  const res = await rest(token, 'rpc/is_admin', { method: 'POST', body: '{}' });
  expect(res.status).toBe(200);
  return (await res.json()) as boolean;
}

describe('admin rights end with the session', () => {
  it('local logout stops that session at once; the admin’s other session keeps working', async () => {
    const [kept, ended] = [await signIn(), await signIn()];
    expect(await canWrite(ended)).toBe(true);
    await logout(ended, 'local');
    expect(await canWrite(ended), 'the logged-out token writes nothing').toBe(false);
    expect(await isAdmin(ended)).toBe(false);
    expect(await canWrite(kept), 'the other session still writes').toBe(true);
  });

  it('global logout stops every session of the account', async () => {
    const [first, second] = [await signIn(), await signIn()];
    await logout(first, 'global');
    expect(await canWrite(first)).toBe(false);
    expect(await canWrite(second)).toBe(false);
    expect(await isAdmin(second)).toBe(false);
  });

  it('"sign out other devices" stops the others and keeps the caller', async () => {
    const [caller, other] = [await signIn(), await signIn()];
    await logout(caller, 'others');
    expect(await canWrite(other)).toBe(false);
    expect(await canWrite(caller)).toBe(true);
    expect(await isAdmin(caller)).toBe(true);
  });

  it('the service role writes without any session', async () => {
    const price = '£1.23';
    const { error } = await service.from('products').update({ price }).eq('id', productId);
    expect(error).toBeNull();
    const { data } = await service.from('products').select('price').eq('id', productId).single();
    expect(data!.price).toBe(price);
  });
});
