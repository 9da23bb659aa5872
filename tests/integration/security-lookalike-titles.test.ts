// Look-alike titles: beside "Ball", a title that only looks like it (no-break or ideographic
// space, full-width letters, zero-width characters, a Cyrillic "а", a combining accent, a line
// separator) used to be accepted as a new product or category. The database now stores titles
// normalised and keeps them unique on a folded key, and answers 23505 (which the admin form shows
// as "Title Already in Use"). Written as a signed-in admin, the only API role that may write.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteUsers, productFields } from './db-test-helpers.ts';
import { serviceClient, signedInClient, type TestUser, createAdmin } from '../support/stack.ts';

const service = serviceClient();
let adminUser: TestUser;
let admin: SupabaseClient;
const tag = Math.random().toString(36).slice(2, 8);
const categories: string[] = [];

/** Full-width forms of printable ASCII (what NFKC folds back), ideographic space for a space. */
const fullWidth = (s: string) =>
  [...s]
    .map((c) => (c === ' ' ? '\u3000' : String.fromCodePoint(c.codePointAt(0)! + 0xfee0)))
    .join('');

/** The reported look-alikes of `title` (which contains "Ball"). */
function lookAlikes(title: string): Record<string, string> {
  return {
    'no-break space': `${title}\u00a0`,
    'full width': fullWidth(title),
    'zero-width space after': `${title}\u200b`,
    'zero-width space before': `\u200b${title}`,
    'ideographic space': `${title}\u3000`,
    'Cyrillic a': title.replace('Ball', 'B\u0430ll'),
    'combining accent': title.replace('Ball', 'Ba\u0301ll'),
    'line separator': `${title}\u2028`,
    'inner double space': title.replace(' ', '  '),
    'soft hyphen and word joiner': title.replace('Ball', 'Ba\u00adl\u2060l'),
    'upper case with Greek Alpha': title.toUpperCase().replace('A', '\u0391'),
  };
}

beforeAll(async () => {
  adminUser = await createAdmin();
  admin = await signedInClient(adminUser);
});

afterAll(async () => {
  for (const title of categories) {
    await service.from('products').delete().eq('cat', title);
    await service.from('catagories').delete().eq('title', title);
  }
  await deleteUsers(service, [adminUser]);
});

async function addCategory(title: string): Promise<string> {
  const { data, error } = await admin.from('catagories').insert({ title }).select('title').single();
  if (error) throw new Error(`add category ${title}: ${error.message}`);
  categories.push(data.title as string);
  return data.title as string;
}

async function count(table: 'products' | 'catagories', title: string): Promise<number> {
  const { count: n, error } = await service
    .from(table)
    .select('id', { count: 'exact', head: true })
    .eq('title', title);
  if (error) throw new Error(error.message);
  return n ?? 0;
}

describe('look-alike titles are duplicates', () => {
  it('refuses each look-alike of a category title', async () => {
    const title = await addCategory(`Ball ${tag}c`);
    for (const [name, lookAlike] of Object.entries(lookAlikes(title))) {
      const { error } = await admin.from('catagories').insert({ title: lookAlike });
      expect.soft(error?.code, name).toBe('23505');
      if (!error) categories.push(lookAlike);
    }
    expect(await count('catagories', title)).toBe(1);
  });

  it('refuses each look-alike of a product title, on insert and on rename', async () => {
    const cat = await addCategory(`Ball Cat ${tag}p`);
    const title = `Ball ${tag}p`;
    const first = await admin.from('products').insert(productFields(cat, title)).select('id');
    expect(first.error).toBeNull();
    const other = await admin
      .from('products')
      .insert(productFields(cat, `Other ${tag}`))
      .select('id')
      .single();
    expect(other.error).toBeNull();
    for (const [name, lookAlike] of Object.entries(lookAlikes(title))) {
      const insert = await admin.from('products').insert(productFields(cat, lookAlike));
      expect.soft(insert.error?.code, `insert: ${name}`).toBe('23505');
      const rename = await admin
        .from('products')
        .update({ title: lookAlike })
        .eq('id', other.data!.id as string);
      expect.soft(rename.error?.code, `rename: ${name}`).toBe('23505');
    }
    const { data } = await service.from('products').select('title').eq('cat', cat);
    expect(data!.map((r) => r.title).sort()).toEqual([title, `Other ${tag}`].sort());
  });
});

describe('titles are stored normalised', () => {
  it('stores NFKC text without invisible characters and with single plain spaces', async () => {
    const stored = await addCategory(`\u200b${fullWidth('Kit')}\u00a0\u00a0Bag\u2028${tag}\u3000`);
    expect(stored).toBe(`Kit Bag ${tag}`);
  });

  it('finds the category of a product whose category name came with invisible characters', async () => {
    const cat = await addCategory(`Gloves ${tag}`);
    const { data, error } = await admin
      .from('products')
      .insert(productFields(`${cat}\u200b`, `Glove\u00a0${tag}`))
      .select('title, cat')
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ title: `Glove ${tag}`, cat });
  });

  it('keeps distinct titles in other scripts and with different letters apart', async () => {
    await addCategory(`Мяч ${tag}`); // Russian for "ball": Cyrillic on its own is fine
    await addCategory(`Bell ${tag}`);
    await addCategory(`Bal ${tag}`);
  });
});
