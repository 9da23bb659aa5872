// Database access of the Storage service. It connects as supabase_storage_admin (as hosted's
// service does) and runs each request's work as the caller: a transaction that first switches to
// the caller's role and JWT claims, like PostgREST, so storage.objects' row-level security decides
// exactly as on hosted. Lookups hosted does "as superuser" (public objects, bucket limits) use
// the service's own role, which bypasses RLS.
import pg from 'pg';
import type { JwtClaims } from '../auth/jwt.ts';

export type ApiRole = 'anon' | 'authenticated' | 'service_role';

export interface Caller {
  role: ApiRole;
  claims: JwtClaims;
  /** The raw token (request.jwt, as hosted sets it). */
  jwt: string;
  /** The user's id when the token has one. */
  sub: string | null;
}

// The API roles' own statement timeouts (stack/PLATFORM.md: Roles), which PostgREST applies too;
// a role switch inside a session would not.
const STATEMENT_TIMEOUTS: Record<ApiRole, string> = {
  anon: '3s',
  authenticated: '8s',
  service_role: '0',
};

export class StorageDb {
  readonly pool: pg.Pool;

  constructor(url: string) {
    this.pool = new pg.Pool({ connectionString: url, max: 10 });
    this.pool.on('error', () => undefined);
  }

  /** A query with the service's own rights (bypasses RLS): only for what hosted does so too. */
  async asService<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []) {
    return this.pool.query<R>(sql, params);
  }

  /**
   * Runs `work` in a transaction as the caller. `work` may do more than SQL before the commit
   * (the upload moves its file into place there); any error rolls everything back.
   */
  async asCaller<T>(caller: Caller, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      await client.query(
        `select set_config('role', $1, true),
                set_config('request.jwt.claim.role', $1, true),
                set_config('request.jwt', $2, true),
                set_config('request.jwt.claim.sub', $3, true),
                set_config('request.jwt.claims', $4, true),
                set_config('storage.allow_delete_query', 'true', true),
                set_config('statement_timeout', $5, true)`,
        [
          caller.role,
          caller.jwt,
          caller.sub ?? '',
          JSON.stringify(caller.claims),
          STATEMENT_TIMEOUTS[caller.role],
        ],
      );
      const result = await work(client);
      await client.query('commit');
      return result;
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
