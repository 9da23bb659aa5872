import { useEffect, useRef } from 'react';
import type { DefaultValues, FieldValues, UseFormReturn } from 'react-hook-form';
import { clearDraft, readDraft, saveDraft } from '../../../lib/infra/sessionDraft';
import { useSessionEnded } from '../../../lib/infra/sessionEnded';

/**
 * REQ-MFA-5: keeps a form's values across a session that ended. Once the session has ended the
 * values (and `extra`, e.g. which record Get loaded) are kept in sessionStorage as they are typed;
 * after signing in again the form starts from them. The caller clears the draft on a successful
 * save (or Clear). Password and code fields are never kept (sessionDraft).
 */
export function useSessionDraft<T extends FieldValues>(
  key: string,
  form: UseFormReturn<T>,
  extra?: { get: () => unknown; restore: (value: unknown) => void },
): () => void {
  const ended = useSessionEnded();
  const extraRef = useRef(extra);
  extraRef.current = extra;

  useEffect(() => {
    const draft = readDraft<T>(key);
    if (!draft) return;
    form.reset({ ...form.getValues(), ...draft.values } as DefaultValues<T>);
    if (draft.extra !== undefined) extraRef.current?.restore(draft.extra);
    // Only on mount: the draft is where this form starts.
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    if (!ended) return;
    const save = () => saveDraft(key, form.getValues(), extraRef.current?.get());
    save();
    const watching = form.watch(save);
    return () => watching.unsubscribe();
  }, [ended, key, form]);

  return () => clearDraft(key);
}
