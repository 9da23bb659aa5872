// The local stack end to end, through HTTP and supabase-js only: the Data API with the anon key,
// JWT checks by PostgREST, row-level security for anon vs a signed-in user, the edge-functions
// runtime, and the CLI life cycle (start, status, stop leaves no process, restart keeps data).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, parseDurationSeconds, parseSizeBytes } from '../../../stack/config.ts';
import { signJwt } from '../../../stack/auth/jwt.ts';
import { portFree } from '../../../stack/process.ts';
import {
  findFreePortBase,
  startStack,
  type StackEnv,
  type StackState,
} from '../../../stack/stack.ts';
import {
  anonClient,
  clientWithToken,
  createConfirmedUser,
  serviceClient,
  signedInClient,
  sql,
  stackEnv,
  waitForTable,
  type TestUser,
} from '../../support/stack.ts';

const execFileAsync = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../../..');

describe('supabase/config.toml', () => {
  it('is the source of the ports, keys, auth and function settings', () => {
    const config = loadConfig();
    expect(config.ports).toMatchObject({ api: 54321, db: 54322, mailWeb: 54324, smtp: 54325 });
    expect(config.keys.anonKey).toBe(
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0',
    );
    expect(config.auth.siteUrl).toBe('http://127.0.0.1:3000');
    expect(config.auth.enableConfirmations).toBe(true);
    expect(config.functions.contact).toEqual({ enabled: true, verifyJwt: false });
    // [storage] file_size_limit = "50MiB"; sizes count in 1024s, as the CLI reads them.
    expect(config.storage.fileSizeLimit).toBe(50 * 1024 * 1024);
    expect(parseSizeBytes('5MB', 0)).toBe(5 * 1024 * 1024);
    expect(parseSizeBytes('500KiB', 0)).toBe(500 * 1024);
    expect(() => parseSizeBytes('big', 0)).toThrow();
  });

  it('shifts every port with the port base and substitutes env(VAR)', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'mar-config-'));
    try {
      mkdirSync(path.join(root, 'supabase'));
      writeFileSync(
        path.join(root, 'supabase/config.toml'),
        [
          '[api]',
          'port = 54321',
          '[db]',
          'port = 54322',
          '[local_smtp]',
          'port = 54324',
          'smtp_port = 54325',
          '[auth]',
          'site_url = "env(IT_SITE_URL)"',
          'jwt_expiry = 600',
          'minimum_password_length = 8',
          '[auth.email]',
          'max_frequency = "1m30s"',
          '[functions.private]',
          'enabled = true',
        ].join('\n'),
      );
      const config = loadConfig({
        repoRoot: root,
        portBase: 60100,
        env: { IT_SITE_URL: 'http://localhost:5173' },
      });
      expect(config.ports).toEqual({
        api: 60100,
        db: 60101,
        mailWeb: 60103,
        smtp: 60104,
        rest: 60110,
        auth: 60111,
        functions: 60112,
        storage: 60113,
      });
      expect(config.auth).toMatchObject({
        siteUrl: 'http://localhost:5173',
        jwtExpiry: 600,
        minimumPasswordLength: 8,
        maxFrequencySeconds: 90,
      });
      // verify_jwt defaults to true when a function's section leaves it out.
      expect(config.functions.private).toEqual({ enabled: true, verifyJwt: true });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    expect(parseDurationSeconds('2m', 0)).toBe(120);
    expect(() => parseDurationSeconds('soon', 0)).toThrow();
  });
});

describe('Data API', () => {
  it('answers a curl-like GET of a seeded table with the anon key as JSON', async () => {
    const env = stackEnv();
    const res = await fetch(`${env.REST_URL}/catagories?select=title`, {
      headers: { apikey: env.ANON_KEY },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const rows = (await res.json()) as { title: string }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(typeof rows[0]!.title).toBe('string');
  });

  it('caps reads at [api] max_rows (1000)', async () => {
    const env = stackEnv();
    const fn = `it_series_${randomUUID().slice(0, 8)}`;
    await sql(
      `create function public.${fn}() returns setof int language sql stable set search_path = '' as 'select generate_series(1, 1500)'`,
    );
    try {
      const deadline = Date.now() + 10_000;
      let res: Response;
      // The DDL reaches PostgREST's schema cache asynchronously (event trigger + NOTIFY).
      while (
        (res = await fetch(`${env.REST_URL}/rpc/${fn}`, { headers: { apikey: env.ANON_KEY } }))
          .status === 404 &&
        Date.now() < deadline
      ) {
        await res.body?.cancel();
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(res.status).toBe(200);
      expect(((await res.json()) as number[]).length).toBe(1000);
    } finally {
      await sql(`drop function public.${fn}()`);
    }
  });
});

describe('JWT checks by PostgREST', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createConfirmedUser();
  });

  it('accepts a real access token', async () => {
    const client = await signedInClient(user);
    const { error, status } = await client.from('catagories').select('title').limit(1);
    expect(error).toBeNull();
    expect(status).toBe(200);
  });

  it('refuses a tampered access token with 401', async () => {
    const client = await signedInClient(user);
    const { data } = await client.auth.getSession();
    const [head, body, sig] = data.session!.access_token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    const forged = Buffer.from(JSON.stringify({ ...claims, role: 'service_role' })).toString(
      'base64url',
    );
    const { error, status } = await clientWithToken(`${head}.${forged}.${sig}`)
      .from('catagories')
      .select('title');
    expect(status).toBe(401);
    expect(error?.code).toBe('PGRST301');
  });

  it('refuses an expired token with 401 "JWT expired"', async () => {
    const env = stackEnv();
    const now = Math.floor(Date.now() / 1000);
    const token = signJwt(
      {
        sub: user.id,
        role: 'authenticated',
        aud: 'authenticated',
        iat: now - 7200,
        exp: now - 3600,
      },
      env.JWT_SECRET,
    );
    const { error, status } = await clientWithToken(token).from('catagories').select('title');
    expect(status).toBe(401);
    expect(error?.message).toBe('JWT expired');
  });

  it('refuses a token signed with another secret', async () => {
    const token = signJwt(
      { role: 'service_role', exp: Math.floor(Date.now() / 1000) + 600 },
      'not-the-secret-of-this-project-at-all',
    );
    const { status } = await clientWithToken(token).from('catagories').select('title');
    expect(status).toBe(401);
  });
});

describe('row-level security through the API', () => {
  // A throwaway table created in this test's own stack, as a migration would create it.
  const table = `it_rls_notes_${randomUUID().slice(0, 8)}`;
  let owner: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    [owner, other] = await Promise.all([createConfirmedUser(), createConfirmedUser()]);
    await sql(`create table public.${table} (
      id bigint generated always as identity primary key,
      owner uuid not null,
      note text not null)`);
    await sql(`alter table public.${table} enable row level security`);
    await sql(`create policy "owners read their notes" on public.${table}
      for select to authenticated using ((select auth.uid()) = owner)`);
    await sql(`grant select on public.${table} to anon, authenticated`);
    await sql(
      `insert into public.${table} (owner, note) values ($1, 'owner note'), ($2, 'other note')`,
      [owner.id, other.id],
    );
    await waitForTable(table);
  });

  afterAll(async () => {
    await sql(`drop table if exists public.${table}`);
  });

  it('shows anon nothing', async () => {
    const { data, error } = await anonClient().from(table).select('note');
    expect(error).toBeNull();
    expect(data).toEqual([]);
  });

  it('shows a signed-in user only their own rows', async () => {
    const client = await signedInClient(owner);
    const { data, error } = await client.from(table).select('note');
    expect(error).toBeNull();
    expect(data).toEqual([{ note: 'owner note' }]);
  });

  it('lets the service role bypass RLS', async () => {
    const { data, error } = await serviceClient().from(table).select('note').order('id');
    expect(error).toBeNull();
    expect(data).toEqual([{ note: 'owner note' }, { note: 'other note' }]);
  });
});

describe('edge functions', () => {
  it('functions.invoke reaches a Deno function that sees the Supabase env vars', async () => {
    const env = stackEnv();
    const { data, error } = await anonClient().functions.invoke('health', { body: { ping: true } });
    expect(error).toBeNull();
    expect(data).toEqual({
      status: 'ok',
      method: 'POST',
      path: '/health',
      supabaseUrl: env.API_URL,
      env: {
        SUPABASE_URL: true,
        SUPABASE_ANON_KEY: true,
        SUPABASE_SERVICE_ROLE_KEY: true,
        SUPABASE_DB_URL: true,
      },
      edgeRuntime: true,
    });
  });

  it('enforces verify_jwt (default true) with 401', async () => {
    const env = stackEnv();
    const missing = await fetch(`${env.FUNCTIONS_URL}/health`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ msg: 'Error: Missing authorization header' });

    const bad = await fetch(`${env.FUNCTIONS_URL}/health`, {
      headers: { Authorization: `Bearer ${env.ANON_KEY}x` },
    });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ msg: 'Invalid JWT' });
  });

  it('answers 404 for an unknown function', async () => {
    const env = stackEnv();
    const res = await fetch(`${env.FUNCTIONS_URL}/no-such-function`, {
      headers: { Authorization: `Bearer ${env.ANON_KEY}` },
    });
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('Function not found');
  });
});

describe('stack life cycle', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'mar-stack-life-'));
  const dataDir = path.join(root, 'data');
  let cli: ChildProcess | undefined;

  afterAll(() => {
    cli?.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  const runCli = (...args: string[]) =>
    execFileAsync(
      process.execPath,
      ['--import', 'tsx', 'stack/cli.ts', ...args, '--data-dir', dataDir],
      { cwd: REPO, timeout: 60_000 },
    );

  const allGone = (pids: number[]) =>
    pids.every((pid) => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    });

  it(
    'CLI start → status → stop leaves no process; a restart keeps the data',
    { timeout: 180_000 },
    async () => {
      const base = await findFreePortBase();
      cli = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'stack/cli.ts',
          'start',
          '--port-base',
          String(base),
          '--data-dir',
          dataDir,
        ],
        {
          cwd: REPO,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      cli.stdout!.on('data', (d: Buffer) => (output += d.toString()));
      cli.stderr!.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<number | null>((r) => cli!.on('exit', (code) => r(code)));
      await new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => {
          if (output.includes('local stack is running')) {
            clearInterval(timer);
            resolve();
          }
        }, 100);
        void exited.then(() => {
          clearInterval(timer);
          reject(new Error(`stack CLI exited during start:\n${output}`));
        });
      });
      expect(output).toContain('admin@mar-online-store.test / admin123');

      const env = JSON.parse((await runCli('status', '-o', 'json')).stdout) as StackEnv;
      expect(env.API_URL).toBe(`http://127.0.0.1:${base}`);
      const envLines = (await runCli('status', '-o', 'env')).stdout;
      expect(envLines).toContain(`DB_URL="${env.DB_URL}"`);
      for (const name of [
        'API_URL',
        'DB_URL',
        'ANON_KEY',
        'SERVICE_ROLE_KEY',
        'JWT_SECRET',
        'MAILPIT_URL',
      ]) {
        expect(envLines).toMatch(new RegExp(`^${name}=`, 'm'));
      }

      // Data written in the first run.
      await sql(`create table public.it_persisted (id int primary key, note text)`, [], env);
      await sql(`insert into public.it_persisted values (1, 'kept across restarts')`, [], env);
      const [{ count: categories }] = await sql<{ count: string }>(
        'select count(*) from public.catagories',
        [],
        env,
      );

      const state = JSON.parse(
        readFileSync(path.join(dataDir, 'stack.json'), 'utf8'),
      ) as StackState;
      const pids = [
        state.pid,
        ...Object.values(state.parts).map((p) => p.pid),
        ...(state.watchdog ? [state.watchdog] : []),
      ];
      expect(Object.keys(state.parts).sort()).toEqual([
        'auth',
        'functions',
        'mail',
        'postgres',
        'postgrest',
        'storage',
      ]);

      expect((await runCli('stop')).stdout).toContain('Stopped');
      expect(await exited).toBe(0);
      await expect.poll(() => allGone(pids), { timeout: 5_000 }).toBe(true);
      expect(existsSync(path.join(dataDir, 'stack.json'))).toBe(false);
      const ports = [
        base,
        base + 1,
        base + 3,
        base + 4,
        base + 10,
        base + 11,
        base + 12,
        base + 13,
      ];
      expect(await Promise.all(ports.map((p) => portFree(p)))).toEqual(ports.map(() => true));

      // Warm restart on the same data dir: no re-bootstrap, no re-seed, the data is still there.
      const again = await startStack({ portBase: base, dataDir });
      try {
        expect(again.createdDatabase).toBe(false);
        expect(await sql('select note from public.it_persisted', [], again.env)).toEqual([
          { note: 'kept across restarts' },
        ]);
        expect(
          await sql<{ count: string }>('select count(*) from public.catagories', [], again.env),
        ).toEqual([{ count: categories }]);
        const res = await fetch(`${again.env.REST_URL}/it_persisted?select=note`, {
          headers: { apikey: again.env.SERVICE_ROLE_KEY },
        });
        expect(await res.json()).toEqual([{ note: 'kept across restarts' }]);

        // Parts restart on their own and the others reconnect: the database under PostgREST
        // and auth, then auth itself (a seeded user signs in through the gateway afterwards).
        const before = again.processes();
        await again.restartPart('postgres');
        await again.restartPart('auth');
        const after = again.processes();
        expect(after.postgres).not.toBe(before.postgres);
        expect(after.auth).not.toBe(before.auth);
        expect(allGone([before.postgres!, before.auth!])).toBe(true);
        await expect
          .poll(
            async () => {
              const r = await fetch(`${again.env.REST_URL}/it_persisted?select=note`, {
                headers: { apikey: again.env.SERVICE_ROLE_KEY },
              });
              return r.status;
            },
            { timeout: 15_000 },
          )
          .toBe(200);
        const { error } = await anonClient(again.env).auth.signInWithPassword({
          email: 'admin@mar-online-store.test',
          password: 'admin123',
        });
        expect(error).toBeNull();
      } finally {
        const running = Object.values(again.processes());
        await again.stop();
        await expect.poll(() => allGone(running), { timeout: 5_000 }).toBe(true);
      }
    },
  );
});
