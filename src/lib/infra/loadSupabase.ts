import type { Session } from '@supabase/supabase-js';
import type { supabase as Client } from './supabase';

type SupabaseClient = typeof Client;

let loaded: SupabaseClient | null = null;
const listeners = new Set<(client: SupabaseClient) => void>();

/** Records the client and tells those waiting for it (supabase.ts calls this when it loads). */
export function clientLoaded(client: SupabaseClient): void {
  if (loaded) return;
  loaded = client;
  for (const listener of listeners) listener(client);
  listeners.clear();
}

/**
 * The supabase-js client, fetched on first use. supabase-js (auth, PostgREST, realtime, storage
 * clients) is about a third of the app's JavaScript; loading it on demand lets the storefront
 * render and hydrate without it. The module is cached, so every caller gets the same client.
 */
export function loadSupabase(): Promise<SupabaseClient> {
  return import('./supabase').then((m) => {
    clientLoaded(m.supabase);
    return m.supabase;
  });
}

/**
 * Calls `listener` once the client exists, whoever loaded it (a page that imports it directly,
 * such as the login page, or loadSupabase). Returns a function that stops waiting.
 */
export function onClientLoaded(listener: (client: SupabaseClient) => void): () => void {
  if (loaded) {
    listener(loaded);
    return () => {};
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** supabase-js keeps the session under `sb-<project ref>-auth-token`. */
export const isSessionKey = (key: string): boolean => /^sb-.+-auth-token$/.test(key);

/**
 * Whether this browser may hold a session: one stored by supabase-js, or one arriving in the URL
 * (an e-mail link's redirect carries tokens in the fragment, a PKCE one a `code`). Without either,
 * nobody is signed in and the client is not needed yet.
 */
export function mayHaveSession(
  storage: Pick<Storage, 'length' | 'key'> = window.localStorage,
  location: Pick<Location, 'hash' | 'search'> = window.location,
): boolean {
  if (/(^#|&)(access_token|refresh_token|error)=/.test(location.hash)) return true;
  if (new URLSearchParams(location.search).has('code')) return true;
  try {
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key && isSessionKey(key)) return true;
    }
    return false;
  } catch {
    return true; // storage blocked: let supabase-js decide
  }
}

/**
 * The session and admin check asked for before React ran (features/admin/earlyStart.ts), so
 * AuthProvider's first render can know both (decision 0180); `isAdmin` is set on the answer.
 */
export interface EarlyAuth {
  session: Session;
  at: number;
  answer: Promise<boolean>;
  isAdmin?: boolean;
}
let earlyAuth: EarlyAuth | null = null;
const EARLY_AUTH_TTL_MS = 10_000;

export function setEarlyAuth(session: Session, answer: Promise<boolean>): void {
  const entry: EarlyAuth = { session, at: Date.now(), answer };
  // A failed early check is asked again by AuthProvider, not reported here.
  answer.then((isAdmin) => (entry.isAdmin = isAdmin)).catch(() => {});
  earlyAuth = entry;
}

/** The early session and check if they are fresh (AuthProvider's first render); not used up. */
export function peekEarlyAuth(): EarlyAuth | null {
  return earlyAuth && Date.now() - earlyAuth.at < EARLY_AUTH_TTL_MS ? earlyAuth : null;
}

/** The early admin check's answer for `userId`, once; AuthProvider asks itself otherwise. */
export function takeEarlyAdminCheck(userId: string): Promise<boolean> | null {
  const early = peekEarlyAuth();
  earlyAuth = null;
  return early?.session.user.id === userId ? early.answer : null;
}
