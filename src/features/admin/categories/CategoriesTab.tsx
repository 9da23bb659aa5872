import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import { Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useInViewport } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { notify } from '../../../lib/infra/notify';
import type { AdminCategory } from '../../../lib/domain/tables';
import { texts } from '../../../adminTexts';
import { FOREIGN_KEY_VIOLATION, isDbError } from '../db';
import * as api from './categoryApi';
import { MoveThenDeleteDialog } from './MoveThenDeleteDialog';
import { categoryEditBlocker } from '../editor/editRules';
import { RecordForm } from '../editor/RecordForm';
import { categorySchema, type CategoryValues } from './categorySchema';
import { ListState, SelectableTable } from '../editor/SelectableTable';
import { useRecordEditor, type RecordEditorConfig } from '../editor/useRecordEditor';

const f = texts.categoryForm;
const m = texts.category;

/** "Catagory not Deleted" with the reason: products still use it. */
function stillInUse(count: number): string {
  return `${m.deleteFailed}: ${f.stillHasProducts(count)}`;
}

const categoryEditor: RecordEditorConfig<AdminCategory, CategoryValues> = {
  noun: 'Catagory',
  draftKey: 'category',
  empty: { title: '' },
  schema: categorySchema,
  messages: { ...m, loaded: m.found, getFirst: texts.validation.clickGetCategory },
  valuesOf: (category) => ({ title: category.title }),
  loadedOf: (category) => ({ id: category.id, originalTitle: category.title }),
  editBlocker: categoryEditBlocker,
  find: api.findCategoryByTitle,
  insert: api.addCategory,
  // Products follow a rename (ON UPDATE CASCADE).
  update: (loaded, values) => api.updateCategory(loaded.id, values),
  // Products in use were counted when Delete was pressed (the move-first dialog); a product
  // added since is refused by the database (ON DELETE RESTRICT) and counted only then.
  remove: (loaded) => api.deleteCategory(loaded.id),
  deleteFailure: async (error, loaded) =>
    isDbError(error, FOREIGN_KEY_VIOLATION)
      ? stillInUse(await api.countProductsIn(loaded.originalTitle))
      : null,
};

/**
 * Catagories tab (REQ-CAT-1..5): the record editor for categories — Add, Get, then Update
 * (rename; products follow) or Delete (refused while products use the category).
 */
export function CategoriesTab() {
  const editor = useRecordEditor(categoryEditor);
  const { data, register, errors } = editor;

  // Counting reads the whole (cat, …) index: only once the tab is shown, not at every login.
  const { ref: listRef, inViewport } = useInViewport();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (inViewport) setShown(true);
  }, [inViewport]);
  const counts = useCategoryCounts(data.version, shown);
  const [moveFirst, setMoveFirst] = useState<{ title: string; count: number } | null>(null);
  const [moving, setMoving] = useState(false);

  // A category with products: offer to move them first, before any "permanently deletes".
  const onDeleteRequest = () => {
    const loaded = editor.loaded;
    if (!loaded || categoryEditBlocker(editor.form.getValues('title'), loaded)) {
      editor.onDeleteRequest();
      return;
    }
    api.countProductsIn(loaded.originalTitle).then(
      (count) =>
        count > 0 ? setMoveFirst({ title: loaded.originalTitle, count }) : editor.onDeleteRequest(),
      // Counting failed: the usual confirmation; the database still refuses a delete in use.
      () => editor.onDeleteRequest(),
    );
  };

  const onMoveThenDelete = async (moveTo: string) => {
    const loaded = editor.loaded;
    if (!loaded) return;
    setMoving(true);
    try {
      const deleted = await api.deleteCategory(loaded.id, moveTo);
      if (deleted) {
        notify.success(m.deleted);
        editor.clear();
        await data.reload();
      } else if (!(await sessionEndedAfter())) {
        notify.error(m.deleteFailed);
      }
    } catch (error) {
      console.error('Moving products and deleting a catagory failed', error);
      if (!(await sessionEndedAfter(error))) notify.error(m.deleteFailed);
    } finally {
      setMoving(false);
      setMoveFirst(null);
    }
  };

  return (
    <RecordForm
      editor={{ ...editor, onDeleteRequest }}
      labels={f}
      list={
        <Stack gap="sm" ref={listRef}>
          <Title order={2} size="h4">
            {f.listHeading} ({data.categories.length})
          </Title>
          <ListState
            loading={data.loading}
            failed={data.failed}
            loadingLabel={texts.admin.loadingCategories}
            onRetry={() => void data.reload()}
          >
            {data.categories.length === 0 ? (
              <Text c="dimmed">{f.none}</Text>
            ) : (
              <SelectableTable
                label={f.listHeading}
                head={
                  <>
                    <Table.Th>{f.title}</Table.Th>
                    <Table.Th ta="right">{f.products}</Table.Th>
                  </>
                }
                rows={data.categories}
                cells={(category) => (
                  <>
                    <Table.Td>{category.title}</Table.Td>
                    <Table.Td ta="right">{counts?.get(category.title) ?? '…'}</Table.Td>
                  </>
                )}
                selectedId={editor.loaded?.id ?? null}
                disabled={editor.busy !== null}
                onSelect={editor.select}
              />
            )}
          </ListState>
        </Stack>
      }
    >
      <TextInput
        label={f.title}
        withAsterisk
        error={errors.title?.message}
        {...register('title')}
      />
      <MoveThenDeleteDialog
        subject={moveFirst}
        targets={data.categories.map((c) => c.title).filter((title) => title !== moveFirst?.title)}
        busy={moving}
        onConfirm={(moveTo) => void onMoveThenDelete(moveTo)}
        onCancel={() => setMoveFirst(null)}
      />
    </RecordForm>
  );
}

/** Each category's product count, from one aggregate query, read again after every write. */
function useCategoryCounts(version: number, enabled: boolean): Map<string, number> | null {
  const [counts, setCounts] = useState<Map<string, number> | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    api.categoryProductCounts().then(
      (found) => current && setCounts(found),
      (error: unknown) => console.error('Counting products per catagory failed', error),
    );
    return () => {
      current = false;
    };
  }, [version, enabled]);
  return counts;
}
