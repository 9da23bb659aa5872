import { useCallback, useRef, useState } from 'react';

/**
 * One submission at a time per form: `busy` names the running action (its button shows progress,
 * the others are disabled), and a second submit — even a double Enter before React re-renders,
 * which react-hook-form does not stop — is ignored.
 */
export function useSubmitLock<TAction extends string = 'submit'>() {
  const running = useRef(false);
  const [busy, setBusy] = useState<TAction | null>(null);
  const run = useCallback(async (action: TAction, work: () => Promise<void>) => {
    if (running.current) return;
    running.current = true;
    setBusy(action);
    try {
      await work();
    } finally {
      running.current = false;
      setBusy(null);
    }
  }, []);
  return { busy, run };
}
