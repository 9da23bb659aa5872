// Character rules of the contact form's fields, the same ones the table's checks enforce
// (migration 20260101000900_contact_validation.sql; tests/integration/contact-validation.test.ts
// feeds the same generated inputs to both). No imports: unit and property tests load it in Node.
/* eslint-disable no-control-regex -- refusing control characters is the point of these rules */

/**
 * Refused in one-line fields (the name, which also goes into the mail's Subject): control
 * characters (C0, DEL, C1), the text-direction marks, embeddings, overrides and isolates (they
 * make a name display as something else), and the line and paragraph separators.
 */
export const ONE_LINE_FORBIDDEN =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

/** Refused in the message: control characters other than tab, line feed and carriage return. */
export const MESSAGE_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Half of a UTF-16 surrogate pair without its other half: not text, Postgres cannot store it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isWellFormed(s: string): boolean {
  return !LONE_SURROGATE.test(s);
}

/** Length in characters (code points), as Postgres' char_length counts: 🏈 is 1, not 2. */
export function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
