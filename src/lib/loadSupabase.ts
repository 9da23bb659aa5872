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

/** The admin check asked for before React ran (features/admin/earlyStart.ts), for one user. */
let earlyAdminCheck: { userId: string; at: number; answer: Promise<boolean> } | null = null;
const EARLY_CHECK_TTL_MS = 10_000;

export function setEarlyAdminCheck(userId: string, answer: Promise<boolean>): void {
  // A failed early check is asked again by AuthProvider, not reported here.
  answer.catch(() => {});
  earlyAdminCheck = { userId, at: Date.now(), answer };
}

/** The early answer for `userId`, once, if it is fresh; AuthProvider asks itself otherwise. */
export function takeEarlyAdminCheck(userId: string): Promise<boolean> | null {
  const early = earlyAdminCheck;
  earlyAdminCheck = null;
  return early?.userId === userId && Date.now() - early.at < EARLY_CHECK_TTL_MS
    ? early.answer
    : null;
}
