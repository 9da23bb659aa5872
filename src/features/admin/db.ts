import type { PostgrestError } from '@supabase/supabase-js';
import type { Json } from '../../lib/infra/database.types';

// What every admin API file (products, categories, team, link health) shares: the database's
// errors and the answer of the one-request admin writes.

/** A failed database call; `code` is Postgres's SQLSTATE (23505 unique, 23503 still referenced). */
export class DbError extends Error {
  readonly code: string;
  /** The database's hint: the field a store rule refused names itself here (sellers, offers). */
  readonly hint: string | null;
  constructor(error: PostgrestError) {
    super(error.message);
    this.name = 'DbError';
    this.code = error.code;
    this.hint = error.hint ?? null;
  }
}

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';

export function isDbError(error: unknown, code?: string): error is DbError {
  return error instanceof DbError && (code === undefined || error.code === code);
}

/**
 * A failure the database never answered: offline, the gateway or PostgREST down. Postgres
 * errors carry a five-character SQLSTATE; these carry none (or PostgREST's own PGRST… code).
 */
export function unanswered(error: unknown): boolean {
  return !(error instanceof DbError) || !/^[0-9A-Z]{5}$/.test(error.code ?? '');
}

export function check<T>(result: { data: T | null; error: PostgrestError | null }): T {
  if (result.error) throw new DbError(result.error);
  if (result.data === null) throw new Error('The database returned no data');
  return result.data;
}

/**
 * What one admin write answered (docs/decisions/0223): the title check, the version check and
 * the write ran in one transaction, so "title in use" and "changed since Get" cannot race it.
 */
export type WriteResult = 'added' | 'changed' | 'deleted' | 'not_found' | 'stale' | 'title_in_use';

export interface WriteOutcome {
  result: WriteResult;
  /** A product's uploaded picture that nothing shows any more: its files are to be removed. */
  unused_image?: string | null;
}

/** The RPC's answer as it came; an answer the form does not know counts as a failure there. */
export function outcome(result: { data: Json | null; error: PostgrestError | null }): WriteOutcome {
  return check(result) as unknown as WriteOutcome;
}
