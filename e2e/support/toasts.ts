// Every toast a page shows, noted in the page as it appears. A success toast lasts 2 s; on a busy
// 2-core runner a test polling for it from outside the page has missed one that did show (CI), so
// `expectToast` asks the page what it showed since the last check instead.

declare global {
  interface Window {
    /** Toast texts (title, message) and when they appeared; `expectToast` empties it. */
    __marToasts?: Array<{ text: string; at: number }>;
  }
}

/** The init script: notes the text of each toast in Mantine's container once, as it appears. */
export function noteToasts(): void {
  const seen: Array<{ text: string; at: number }> = [];
  const noted = new WeakMap<Element, Set<string>>();
  window.__marToasts = seen;
  // Mantine has a container per screen position: look in all of them.
  const scan = () => {
    for (const alert of document.querySelectorAll('.mantine-Notifications-root [role="alert"]')) {
      const mine = noted.get(alert) ?? new Set<string>();
      noted.set(alert, mine);
      for (const part of alert.querySelectorAll(
        '.mantine-Notification-title, .mantine-Notification-description',
      )) {
        const text = (part.textContent ?? '').replace(/\s+/g, ' ').trim();
        if (text && !mine.has(text)) {
          mine.add(text);
          seen.push({ text, at: Date.now() });
        }
      }
    }
  };
  new MutationObserver(scan).observe(document, {
    childList: true,
    subtree: true,
    characterData: true,
  });
}

/**
 * Whether the page showed a toast with exactly `message` since the last check and within the
 * last 15 s (an error toast's 4 s and room to look; an older one is not this action's), then
 * forgets what it noted; null when the page has no notes (a page of another browser context).
 */
export function takeToastNotes(message: string): boolean | null {
  const seen = window.__marToasts;
  if (!seen) return null;
  if (!seen.some((t) => t.text === message && t.at >= Date.now() - 15_000)) return false;
  seen.length = 0;
  return true;
}
