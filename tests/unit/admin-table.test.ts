import { describe, expect, it } from 'vitest';
import type { AdminProduct } from '../../src/lib/tables';
import { filterAndSort } from '../../src/features/admin/ProductTable';

function product(
  id: string,
  title: string,
  cat: string,
  price_value: number | null,
  created_at: string,
): AdminProduct {
  return {
    id,
    title,
    cat,
    price: String(price_value ?? 'POA'),
    price_value,
    created_at,
    updated_at: created_at,
    com: '',
    image: '',
    link: '',
  };
}

const items = [
  product('1', 'Tennis Racket', 'Tennis', 49.99, '2026-01-03T00:00:00Z'),
  product('2', 'football boots', 'Football', 35, '2026-01-01T00:00:00Z'),
  product('3', 'Match Football', 'Football', null, '2026-01-02T00:00:00Z'),
  product('4', 'Running Shoes', 'Running', 35, '2026-01-04T00:00:00Z'),
];
const titles = (list: AdminProduct[]) => list.map((p) => p.title);

describe('filterAndSort (admin product table)', () => {
  it('sorts by price ascending with prices without a number last, ties by title', () => {
    expect(titles(filterAndSort(items, '', { key: 'price', ascending: true }))).toEqual([
      'football boots',
      'Running Shoes',
      'Tennis Racket',
      'Match Football',
    ]);
  });
  it('keeps prices without a number last when descending too', () => {
    expect(titles(filterAndSort(items, '', { key: 'price', ascending: false }))).toEqual([
      'Tennis Racket',
      'football boots',
      'Running Shoes',
      'Match Football',
    ]);
  });
  it('sorts titles ignoring case, both directions', () => {
    expect(titles(filterAndSort(items, '', { key: 'title', ascending: true }))).toEqual([
      'football boots',
      'Match Football',
      'Running Shoes',
      'Tennis Racket',
    ]);
    expect(titles(filterAndSort(items, '', { key: 'title', ascending: false }))[0]).toBe(
      'Tennis Racket',
    );
  });
  it('sorts by category and by date added', () => {
    expect(titles(filterAndSort(items, '', { key: 'cat', ascending: true }))).toEqual([
      'football boots',
      'Match Football',
      'Running Shoes',
      'Tennis Racket',
    ]);
    expect(titles(filterAndSort(items, '', { key: 'created_at', ascending: false }))).toEqual([
      'Running Shoes',
      'Tennis Racket',
      'Match Football',
      'football boots',
    ]);
  });
  it('searches titles ignoring case and surrounding spaces, without changing the input', () => {
    expect(titles(filterAndSort(items, '  FOOTBALL ', { key: 'title', ascending: true }))).toEqual([
      'football boots',
      'Match Football',
    ]);
    expect(titles(items)[0]).toBe('Tennis Racket');
  });
});
