import { useRef, useState } from 'react';
import { useForm, type DefaultValues, type FieldValues, type Path } from 'react-hook-form';
import type { z } from 'zod';
import { notify } from '../../../lib/infra/notify';
import { useSubmitLock } from '../../../lib/infra/useSubmitLock';
import { texts } from '../../../adminTexts';
import { isDbError, unanswered, UNIQUE_VIOLATION, type WriteOutcome } from '../db';
import { titleNeedsCheck, type Loaded } from './editRules';
import { useAdminData } from '../AdminData';
import { titleSchema } from './titleSchema';
import { useAdminLoss } from '../team/useAdminLoss';
import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import { useSessionDraft } from '../session/useSessionDraft';
import { validateWith } from './validateWith';

export type EditorAction = 'add' | 'get' | 'update' | 'delete';

/** Both editors find records by their title field. */
type TitledValues = FieldValues & { title: string };

/** The spec's messages of one editor (REQ-PROD-3..9, REQ-CAT-2..5), e.g. "Product Added", "Catagory not Deleted". */
export interface EditorMessages {
  loaded: string;
  added: string;
  addFailed: string;
  getFailed: string;
  notFound: string;
  updated: string;
  updateFailed: string;
  deleted: string;
  deleteFailed: string;
  /** Update with nothing loaded. */
  getFirst: string;
  /** Update of a record changed since Get (products only; null: the usual failure). */
  stale?: string;
}

/**
 * What differs between the Products and the Catagories editor: the table, the form's values and
 * schema, the data calls, the messages, and the extra failures each one explains.
 */
export interface RecordEditorConfig<TRecord extends { id: string }, TValues extends TitledValues> {
  /** Names the record in console messages ("Product", "Catagory"). */
  noun: string;
  /** Where a draft of this form is kept when the session ends (REQ-MFA-5). */
  draftKey: string;
  empty: TValues;
  schema: z.ZodType<TValues>;
  messages: EditorMessages;
  valuesOf: (record: TRecord) => TValues;
  loadedOf: (record: TRecord) => Loaded;
  /** REQ-PROD-5, REQ-CAT-4: what Update and Delete need first; null when they may go on. */
  editBlocker: (title: string, loaded: Loaded | null) => string | null;
  find: (title: string) => Promise<TRecord | null>;
  /** REQ-PATH-10: after "Not Foound", the record this title names in another case, or null. */
  suggest?: (title: string) => Promise<TRecord | null>;
  // Each write is one request: the database checks the title (and a product's version) in the
  // same transaction as the write (docs/decisions/0223).
  insert: (values: TValues) => Promise<WriteOutcome>;
  update: (loaded: Loaded, values: TValues) => Promise<WriteOutcome>;
  /** False when nothing was deleted. */
  remove: (loaded: Loaded) => Promise<boolean>;
  /** A message for a delete failure of this kind of record only (null: the usual one). */
  deleteFailure?: (error: unknown, loaded: Loaded) => Promise<string | null>;
}

/**
 * The Get-then-edit flow shared by the Products and Catagories tabs (REQ-PROD-1..10, REQ-CAT-1..5): Add; Get by
 * exact title, which loads the fields and remembers the id and original title; Update and Delete
 * only after a successful Get, Delete after a confirmation; the form clears after every successful
 * write, and anything unforeseen ends in "Something went Wrong". One action runs at a time.
 */
export function useRecordEditor<TRecord extends { id: string }, TValues extends TitledValues>(
  config: RecordEditorConfig<TRecord, TValues>,
) {
  const { messages: m, noun } = config;
  const data = useAdminData();
  const form = useForm<TValues>({ defaultValues: config.empty as DefaultValues<TValues> });
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [confirming, setConfirming] = useState(false);
  // REQ-PATH-10: on a phone the list comes first; Add or a row's Edit opens the form.
  const [formOpen, setFormOpen] = useState(false);
  // "Did you mean …?" beside the spec's "Not Foound" (REQ-PATH-10).
  const [suggestion, setSuggestion] = useState<TRecord | null>(null);
  const { busy, run } = useSubmitLock<EditorAction>();
  const formBox = useRef<HTMLDivElement>(null);
  const titleField = 'title' as Path<TValues>;
  // REQ-MFA-5: what was typed (and which record Get loaded) outlives a session that ended.
  const clearDraft = useSessionDraft(config.draftKey, form, {
    get: () => loaded,
    restore: (value) => {
      setLoaded(value as Loaded | null);
      setFormOpen(true);
    },
  });

  // A message under a field goes away as soon as the field is edited.
  const register = (name: Path<TValues>) =>
    form.register(name, {
      onChange: () => {
        form.clearErrors(name);
        if (name === titleField) setSuggestion(null);
      },
    });

  const fail = (message: string, onTitle = false) => {
    if (onTitle) form.setError(titleField, { type: 'server', message }, { shouldFocus: true });
    notify.error(message);
  };

  // A write refused because the session ended says only that (REQ-MFA-5): a dead session's
  // write is refused as a stranger's, which looked like "changed since Get" or "no longer an
  // admin". Otherwise a write RLS refused may mean this account was removed from the admins
  // meanwhile: the spec's message first (REQ texts stay), then the reason when the database
  // confirms it.
  const adminLost = useAdminLoss();
  const writeFailed = async (message: string, error?: unknown) => {
    if (await sessionEndedAfter(error)) return;
    fail(message);
    await adminLost();
  };

  const clear = () => {
    setSuggestion(null);
    form.reset(config.empty);
    setLoaded(null);
    clearDraft();
  };

  const load = (record: TRecord) => {
    setSuggestion(null);
    form.reset(config.valuesOf(record));
    setLoaded(config.loadedOf(record));
    notify.success(m.loaded);
  };

  const succeeded = async (message: string) => {
    notify.success(message);
    clear();
    await data.reload();
  };

  const act = (action: EditorAction, work: () => Promise<void>) =>
    run(action, async () => {
      try {
        await work();
      } catch (error) {
        console.error(`${noun} ${action} failed`, error);
        notify.error(texts.unexpected);
      }
    });

  const onAdd = () =>
    act('add', async () => {
      const values = validateWith(form, config.schema);
      if (!values) return;
      let written: WriteOutcome;
      try {
        written = await config.insert(values);
      } catch (error) {
        console.error(`Adding a ${noun.toLowerCase()} failed`, error);
        // Another unique rule (a product's slug) answers as it always did.
        if (isDbError(error, UNIQUE_VIOLATION)) fail(texts.validation.titleInUse, true);
        // No answer at all: "Something went Wrong", as when the title check was a request of
        // its own before the write (the messages stay as they were, REQ-PROD-3).
        else if (unanswered(error) && !(await sessionEndedAfter(error))) throw error;
        else await writeFailed(m.addFailed, error);
        return;
      }
      if (written.result === 'title_in_use') fail(texts.validation.titleInUse, true);
      else if (written.result !== 'added') await writeFailed(m.addFailed);
      else await succeeded(m.added);
    });

  const onGet = () =>
    act('get', async () => {
      const values = validateWith(form, titleSchema);
      if (!values) return;
      let record: TRecord | null;
      try {
        record = await config.find(values.title);
      } catch (error) {
        console.error(`Getting a ${noun.toLowerCase()} failed`, error);
        fail(m.getFailed);
        return;
      }
      if (!record) {
        // A failed Get leaves nothing loaded, so Update/Delete ask for a Get again.
        setLoaded(null);
        fail(m.notFound, true);
        // The spec's message stays; a product in another case is offered next to it.
        setSuggestion((await config.suggest?.(values.title).catch(() => null)) ?? null);
        return;
      }
      load(record);
    });

  const onUpdate = () =>
    act('update', async () => {
      form.clearErrors();
      const blocker = config.editBlocker(String(form.getValues(titleField)), loaded);
      if (blocker || !loaded) {
        fail(blocker ?? m.getFirst, true);
        return;
      }
      const values = validateWith(form, config.schema);
      if (!values) return;
      let written: WriteOutcome;
      try {
        written = await config.update(loaded, values);
      } catch (error) {
        console.error(`Updating a ${noun.toLowerCase()} failed`, error);
        if (isDbError(error, UNIQUE_VIOLATION)) fail(texts.validation.titleInUse, true);
        // As Add: a new title used to be checked first, and that check failing was unexpected.
        else if (
          unanswered(error) &&
          titleNeedsCheck(values.title, loaded) &&
          !(await sessionEndedAfter(error))
        )
          throw error;
        else await writeFailed(m.updateFailed, error);
        return;
      }
      if (written.result === 'title_in_use') fail(texts.validation.titleInUse, true);
      else if (written.result === 'stale') {
        // A dead session's update finds no row it may change: that is not "changed by someone".
        if (!(await sessionEndedAfter())) fail(m.stale ?? m.updateFailed);
      } else if (written.result !== 'changed') await writeFailed(m.updateFailed);
      else await succeeded(m.updated);
    });

  const onDeleteRequest = () => {
    form.clearErrors();
    const blocker = config.editBlocker(String(form.getValues(titleField)), loaded);
    if (blocker) {
      fail(blocker, true);
      return;
    }
    setConfirming(true);
  };

  const onDeleteConfirmed = () => {
    setConfirming(false);
    const target = loaded;
    if (!target) return;
    void act('delete', async () => {
      let deleted: boolean;
      try {
        deleted = await config.remove(target);
      } catch (error) {
        console.error(`Deleting a ${noun.toLowerCase()} failed`, error);
        if (await sessionEndedAfter(error)) return;
        const own = await config.deleteFailure?.(error, target);
        if (own) {
          fail(own);
          return;
        }
        deleted = false;
      }
      if (!deleted) {
        await writeFailed(m.deleteFailed);
        return;
      }
      await succeeded(m.deleted);
    });
  };

  /** Opens the form (on a phone it is hidden behind the list) and scrolls it into view. */
  const openForm = () => {
    setFormOpen(true);
    // After the render that shows it.
    setTimeout(() => formBox.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' }));
  };

  /** A row chosen in the list: loaded like a Get, and the form opened and scrolled into view. */
  const select = (record: TRecord) => {
    if (busy !== null) return;
    load(record);
    openForm();
  };

  return {
    data,
    form,
    register,
    errors: form.formState.errors,
    loaded,
    busy,
    formBox,
    confirming,
    formOpen,
    suggestion,
    openForm,
    closeForm: () => setFormOpen(false),
    clear,
    select,
    onAdd,
    onGet,
    onUpdate,
    onDeleteRequest,
    onDeleteConfirmed,
    onDeleteCancelled: () => setConfirming(false),
  };
}

export type RecordEditor = ReturnType<typeof useRecordEditor>;
