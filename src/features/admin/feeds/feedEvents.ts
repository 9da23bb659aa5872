// The notice above the admin tabs counts failing feeds and held changes; the Feeds tab tells it
// to count again when it changed either (a window event: the two are separate lazy chunks).
const FEEDS_CHANGED = 'mar:feeds-changed';

export function announceFeedsChanged(): void {
  window.dispatchEvent(new Event(FEEDS_CHANGED));
}

export function onFeedsChanged(listener: () => void): () => void {
  window.addEventListener(FEEDS_CHANGED, listener);
  return () => window.removeEventListener(FEEDS_CHANGED, listener);
}
