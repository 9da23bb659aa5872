// CSV import and export against the real stack, through the admin area's own modules
// (src/features/admin/csv) with a signed-in admin's supabase-js client: a mixed file's preview
// and that nothing is written before apply; all or nothing when a row fails inside the database;
// the database's own validation of forged rows; export → import gives the same catalogue; and who
// may call the import functions.
import type { SupabaseClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, removeCategory } from '../../e2e/support/catalogue';
import type { Database } from '../../src/lib/infra/database.types';
import { texts } from '../../src/adminTexts';
import { deleteUsers } from './db-test-helpers.ts';
import { BOM, CSV_COLUMNS, parseCsv, toCsv } from '../../src/features/admin/csv/csvFormat';
import { catalogueReader, exportCsv } from '../../src/features/admin/csv/exportCsv';
import { checkRows, runImport, stageRows, summarise } from '../../src/features/admin/csv/importCsv';
import {
  anonClient,
  createConfirmedUser,
  serviceClient,
  signedInClient,
  stackEnv,
  type TestUser,
  createAdmin,
} from '../support/stack.ts';
import { uniqueId } from '../support/names.ts';

type Db = SupabaseClient<Database>;
const service = serviceClient();
const users: TestUser[] = [];
let admin: Db;
let otherAdmin: Db;
let user: Db;
const CAT = uniqueId('Csv Cat');
const NEW_CAT = uniqueId('Csv New');

const product = (title: string, over: Record<string, string> = {}) => ({
  title,
  cat: CAT,
  price: '£5.00',
  com: 'Imported',
  image: '/products/match-football.svg',
  link: 'https://seller.example.com/csv',
  ...over,
});

/** The file as the admin chose it, read and checked like the dialog does. */
function fileOf(rows: Record<string, string>[]) {
  const parsed = parseCsv(BOM + toCsv(rows as never, true));
  if (!parsed.ok) throw new Error(parsed.reason);
  return checkRows(parsed.rows);
}

async function productsTitled(titles: string[]) {
  const { data, error } = await service.from('products').select('title').in('title', titles);
  if (error) throw new Error(error.message);
  return data.map((r) => r.title).sort();
}

async function catalogueSnapshot() {
  const { data, error } = await service
    .from('products')
    .select('id,title,cat,price,com,image,link,updated_at')
    .order('id');
  if (error) throw new Error(error.message);
  return data;
}

beforeAll(async () => {
  const a = await createAdmin();
  const b = await createAdmin();
  const u = await createConfirmedUser();
  users.push(a, b, u);
  admin = (await signedInClient(a)) as Db;
  otherAdmin = (await signedInClient(b)) as Db;
  user = (await signedInClient(u)) as Db;
  await createCategory(service, CAT);
});

afterAll(async () => {
  await removeCategory(service, CAT);
  await removeCategory(service, NEW_CAT);
  await deleteUsers(service, users);
});

describe('import of a file mixing good, bad and duplicate rows', () => {
  const good = [uniqueId('Csv Good 1'), uniqueId('Csv Good 2'), uniqueId('Csv Good 3')];
  const rows = [
    product(good[0]!),
    product(''), // Title is Required
    product(uniqueId('Csv Bad link'), { link: 'javascript:alert(1)' }),
    product(good[1]!, { cat: NEW_CAT }), // unknown category unless created
    product(good[0]!.toUpperCase()), // the same title again (folded)
    product('Match Football Size 5'), // a seed product's title
    product(good[2]!, { price: '-5' }),
  ];

  it('previews counts and messages, writes nothing, then applies', async () => {
    const file = fileOf(rows);
    expect(file.refused.map((r) => [r.line, r.messages])).toEqual([
      [3, [texts.validation.titleRequired]],
      [4, [texts.productForm.linkInvalid]],
    ]);
    const importId = randomUUID();
    await stageRows(admin, importId, file.accepted);
    const before = await catalogueSnapshot();

    const add = summarise(
      file,
      await runImport(admin, importId, { mode: 'add', createCategories: false }, true),
    );
    expect(add.refused.map((r) => [r.line, r.messages])).toEqual([
      [3, [texts.validation.titleRequired]],
      [4, [texts.productForm.linkInvalid]],
      [5, [texts.catalogueCsv.codes.unknownCategory]],
      [6, [texts.catalogueCsv.codes.duplicateInFile]],
      [7, [texts.validation.titleInUse]],
    ]);
    expect([add.added, add.updated, add.unchanged]).toEqual([2, 0, 0]);

    const upsert = summarise(
      file,
      await runImport(admin, importId, { mode: 'upsert', createCategories: true }, true),
    );
    expect([upsert.added, upsert.updated, upsert.refused.length]).toEqual([3, 1, 3]);
    expect(upsert.categoriesCreated).toEqual([NEW_CAT]);
    // REQ-PATH-12: the preview lists each row it adds (no before) or changes (before and after).
    expect(upsert.changes).toHaveLength(upsert.added + upsert.updated);
    expect(upsert.changes.filter((c) => c.before === null)).toHaveLength(upsert.added);
    const changed = upsert.changes.find((c) => c.before !== null)!;
    expect(changed.before).not.toEqual(changed.after);
    // Previews changed nothing.
    expect(await catalogueSnapshot()).toEqual(before);

    const report = await runImport(admin, importId, { mode: 'add', createCategories: true }, false);
    // Apply answers as it did: the rows are the preview's alone.
    expect(report).not.toHaveProperty('changes');
    expect([report.added, report.updated, report.refused.length]).toEqual([3, 0, 2]);
    expect(await productsTitled(good)).toEqual([...good].sort());
    const { data: cat } = await service.from('catagories').select('title').eq('title', NEW_CAT);
    expect(cat).toHaveLength(1);
    const { data: stored } = await service.from('products').select('price').eq('title', good[2]!);
    expect(stored).toEqual([{ price: '-5' }]);
    // The staged rows are gone: applying the same import again adds nothing.
    const again = await runImport(admin, importId, { mode: 'add', createCategories: true }, false);
    expect(again).toMatchObject({ added: 0, updated: 0, refused: [] });
  });

  it('validates again in the database: forged rows sent past the browser are refused', async () => {
    const importId = randomUUID();
    const forged = [
      { line: 2, ...product(uniqueId('Forged'), { link: 'javascript:alert(1)', image: 'data:x' }) },
      { line: 3, ...product('  ', { price: 'x'.repeat(41) }) },
    ];
    const { error } = await admin.rpc('catalogue_import_stage', {
      p_import_id: importId,
      p_rows: forged,
    });
    expect(error).toBeNull();
    const report = await runImport(
      admin,
      importId,
      { mode: 'add', createCategories: false },
      false,
    );
    expect(report.refused).toEqual([
      { line: 2, codes: ['image_invalid', 'link_invalid'] },
      { line: 3, codes: ['title_required', 'price_too_long'] },
    ]);
    expect(report.added).toBe(0);
  });
});

describe('a failure inside the database after rows were written', () => {
  it('writes nothing at all', async () => {
    const titles = [uniqueId('Csv Atomic 1'), uniqueId('Csv Atomic 2'), uniqueId('Csv Explodes')];
    const cat = uniqueId('Csv Atomic Cat');
    const file = fileOf([product(titles[0]!, { cat }), product(titles[1]!), product(titles[2]!)]);
    const importId = randomUUID();
    await stageRows(admin, importId, file.accepted);
    const before = await catalogueSnapshot();
    // A trigger that refuses the third row, after the category and two products went in.
    const db = new pg.Client({ connectionString: stackEnv().DB_URL });
    await db.connect();
    try {
      await db.query(`create function public.csv_test_explode() returns trigger language plpgsql
        set search_path = '' as $$ begin
          if new.title like 'Csv Explodes%' then raise exception 'boom' using errcode = 'P0001'; end if;
          return new; end $$`);
      await db.query(`create trigger csv_test_explode before insert on public.products
        for each row execute function public.csv_test_explode()`);
      const counted = await runImport(
        admin,
        importId,
        { mode: 'add', createCategories: true },
        true,
      );
      expect(counted.added).toBe(3);
      await expect(
        runImport(admin, importId, { mode: 'add', createCategories: true }, false),
      ).rejects.toThrow('boom');
    } finally {
      await db.query('drop trigger if exists csv_test_explode on public.products');
      await db.query('drop function if exists public.csv_test_explode()');
      await db.end();
    }
    expect(await catalogueSnapshot()).toEqual(before);
    const { data } = await service.from('catagories').select('title').eq('title', cat);
    expect(data).toEqual([]);
    // The import is still staged: once the cause is gone, the same import applies.
    const report = await runImport(admin, importId, { mode: 'add', createCategories: true }, false);
    // Apply answers as it did: the rows are the preview's alone.
    expect(report).not.toHaveProperty('changes');
    expect(report.added).toBe(3);
    await removeCategory(service, cat);
  });
});

describe('export → import round trip', () => {
  it('neutralises formula cells and gives back the same catalogue', async () => {
    const tricky = [
      product(`=HYPERLINK("http://evil.example","${uniqueId('x')}")`, { com: '+cmd|calc' }),
      product(uniqueId('@Csv at'), { price: '-5', com: '\'quoted\r\nsecond line, "with" comma' }),
      product(uniqueId('Csv Tab'), { com: 'tab\tinside', price: '@£7' }),
    ];
    const { error } = await service.from('products').insert(tricky);
    expect(error).toBeNull();
    const before = await catalogueSnapshot();

    const file = await exportCsv(catalogueReader(admin, 1000));
    const text = file.parts.join('');
    expect(text.startsWith(`${BOM}${CSV_COLUMNS.join(',')}\r\n`)).toBe(true);
    expect(file.rows).toBe(before.length);
    // No cell of the file starts with a formula character.
    const parsed = parseCsv(text);
    const raw = text
      .slice(1)
      .split('\r\n')
      .flatMap((l) => l.split(','));
    expect(raw.filter((c) => /^"?[=+\-@]/.test(c))).toEqual([]);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;

    // Update by title: every row is unchanged; nothing is written.
    const importId = randomUUID();
    const checked = checkRows(parsed.rows);
    expect(checked.refused).toEqual([]);
    await stageRows(admin, importId, checked.accepted);
    const report = await runImport(
      admin,
      importId,
      { mode: 'upsert', createCategories: false },
      false,
    );
    expect(report).toMatchObject({ added: 0, updated: 0, unchanged: before.length, refused: [] });
    expect(await catalogueSnapshot()).toEqual(before);

    // Delete the tricky products, import the same file (add only): they come back as they were.
    const ids = before.filter((p) => tricky.some((t) => t.title === p.title)).map((p) => p.id);
    expect(ids).toHaveLength(3);
    await service.from('products').delete().in('id', ids);
    const second = randomUUID();
    await stageRows(admin, second, checked.accepted);
    const back = await runImport(admin, second, { mode: 'add', createCategories: false }, false);
    expect(back.added).toBe(3);
    const after = await catalogueSnapshot();
    const fields = (rows: typeof before) =>
      rows
        .map(({ title, cat, price, com, image, link }) => ({ title, cat, price, com, image, link }))
        .sort((a, b) => a.title.localeCompare(b.title));
    expect(fields(after)).toEqual(fields(before));
  });
});

describe('who may import', () => {
  it('anon and a signed-in non-admin cannot stage or apply; another admin cannot touch an import', async () => {
    const importId = randomUUID();
    const rows = [{ line: 2, ...product(uniqueId('Csv Intruder')) }];
    for (const client of [anonClient() as Db, user]) {
      const stage = await client.rpc('catalogue_import_stage', {
        p_import_id: importId,
        p_rows: rows,
      });
      expect(stage.error?.code).toBe('42501');
      const apply = await client.rpc('catalogue_import_apply', {
        p_import_id: importId,
        p_mode: 'add',
        p_create_categories: true,
        p_dry_run: false,
      });
      expect(apply.error?.code).toBe('42501');
    }
    await stageRows(admin, importId, rows as never);
    const stolen = await otherAdmin.rpc('catalogue_import_apply', {
      p_import_id: importId,
      p_mode: 'add',
      p_create_categories: false,
      p_dry_run: false,
    });
    expect(stolen.error?.code).toBe('42501');
    const added = await otherAdmin.rpc('catalogue_import_stage', {
      p_import_id: importId,
      p_rows: [],
    });
    expect(added.error?.code).toBe('42501');
    expect(await productsTitled([rows[0]!.title])).toEqual([]);
  });
});
