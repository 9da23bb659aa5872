// What a hostile visitor can get from the shipped app and its data: the production bundle (built
// here, into a temporary directory, with this stack's URL and anon key) must not contain the
// service-role key, the secret key or the JWT secret; and no product can carry a `javascript:`
// (or other non-http) Buy Now or image URL, because the database refuses it for every writer,
// even the admin and the service role.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteUsers, productFields } from './db-test-helpers.ts';
import {
  serviceClient,
  signedInClient,
  stackEnv,
  type TestUser,
  createAdmin,
} from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

const env = stackEnv();
const run = promisify(execFile);

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('the production bundle', () => {
  let outDir: string;
  let files: { file: string; text: string }[];

  beforeAll(async () => {
    outDir = mkdtempSync(path.join(tmpdir(), 'mar-bundle-'));
    await run(
      'npx',
      ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
      {
        env: {
          ...process.env,
          VITE_SUPABASE_URL: env.API_URL,
          VITE_SUPABASE_ANON_KEY: env.ANON_KEY,
        },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    files = filesUnder(outDir)
      .filter(
        (f) =>
          /\.(js|mjs|css|html|json|map|txt|webmanifest)$/.test(f) ||
          path.basename(f) === '_headers',
      )
      .map((file) => ({ file, text: readFileSync(file, 'latin1') }));
  }, 240_000);

  afterAll(() => {
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  it('is built with the anon key (so the scan below looks at a real bundle)', () => {
    expect(files.some((f) => f.text.includes(env.ANON_KEY))).toBe(true);
  });

  it('contains no service-role key, secret key or JWT secret', () => {
    const secrets = {
      SERVICE_ROLE_KEY: env.SERVICE_ROLE_KEY,
      SECRET_KEY: env.SECRET_KEY,
      JWT_SECRET: env.JWT_SECRET,
    };
    const found: string[] = [];
    for (const { file, text } of files) {
      for (const [name, value] of Object.entries(secrets)) {
        if (text.includes(value)) found.push(`${name} in ${path.relative(outDir, file)}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('contains no JWT with a role other than anon', () => {
    const bad: string[] = [];
    for (const { file, text } of files) {
      for (const m of text.matchAll(/eyJ[A-Za-z0-9_-]+\.(eyJ[A-Za-z0-9_-]+)\.[A-Za-z0-9_-]*/g)) {
        try {
          const claims = JSON.parse(Buffer.from(m[1]!, 'base64url').toString('utf8')) as {
            role?: string;
          };
          if (claims.role !== 'anon') bad.push(`${claims.role} in ${path.relative(outDir, file)}`);
        } catch {
          // not a JWT after all
        }
      }
    }
    expect(bad).toEqual([]);
  });
});

describe('Buy Now and image URLs can never be javascript:', () => {
  const hostileUrls = [
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'javascript://example.com/%0Aalert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    '\u0001javascript:alert(1)',
    'jav&#x09;ascript:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html,<script>alert(1)</script>',
    'data:image/svg+xml;base64,PHN2Zz4=',
    'file:///etc/passwd',
    '//evil.example/x',
    '/\\evil.example/x',
    'https:javascript:alert(1)',
    'http://',
    'https://exa mple.com/',
    '',
  ];
  let admin: TestUser;
  let cat: string;
  let productId: string;
  const service = serviceClient();

  beforeAll(async () => {
    admin = await createAdmin();
    cat = uniqueId('UrlCat');
    const c = await service.from('catagories').insert({ title: cat });
    if (c.error) throw new Error(c.error.message);
    const p = await service
      .from('products')
      .insert(productFields(cat, uniqueId('UrlProduct')))
      .select('id')
      .single();
    if (p.error) throw new Error(p.error.message);
    productId = (p.data as { id: string }).id;
  });

  afterAll(async () => {
    await service.from('products').delete().eq('cat', cat);
    await service.from('catagories').delete().eq('title', cat);
    if (admin) await deleteUsers(service, [admin]);
  });

  it('the database refuses them as link or image, on insert and update, for admin and service role', async () => {
    const adminClient = await signedInClient(admin);
    const stored: string[] = [];
    for (const client of [adminClient, service]) {
      for (const url of hostileUrls) {
        for (const field of ['link', 'image'] as const) {
          const ins = await client
            .from('products')
            .insert({ ...productFields(cat, uniqueId('Bad')), [field]: url })
            .select('id');
          if (!ins.error) stored.push(`insert ${field}=${JSON.stringify(url)}`);
          else expect(ins.error.code, url).toBe('23514');
          const upd = await client
            .from('products')
            .update({ [field]: url })
            .eq('id', productId)
            .select('id');
          if (!upd.error) stored.push(`update ${field}=${JSON.stringify(url)}`);
          else expect(upd.error.code, url).toBe('23514');
        }
      }
    }
    expect(stored).toEqual([]);
    const { data } = await service.from('products').select('image, link').eq('cat', cat);
    expect(data).toEqual([
      { image: '/products/match-football.svg', link: 'https://shop.example.com/test' },
    ]);
  });
});
