import { describe, expect, it } from 'vitest';
import { categorySchema } from '../../src/features/admin/categories/categorySchema';
import { titleSchema } from '../../src/features/admin/editor/titleSchema';
import {
  emptyProduct,
  isHttpUrl,
  isImageRef,
  productSchema,
} from '../../src/features/admin/products/productSchema';
import { signupSchema } from '../../src/features/admin/team/signupSchema';

/** Field → message, as the forms show them (first message per field). */
function messages(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) {
    const key = String(issue.path[0]);
    out[key] ??= issue.message;
  }
  return out;
}

const valid = {
  title: 'Match Football',
  cat: 'Football',
  price: '£12.50',
  com: 'Size 5 match ball',
  image: 'https://example.com/ball.png',
  link: 'https://example.com/buy',
};

describe('productSchema (REQ-PROD-2, REQ-PROD-6: Add/Update product)', () => {
  it('gives exactly the spec message for every empty field', () => {
    expect(messages(productSchema.safeParse(emptyProduct))).toEqual({
      title: 'Title is Required',
      cat: 'Catagory is Required',
      price: 'Price is Required',
      com: 'Comment is Required',
      image: 'Image link is Required',
      link: 'Link is required',
    });
  });

  it('treats whitespace-only as empty and reports only the required message', () => {
    const result = productSchema.safeParse({ ...valid, title: '   ', link: ' ' });
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      'Title is Required',
      'Link is required',
    ]);
  });

  it('accepts a complete product, trims it, and keeps price as free text', () => {
    const result = productSchema.safeParse({
      ...valid,
      title: '  Match Football ',
      price: 'about a tenner',
    });
    expect(result.success).toBe(true);
    expect(result.data).toEqual({ ...valid, price: 'about a tenner' });
  });

  it('accepts site-relative image paths used by the seeded products', () => {
    expect(productSchema.safeParse({ ...valid, image: '/products/football.svg' }).success).toBe(
      true,
    );
  });

  it('refuses non-http links and images the database would refuse', () => {
    const result = productSchema.safeParse({
      ...valid,
      image: 'javascript:alert(1)',
      link: 'data:text/html,x',
    });
    expect(messages(result)).toEqual({
      image: 'Image link must be an http(s) address or a site path like /products/ball.svg',
      link: 'Link must be an http(s) address',
    });
  });

  it('enforces the database length limits', () => {
    const result = productSchema.safeParse({
      ...valid,
      title: 'x'.repeat(121),
      price: '1'.repeat(41),
    });
    expect(Object.keys(messages(result))).toEqual(['title', 'price']);
    expect(productSchema.safeParse({ ...valid, title: 'x'.repeat(120) }).success).toBe(true);
  });
});

describe('titleSchema (Get Product / Get Catagory)', () => {
  it('requires a title with the spec message', () => {
    expect(messages(titleSchema.safeParse({ title: '' }))).toEqual({ title: 'Title is Required' });
    expect(titleSchema.safeParse({ title: 'Football' }).success).toBe(true);
  });
});

describe('categorySchema', () => {
  it('requires a title with the spec message', () => {
    expect(messages(categorySchema.safeParse({ title: ' ' }))).toEqual({
      title: 'Title is Required',
    });
  });
  it('limits titles to 80 characters', () => {
    expect(categorySchema.safeParse({ title: 'x'.repeat(80) }).success).toBe(true);
    expect(categorySchema.safeParse({ title: 'x'.repeat(81) }).success).toBe(false);
  });
});

describe('signupSchema (SignUP tab)', () => {
  it('requires name and e-mail and a password of at least 6 characters', () => {
    expect(messages(signupSchema.safeParse({ name: '', email: '', password: '' }))).toEqual({
      name: 'Name is Required',
      email: 'Email is Required',
      password: 'Password should be at least 6 characters',
    });
  });
  it('checks the e-mail format and the minimum password length exactly at 6', () => {
    expect(
      messages(signupSchema.safeParse({ name: 'A', email: 'not-an-email', password: '12345' })),
    ).toEqual({
      email: 'Enter a valid Email',
      password: 'Password should be at least 6 characters',
    });
    expect(
      signupSchema.safeParse({ name: 'A', email: 'a@b.test', password: '123456' }).success,
    ).toBe(true);
  });
});

describe('URL checks', () => {
  it.each([
    ['https://example.com/x', true],
    ['http://example.com', true],
    ['ftp://example.com', false],
    ['javascript:alert(1)', false],
    ['example.com', false],
    ['', false],
  ])('isHttpUrl(%j) is %s', (value, expected) => {
    expect(isHttpUrl(value)).toBe(expected);
  });
  it.each([
    ['/products/ball.svg', true],
    ['//evil.example/x.png', false],
    ['/\\evil.example', false],
    ['/with space.svg', false],
    ['data:image/png;base64,xx', false],
  ])('isImageRef(%j) is %s', (value, expected) => {
    expect(isImageRef(value)).toBe(expected);
  });
});
