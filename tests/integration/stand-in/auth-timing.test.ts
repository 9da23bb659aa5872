// Decision 0031: response times do not reveal whether an address has an account. A wrong password
// costs one bcrypt comparison whether or not the account exists (a dummy hash stands in), and
// /recover answers before its mail is sent. Medians of interleaved tries keep this robust on a
// busy machine; before the fix the ratios were about 30x.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { stackEnv } from '../../support/stack.ts';
import { PASSWORD, post, startOwnServer, type OwnAuthServer } from './auth-own-server.ts';
import { uniqueEmail } from '../../support/names.ts';

const TRIES = 15;

let server: OwnAuthServer;
let existing: string[];
beforeAll(async () => {
  // GoTrue's bcrypt cost (10): the test stack hashes at the lowest cost, where a comparison
  // takes about as long as the request around it and a missing one would not show.
  server = await startOwnServer({ passwordHashCost: 10 });
  existing = [];
  for (let i = 0; i < TRIES; i++) {
    // Made by this server, so stored at its cost.
    const email = uniqueEmail('timing');
    const made = await post(
      server,
      '/admin/users',
      { email, password: PASSWORD, email_confirm: true },
      { Authorization: `Bearer ${stackEnv().SERVICE_ROLE_KEY}` },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    existing.push(email);
  }
  const db = new pg.Client({ connectionString: stackEnv().DB_URL });
  await db.connect();
  try {
    const { rows } = await db.query<{ cost: string }>(
      'select distinct substr(encrypted_password, 5, 2) as cost from auth.users where email = any($1)',
      [existing],
    );
    expect(rows).toEqual([{ cost: '10' }]);
  } finally {
    await db.end();
  }
}, 60_000);
afterAll(async () => {
  await server?.close();
});

async function timed(path: string, body: unknown): Promise<number> {
  const started = performance.now();
  const r = await post(server, path, body);
  const ms = performance.now() - started;
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(429);
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Ratio of the slower median to the faster one; 10 ms added to both so tiny values do not dominate. */
function spread(a: number[], b: number[]): { ratio: number; medians: [number, number] } {
  const [ma, mb] = [median(a), median(b)];
  return { ratio: (Math.max(ma, mb) + 10) / (Math.min(ma, mb) + 10), medians: [ma, mb] };
}

describe('timing does not reveal accounts', () => {
  it('a wrong password takes as long for an existing address as for an unknown one', async () => {
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < TRIES; i++) {
      known.push(
        await timed('/token?grant_type=password', { email: existing[i], password: `wrong-${i}` }),
      );
      unknown.push(
        await timed('/token?grant_type=password', {
          email: uniqueEmail('nobody'),
          password: `wrong-${i}`,
        }),
      );
    }
    const s = spread(known, unknown);
    expect(s.ratio, `medians ${s.medians.map((m) => m.toFixed(1)).join(' vs ')} ms`).toBeLessThan(
      3,
    );
  });

  it('/recover takes as long for an existing address as for an unknown one', async () => {
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < TRIES; i++) {
      known.push(await timed('/recover', { email: existing[i] }));
      unknown.push(await timed('/recover', { email: uniqueEmail('nobody') }));
    }
    const s = spread(known, unknown);
    expect(s.ratio, `medians ${s.medians.map((m) => m.toFixed(1)).join(' vs ')} ms`).toBeLessThan(
      3,
    );
  });
});
