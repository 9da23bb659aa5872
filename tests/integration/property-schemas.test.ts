// Property-based tests of every form schema (admin product/category/title/SignUP, login,
// contact) and of the storefront's URL guard, with empty, whitespace-only, huge, unicode,
// HTML/script, SQL-looking and URL-scheme inputs. Pure (no stack needed), 1,000+ cases each.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { categorySchema } from '../../src/features/admin/categories/categorySchema';
import { titleSchema } from '../../src/features/admin/editor/titleSchema';
import { isHttpUrl, productSchema } from '../../src/features/admin/products/productSchema';
import { signupSchema } from '../../src/features/admin/team/signupSchema';
import { loginSchema } from '../../src/features/auth/schemas';
import { contactFormSchema } from '../../src/features/contact/contactSchema';
import { contactTexts } from '../../src/features/contact/contactTexts';
import { safeUrl } from '../../src/lib/domain/format';
import { texts } from '../../src/adminTexts';
import {
  cpLen,
  dbHttpUrl,
  dbImage,
  hasAmbiguousSpace,
  hasCntrl,
  nastyText,
  pgTrim,
  urlText,
} from './property-support';

const RUNS = 1000;
const counts: Record<string, number> = {};
function count(path: string): void {
  counts[path] = (counts[path] ?? 0) + 1;
}
afterAll(() => console.info('property-schemas cases:', JSON.stringify(counts)));

/** Every string the UI may show: a failed parse must only ever use these. */
function leaves(o: unknown): string[] {
  if (typeof o === 'string') return [o];
  if (o && typeof o === 'object') return Object.values(o).flatMap(leaves);
  return [];
}
const KNOWN_MESSAGES = new Set([...leaves(texts), ...leaves(contactTexts)]);

function expectKnownMessages(issues: { message: string }[]): void {
  expect(issues.length).toBeGreaterThan(0);
  for (const i of issues) expect(KNOWN_MESSAGES.has(i.message), i.message).toBe(true);
}

/** Resolves like a browser would from a store page; null when it is not a URL at all. */
function resolvedProtocol(url: string): string | null {
  try {
    return new URL(url, 'https://store.example/').protocol;
  } catch {
    return null;
  }
}

describe('admin form schemas', () => {
  it('product form: trimmed values within the limits and http(s) URLs, or the spec messages', () => {
    fc.assert(
      fc.property(
        fc.record({
          title: nastyText,
          cat: nastyText,
          price: nastyText,
          com: nastyText,
          image: urlText,
          link: urlText,
        }),
        (input) => {
          count('productSchema');
          const r = productSchema.safeParse(input);
          if (!r.success) return expectKnownMessages(r.error.issues);
          for (const k of Object.keys(input) as (keyof typeof input)[]) {
            expect(r.data[k]).toBe(input[k].trim());
            expect(r.data[k]).not.toBe('');
          }
          // zod counts code points, like the database's char_length.
          expect(cpLen(r.data.title)).toBeLessThanOrEqual(120);
          expect(cpLen(r.data.price)).toBeLessThanOrEqual(40);
          expect(cpLen(r.data.com)).toBeLessThanOrEqual(2000);
          expect(['http:', 'https:']).toContain(resolvedProtocol(r.data.link));
          expect(['http:', 'https:']).toContain(resolvedProtocol(r.data.image));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('a product the form accepts is one the database accepts (no surprise refusals)', () => {
    const mismatches: string[] = [];
    fc.assert(
      fc.property(
        fc.record({
          title: nastyText,
          price: nastyText,
          com: nastyText,
          image: urlText,
          link: urlText,
        }),
        (input) => {
          count('productSchema vs database rules');
          const r = productSchema.safeParse({ ...input, cat: 'Football' });
          if (!r.success) return;
          const v = r.data;
          // The form does not check control characters; the database refuses them in titles.
          if (hasCntrl(v.title) || hasAmbiguousSpace(v.image) || hasAmbiguousSpace(v.link)) return;
          const title = pgTrim(v.title);
          const db =
            cpLen(title) >= 1 &&
            cpLen(title) <= 120 &&
            cpLen(pgTrim(v.price)) >= 1 &&
            cpLen(pgTrim(v.price)) <= 40 &&
            cpLen(pgTrim(v.com)) >= 1 &&
            cpLen(v.com) <= 2000 &&
            dbImage(v.image) &&
            dbHttpUrl(v.link);
          if (!db) mismatches.push(JSON.stringify({ image: v.image, link: v.link }));
        },
      ),
      { numRuns: RUNS },
    );
    expect(mismatches).toEqual([]);
  });

  it('category and title forms', () => {
    fc.assert(
      fc.property(nastyText, (title) => {
        count('categorySchema+titleSchema');
        const c = categorySchema.safeParse({ title });
        const t = titleSchema.safeParse({ title });
        if (title.trim() === '') {
          expect(c.success || t.success).toBe(false);
          if (!c.success) expect(c.error.issues[0]!.message).toBe(texts.validation.titleRequired);
          if (!t.success) expect(t.error.issues[0]!.message).toBe(texts.validation.titleRequired);
          return;
        }
        expect(t.success && t.data.title).toBe(title.trim());
        if (c.success) {
          expect(c.data.title).toBe(title.trim());
          expect(cpLen(c.data.title)).toBeLessThanOrEqual(80);
        } else expectKnownMessages(c.error.issues);
      }),
      { numRuns: RUNS },
    );
  });

  it('SignUP form', () => {
    fc.assert(
      fc.property(
        fc.record({
          name: nastyText,
          email: fc.oneof(nastyText, fc.emailAddress()),
          password: nastyText,
        }),
        (input) => {
          count('signupSchema');
          const r = signupSchema.safeParse(input);
          if (!r.success) return expectKnownMessages(r.error.issues);
          expect(r.data.name).toBe(input.name.trim());
          expect(r.data.email).toBe(input.email.trim());
          expect(r.data.email).toMatch(/^[^\s@]+@[^\s@]+$/);
          expect(r.data.password.length).toBeGreaterThanOrEqual(6);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('login and contact schemas', () => {
  it('login form', () => {
    fc.assert(
      fc.property(
        fc.record({ email: fc.oneof(nastyText, fc.emailAddress()), password: nastyText }),
        (input) => {
          count('loginSchema');
          const r = loginSchema.safeParse(input);
          if (!r.success) return expectKnownMessages(r.error.issues);
          expect(r.data.email).toBe(input.email.trim());
          expect(r.data.password).toBe(input.password);
          expect(r.data.password).not.toBe('');
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('contact form', () => {
    fc.assert(
      fc.property(
        fc.record({
          name: nastyText,
          email: fc.oneof(nastyText, fc.emailAddress()),
          message: nastyText,
          website: fc.oneof(fc.constant(''), nastyText),
        }),
        (input) => {
          count('contactFormSchema');
          const r = contactFormSchema.safeParse(input);
          if (!r.success) return expectKnownMessages(r.error.issues);
          expect(r.data.name).toBe(input.name.trim());
          expect(r.data.message).toBe(input.message.trim());
          expect(r.data.email).toBe(input.email.trim());
          for (const f of [r.data.name, r.data.email, r.data.message]) expect(f).not.toBe('');
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('the storefront URL guard (what reaches href/src)', () => {
  it('safeUrl never lets a non-http(s) URL through', () => {
    fc.assert(
      fc.property(urlText, (url) => {
        count('safeUrl');
        const out = safeUrl(url);
        if (out === null) return;
        expect(['http:', 'https:']).toContain(resolvedProtocol(out));
        expect(out.toLowerCase()).not.toMatch(/^\s*(javascript|data|vbscript|file):/);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('isHttpUrl agrees with the database rule for links (no whitespace, backslash or control characters)', () => {
    const mismatches: string[] = [];
    fc.assert(
      fc.property(urlText, (url) => {
        count('isHttpUrl vs database rule');
        if (hasAmbiguousSpace(url)) return;
        if (isHttpUrl(url) && !dbHttpUrl(url)) mismatches.push(url);
      }),
      { numRuns: RUNS },
    );
    expect(mismatches).toEqual([]);
  });
});
