import { describe, expect, it } from 'vitest';
import { coverage, keyPaths, quotedTexts, references } from '../../scripts/check-spec-coverage.ts';

describe('spec coverage check', () => {
  it('extracts the quoted texts of the spec, without the collection names', () => {
    const md =
      'Shows "No Products". Collection "products"; toast "Product Added" and "No Products".';
    expect(quotedTexts(md)).toEqual(['No Products', 'Product Added']);
  });

  it('maps every string of the texts object to its key paths', () => {
    const keys = keyPaths({ a: { b: 'X', c: 'Y' }, d: 'X' });
    expect(keys.get('X')).toEqual(['texts.a.b', 'texts.d']);
    expect(keys.get('Y')).toEqual(['texts.a.c']);
  });

  it('counts string literals and texts keys but not comments or longer strings', () => {
    const values = {
      login: { failed: 'Something went wrong' },
      product: { added: 'Product Added' },
    };
    const spec = ['Something went wrong', 'Product Added', 'Title is Required'];
    const files = [
      {
        name: 'a.spec.ts',
        source: "// 'Title is Required'\nexpect('Something went wrong! Try again.');",
      },
      { name: 'b.spec.ts', source: 'await expectToast(page, texts.product.added);' },
      { name: 'c.spec.ts', source: 'await expectToast(page, `Something went wrong`);' },
    ];
    expect(coverage(spec, files, values)).toEqual([
      { text: 'Something went wrong', files: ['c.spec.ts'] },
      { text: 'Product Added', files: ['b.spec.ts'] },
      { text: 'Title is Required', files: [] },
    ]);
  });

  it('sees through optional chaining and line breaks in key paths', () => {
    const refs = references('x(texts\n  .login?.failed)');
    expect(refs.accesses.has('texts.login.failed')).toBe(true);
  });
});
