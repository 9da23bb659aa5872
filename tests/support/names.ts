// Names no other test, test run or seed row uses, so test files sharing one stack never collide.
// The one place for them: integration tests, browser tests, benchmarks and scripts alike.
import { randomBytes } from 'node:crypto';

/** A recognisable marker: `prefix-<time>-<6 hex>` (lower case when the prefix is). */
export function uniqueId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

/** A fresh address at example.test; the prefix keeps its case (e-mail case rules are tested). */
export function uniqueEmail(prefix = 'user'): string {
  return `${uniqueId(prefix)}@example.test`;
}

/**
 * A title for a category or product as a person would type it: `prefix <10 characters>`, one
 * word after a space, within the 80-character title limit.
 */
export function uniqueName(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}
