/**
 * True when Auth redirected here from an e-mail link that failed (expired or already used): it
 * puts `error_code`/`error_description` in the fragment (and, for PKCE links, in the query).
 * supabase-js leaves a failed link's fragment in place, so a page can read it when it renders.
 */
export function cameFromFailedEmailLink(
  location: Pick<Location, 'hash' | 'search'> = window.location,
): boolean {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const query = new URLSearchParams(location.search);
  return [fragment, query].some((p) => p.has('error_code') || p.has('error_description'));
}
