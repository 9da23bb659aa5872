// Database access of the contact function: the service-role calls of the migrations
// 20260101000300_contact_messages.sql, 20260101000900_contact_validation.sql and
// 20260101002530_contact_flood.sql (contact_submit, contact_claim_undelivered,
// contact_record_delivery, contact_claim_digest, contact_record_digest). Every state change happens in SQL, in one statement or transaction.
import { createClient, type SupabaseClient } from 'npm:@supabase/supabase-js@2.109.0';
import type { StoredMessage } from './message.ts';

export type SubmitResult =
  /** digest: over the day's mail cap, stored for the next digest instead of a mail now. */
  | { status: 'stored'; id: string; created_at: string; digest: boolean }
  | { status: 'rate_limited'; scope: 'email' | 'ip' | 'global'; retry_after: number };

export interface SubmitInput {
  name: string;
  email: string;
  message: string;
  ip: string | null;
  /** Store the row already claimed ('sending') because the caller sends it right away. */
  claim: boolean;
  rateLimit: { max: number; windowSeconds: number };
  /** Overall cap: messages per minute from all addresses together. */
  globalPerMinute: number;
  /** Messages a day mailed on their own; later ones are stored for a digest. */
  dailyMailCap: number;
}

export interface ContactStore {
  submit(input: SubmitInput): Promise<SubmitResult>;
  claimUndelivered(limit: number, leaseSeconds: number): Promise<StoredMessage[]>;
  recordDelivery(
    id: string,
    result: { sent: true } | { sent: false; error: string },
  ): Promise<void>;
  claimDigest(limit: number, leaseSeconds: number): Promise<StoredMessage[]>;
  recordDigest(
    ids: string[],
    result: { sent: true } | { sent: false; error: string },
  ): Promise<void>;
}

export function createStore(supabaseUrl: string, serviceRoleKey: string): ContactStore {
  const db: SupabaseClient = createClient(supabaseUrl, serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });

  return {
    async submit(input) {
      const { data, error } = await db.rpc('contact_submit', {
        p_name: input.name,
        p_email: input.email,
        p_message: input.message,
        p_ip: input.ip,
        p_max: input.rateLimit.max,
        p_window_seconds: input.rateLimit.windowSeconds,
        p_claim: input.claim,
        p_global_max: input.globalPerMinute,
        p_daily_mail_cap: input.dailyMailCap,
      });
      if (error) throw new Error(`contact_submit failed: ${error.message}`);
      return data as SubmitResult;
    },

    async claimUndelivered(limit, leaseSeconds) {
      const { data, error } = await db.rpc('contact_claim_undelivered', {
        p_limit: limit,
        p_lease_seconds: leaseSeconds,
      });
      if (error) throw new Error(`contact_claim_undelivered failed: ${error.message}`);
      return (data ?? []) as StoredMessage[];
    },

    async recordDelivery(id, result) {
      const { error } = await db.rpc('contact_record_delivery', {
        p_id: id,
        p_sent: result.sent,
        p_error: result.sent ? null : result.error,
      });
      if (error) throw new Error(`contact_record_delivery failed: ${error.message}`);
    },

    async claimDigest(limit, leaseSeconds) {
      const { data, error } = await db.rpc('contact_claim_digest', {
        p_limit: limit,
        p_lease_seconds: leaseSeconds,
      });
      if (error) throw new Error(`contact_claim_digest failed: ${error.message}`);
      return (data ?? []) as StoredMessage[];
    },

    async recordDigest(ids, result) {
      const { error } = await db.rpc('contact_record_digest', {
        p_ids: ids,
        p_sent: result.sent,
        p_error: result.sent ? null : result.error,
      });
      if (error) throw new Error(`contact_record_digest failed: ${error.message}`);
    },
  };
}
