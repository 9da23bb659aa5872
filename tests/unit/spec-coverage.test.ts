import { describe, expect, it } from 'vitest';
import {
  citedIds,
  coverage,
  definedIds,
  keyPaths,
  quotedTexts,
  references,
} from '../../scripts/check-spec-coverage.ts';

describe('spec coverage check', () => {
  it('extracts the quoted texts of the requirements, also where a text wraps a line', () => {
    const md = 'Shows "No Products". Table `products`; toast "Product\n  Added" and "No Products".';
    expect(quotedTexts(md)).toEqual(['No Products', 'Product Added']);
  });

  it('finds the defined requirement ids and the ids a text cites', () => {
    const md = '- **REQ-HOME-1** Banner.\n- **REQ-HOME-5** Cards (REQ-NAV-4).\n  **REQ-NAV-1** no';
    expect(definedIds(md)).toEqual(['REQ-HOME-1', 'REQ-HOME-5']);
    expect([...citedIds('// REQ-PROD-5, REQ-CAT-4: a prior Get; REQ-PROD-5 again')]).toEqual([
      'REQ-PROD-5',
      'REQ-CAT-4',
    ]);
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
