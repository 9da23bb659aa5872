import { Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMemo } from 'react';
import type { AdminCategory } from '../../lib/tables';
import { texts } from '../../texts';
import * as api from './api';
import { categoryEditBlocker } from './editRules';
import { RecordForm } from './RecordForm';
import { categorySchema, type CategoryValues } from './schemas';
import { ListState, SelectableTable } from './SelectableTable';
import { useRecordEditor, type RecordEditorConfig } from './useRecordEditor';

const f = texts.categoryForm;
const m = texts.category;

/** "Catagory not Deleted" with the reason: products still use it. */
function stillInUse(count: number): string {
  return `${m.deleteFailed}: ${f.stillHasProducts(count)}`;
}

const categoryEditor: RecordEditorConfig<AdminCategory, CategoryValues> = {
  table: 'catagories',
  noun: 'Catagory',
  empty: { title: '' },
  schema: categorySchema,
  messages: { ...m, loaded: m.found, getFirst: texts.validation.clickGetCategory },
  valuesOf: (category) => ({ title: category.title }),
  loadedOf: (category) => ({ id: category.id, originalTitle: category.title }),
  editBlocker: categoryEditBlocker,
  find: api.findCategoryByTitle,
  insert: api.insertCategory,
  // Products follow a rename (ON UPDATE CASCADE).
  update: (loaded, values) => api.updateCategory(loaded.id, values),
  remove: (loaded) => api.deleteCategory(loaded.id),
  // Say why up front; the database's ON DELETE RESTRICT still guards a race.
  deleteRefusal: async (loaded) => {
    const inUse = await api.countProductsIn(loaded.originalTitle);
    return inUse > 0 ? stillInUse(inUse) : null;
  },
  deleteFailure: async (error, loaded) =>
    api.isDbError(error, api.FOREIGN_KEY_VIOLATION)
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

  const counts = useMemo(() => {
    const byTitle = new Map<string, number>();
    for (const p of data.products) byTitle.set(p.cat, (byTitle.get(p.cat) ?? 0) + 1);
    return byTitle;
  }, [data.products]);

  return (
    <RecordForm
      editor={editor}
      labels={f}
      list={
        <Stack gap="sm">
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
                    <Table.Td ta="right">{counts.get(category.title) ?? 0}</Table.Td>
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
    </RecordForm>
  );
}
