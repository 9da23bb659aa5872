// The upload's Content-Type as the local Storage service reads it (stack/storage/media-type.ts):
// one RFC 9110 media type, never a list; with an allow-list only a bare allowed type, compared as
// hosted compares it; and whatever is stored is served only as one bare type.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allowedMediaType,
  parseMediaType,
  servedMediaType,
} from '../../../stack/storage/media-type.ts';

const ALLOWED = ['image/webp', 'image/jpeg', 'image/png'];

describe('parseMediaType', () => {
  it.each([
    ['image/png', 'image/png', false],
    ['image/png; charset=utf-8', 'image/png', true],
    ['text/plain;charset="a;b"', 'text/plain', true],
    ['application/vnd.api+json', 'application/vnd.api+json', false],
  ])('reads %j', (value, essence, hasParameters) => {
    expect(parseMediaType(value)).toEqual({ essence, hasParameters });
  });

  it.each([
    'image/png;x=,text/html',
    'image/png,text/html',
    'image/png;;x=1',
    'image/png;x',
    'image/png text/html',
    'image/png/html',
    'image/*',
    '*/*',
    'image/',
    '',
  ])('refuses %j', (value) => {
    expect(parseMediaType(value)).toBeNull();
  });
});

describe('allowedMediaType', () => {
  it('stores the bare allowed type', () => {
    expect(allowedMediaType('image/webp', ALLOWED, false)).toBe('image/webp');
  });

  it('refuses parameters, case changes and other types with hosted’s 415 answer', () => {
    for (const type of ['image/png; x=1', 'IMAGE/PNG', 'text/html', 'image/gif']) {
      expect(() => allowedMediaType(type, ALLOWED, false)).toThrow(
        `mime type ${type} is not supported`,
      );
    }
  });

  it('a wildcard entry allows the subtypes of its type only', () => {
    expect(allowedMediaType('image/gif', ['image/*'], false)).toBe('image/gif');
    expect(() => allowedMediaType('text/html', ['image/*'], false)).toThrow();
  });

  it('whatever the header, what is stored is one bare allowed type or nothing', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 40 }), (header) => {
        let stored: string | null = null;
        try {
          stored = allowedMediaType(header, ALLOWED, false);
        } catch {
          return;
        }
        expect(ALLOWED).toContain(stored);
      }),
    );
  });
});

describe('servedMediaType', () => {
  it('serves only one bare type; anything else as bytes', () => {
    expect(servedMediaType('image/png')).toBe('image/png');
    expect(servedMediaType('image/png;x=,text/html')).toBe('application/octet-stream');
    expect(servedMediaType('image/png; charset=utf-8')).toBe('application/octet-stream');
    expect(servedMediaType(undefined)).toBe('application/octet-stream');
  });
});
