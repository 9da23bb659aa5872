import { withoutSecrets } from './sessionRefusal';

// REQ-MFA-5: what an admin typed survives a session that ended: kept in sessionStorage (this tab
// only, gone with it) until saved, and put back after signing in again. Never passwords or codes.

const PREFIX = 'mar-draft:';
const RETURN_KEY = 'mar-return-to';

function store(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

export function saveDraft(key: string, values: Record<string, unknown>, extra?: unknown): void {
  try {
    store()?.setItem(PREFIX + key, JSON.stringify({ values: withoutSecrets(values), extra }));
  } catch (error) {
    console.error('Keeping the draft failed', error);
  }
}

export function readDraft<T>(key: string): { values: Partial<T>; extra?: unknown } | null {
  try {
    const raw = store()?.getItem(PREFIX + key);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { values?: unknown; extra?: unknown };
    if (typeof parsed.values !== 'object' || parsed.values === null) return null;
    return { values: parsed.values as Partial<T>, extra: parsed.extra };
  } catch {
    return null;
  }
}

export function clearDraft(key: string): void {
  store()?.removeItem(PREFIX + key);
}

/** Where to come back to after signing in again: this page and, in the admin area, its tab. */
export function rememberReturn(path: string, tab?: string): void {
  const s = store();
  s?.setItem(RETURN_KEY, path);
  if (tab) s?.setItem(`${RETURN_KEY}:tab`, tab);
}

function take(key: string): string | null {
  const s = store();
  const value = s?.getItem(key) ?? null;
  if (value !== null) s?.removeItem(key);
  return value;
}

/** The page to come back to, once; only a path inside this app (never another site). */
export function takeReturnPath(): string | null {
  const path = take(RETURN_KEY);
  return path && /^\/(?![/\\])/.test(path) ? path : null;
}

/**
 * The admin tab to open on coming back. Read while rendering (a render that suspends runs again),
 * so it is only peeked here and forgotten by forgetReturnTab once the page is shown.
 */
export function peekReturnTab(): string | null {
  return store()?.getItem(`${RETURN_KEY}:tab`) ?? null;
}

export function forgetReturnTab(): void {
  store()?.removeItem(`${RETURN_KEY}:tab`);
}
