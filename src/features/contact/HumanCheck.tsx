import { useEffect, useRef } from 'react';

/** Cloudflare's script; loaded only when the Contact Us page shows the check (docs/decisions/0203). */
export const TURNSTILE_SCRIPT_URL =
  'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

interface TurnstileApi {
  render(
    container: HTMLElement,
    options: {
      sitekey: string;
      action?: string;
      theme?: 'auto' | 'light' | 'dark';
      callback?: (token: string) => void;
      'expired-callback'?: () => void;
      'error-callback'?: () => void;
    },
  ): string | undefined;
  reset(widgetId: string): void;
  remove(widgetId: string): void;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

let loading: Promise<TurnstileApi> | null = null;

/** Adds Cloudflare's script once (explicit render: it draws nothing by itself). */
function loadTurnstile(): Promise<TurnstileApi> {
  if (window.turnstile) return Promise.resolve(window.turnstile);
  loading ??= new Promise<TurnstileApi>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = TURNSTILE_SCRIPT_URL;
    script.async = true;
    script.onload = () =>
      window.turnstile ? resolve(window.turnstile) : reject(new Error('Turnstile did not load'));
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(new Error('Turnstile could not be loaded'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/** The Turnstile site key set at build time; undefined (no check) on the local stack. */
export function turnstileSiteKey(): string | undefined {
  const env = (import.meta.env as Partial<ImportMetaEnv> | undefined) ?? {};
  return env.VITE_TURNSTILE_SITE_KEY?.trim() || undefined;
}

/**
 * The human check of the contact form: Cloudflare Turnstile, which sets no tracking cookies and
 * asks most people for nothing. Renders nothing without a site key. `onToken` gets the token
 * once the check is passed and null when it expires or fails; a change of `resetKey` asks for a
 * new token (each token is accepted once).
 */
export function HumanCheck({
  siteKey,
  onToken,
  resetKey,
}: {
  siteKey: string | undefined;
  onToken: (token: string | null) => void;
  resetKey: number;
}) {
  const container = useRef<HTMLDivElement>(null);
  const widget = useRef<{ api: TurnstileApi; id: string } | null>(null);
  const tokenCallback = useRef(onToken);
  tokenCallback.current = onToken;

  useEffect(() => {
    if (!siteKey) return;
    let cancelled = false;
    loadTurnstile()
      .then((api) => {
        if (cancelled || !container.current) return;
        const id = api.render(container.current, {
          sitekey: siteKey,
          action: 'contact',
          theme: 'auto',
          callback: (token) => tokenCallback.current(token),
          'expired-callback': () => tokenCallback.current(null),
          'error-callback': () => tokenCallback.current(null),
        });
        if (id !== undefined) widget.current = { api, id };
      })
      .catch((err: unknown) => console.error('Human check unavailable', err));
    return () => {
      cancelled = true;
      if (widget.current) widget.current.api.remove(widget.current.id);
      widget.current = null;
    };
  }, [siteKey]);

  useEffect(() => {
    if (resetKey === 0 || !widget.current) return;
    tokenCallback.current(null);
    widget.current.api.reset(widget.current.id);
  }, [resetKey]);

  if (!siteKey) return null;
  return <div ref={container} data-testid="human-check" />;
}
