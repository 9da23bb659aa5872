import {
  Alert,
  Badge,
  Button,
  Center,
  Grid,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useForm } from 'react-hook-form';
import { notify } from '../../lib/notify';
import { texts } from '../../texts';
import {
  countProductsIn,
  deleteCategory,
  findCategoryByTitle,
  FOREIGN_KEY_VIOLATION,
  insertCategory,
  isDbError,
  titleInUse,
  UNIQUE_VIOLATION,
  updateCategory,
  type Category,
} from './api';
import { useAdminData } from './AdminData';
import { ConfirmDialog } from './ConfirmDialog';
import { categoryEditBlocker, titleNeedsCheck, type Loaded } from './flow';
import { categorySchema, titleSchema, type CategoryValues } from './schemas';
import { useActionLock, validateWith } from './useFormTools';

type Action = 'add' | 'get' | 'update' | 'delete';

const f = texts.categoryForm;
const m = texts.category;
const empty: CategoryValues = { title: '' };

/** "Catagory not Deleted" with the reason: products still use it. */
function stillInUse(count: number): string {
  return `${m.deleteFailed}: ${f.stillHasProducts(count)}`;
}

/**
 * Catagories tab (REQ-CAT-1..5): the product flow for categories — Add, Get, then Update
 * (rename; products follow) or Delete (refused while products use the category).
 */
export function CategoriesTab() {
  const data = useAdminData();
  const form = useForm<CategoryValues>({ defaultValues: empty });
  const { reset, setError, formState } = form;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [confirming, setConfirming] = useState(false);
  const { busy, run } = useActionLock<Action>();
  const formBox = useRef<HTMLDivElement>(null);

  const counts = useMemo(() => {
    const byTitle = new Map<string, number>();
    for (const p of data.products) byTitle.set(p.cat, (byTitle.get(p.cat) ?? 0) + 1);
    return byTitle;
  }, [data.products]);

  const fail = (message: string, onField = false) => {
    if (onField) setError('title', { type: 'server', message }, { shouldFocus: true });
    notify.error(message);
  };

  const clear = () => {
    reset(empty);
    setLoaded(null);
  };

  const load = (category: Category) => {
    reset({ title: category.title });
    setLoaded({ id: category.id, originalTitle: category.title });
    notify.success(m.found);
  };

  const act = (action: Action, work: () => Promise<void>) =>
    run(action, async () => {
      try {
        await work();
      } catch (error) {
        console.error(`Catagory ${action} failed`, error);
        notify.error(texts.unexpected);
      }
    });

  const onAdd = () =>
    act('add', async () => {
      const values = validateWith(form, categorySchema);
      if (!values) return;
      if (await titleInUse('catagories', values.title)) {
        fail(texts.validation.titleInUse, true);
        return;
      }
      try {
        await insertCategory(values);
      } catch (error) {
        console.error('Adding a catagory failed', error);
        if (isDbError(error, UNIQUE_VIOLATION)) fail(texts.validation.titleInUse, true);
        else fail(m.addFailed);
        return;
      }
      notify.success(m.added);
      clear();
      await data.reload();
    });

  const onGet = () =>
    act('get', async () => {
      const values = validateWith(form, titleSchema);
      if (!values) return;
      let category: Category | null;
      try {
        category = await findCategoryByTitle(values.title);
      } catch (error) {
        console.error('Getting a catagory failed', error);
        fail(m.getFailed);
        return;
      }
      if (!category) {
        setLoaded(null);
        fail(m.notFound, true);
        return;
      }
      load(category);
    });

  const onUpdate = () =>
    act('update', async () => {
      form.clearErrors();
      const blocker = categoryEditBlocker(form.getValues('title'), loaded);
      if (blocker || !loaded) {
        fail(blocker ?? texts.validation.clickGetCategory, true);
        return;
      }
      const values = validateWith(form, categorySchema);
      if (!values) return;
      if (
        titleNeedsCheck(values.title, loaded) &&
        (await titleInUse('catagories', values.title, loaded.id))
      ) {
        fail(texts.validation.titleInUse, true);
        return;
      }
      let updated: Category | null;
      try {
        updated = await updateCategory(loaded.id, values);
      } catch (error) {
        console.error('Updating a catagory failed', error);
        if (isDbError(error, UNIQUE_VIOLATION)) fail(texts.validation.titleInUse, true);
        else fail(m.updateFailed);
        return;
      }
      if (!updated) {
        fail(m.updateFailed);
        return;
      }
      notify.success(m.updated);
      clear();
      await data.reload();
    });

  const onDeleteRequest = () => {
    form.clearErrors();
    const blocker = categoryEditBlocker(form.getValues('title'), loaded);
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
      // Say why up front; the database's ON DELETE RESTRICT still guards a race.
      const inUse = await countProductsIn(target.originalTitle);
      if (inUse > 0) {
        fail(stillInUse(inUse));
        return;
      }
      let deleted: boolean;
      try {
        deleted = await deleteCategory(target.id);
      } catch (error) {
        console.error('Deleting a catagory failed', error);
        if (isDbError(error, FOREIGN_KEY_VIOLATION)) {
          fail(stillInUse(await countProductsIn(target.originalTitle)));
          return;
        }
        deleted = false;
      }
      if (!deleted) {
        fail(m.deleteFailed);
        return;
      }
      notify.success(m.deleted);
      clear();
      await data.reload();
    });
  };

  const buttonProps = (action: Action) => ({
    loading: busy === action,
    disabled: busy !== null && busy !== action,
  });

  const choose = (category: Category) => {
    if (busy !== null) return;
    load(category);
    // On a phone the form sits above the list: bring the loaded catagory into view.
    formBox.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  };
  const onRowKey = (event: KeyboardEvent, category: Category) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      choose(category);
    }
  };

  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Paper withBorder p="md" radius="md" ref={formBox} style={{ scrollMarginTop: 80 }}>
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void onAdd();
            }}
          >
            <Stack gap="sm">
              {loaded && (
                <Group gap="xs">
                  <Text size="sm" c="dimmed">
                    {f.editing}
                  </Text>
                  <Badge variant="light" style={{ textTransform: 'none' }}>
                    {loaded.originalTitle}
                  </Badge>
                </Group>
              )}
              <TextInput
                label={f.title}
                withAsterisk
                error={formState.errors.title?.message}
                {...form.register('title', { onChange: () => form.clearErrors('title') })}
              />
              <SimpleGrid cols={{ base: 2, sm: 4, md: 2 }} spacing="xs">
                <Button type="submit" {...buttonProps('add')}>
                  {f.add}
                </Button>
                <Button variant="light" onClick={() => void onGet()} {...buttonProps('get')}>
                  {f.get}
                </Button>
                <Button variant="light" onClick={() => void onUpdate()} {...buttonProps('update')}>
                  {f.update}
                </Button>
                <Button
                  color="red"
                  variant="light"
                  onClick={onDeleteRequest}
                  {...buttonProps('delete')}
                >
                  {f.delete}
                </Button>
              </SimpleGrid>
              <Button variant="subtle" size="compact-sm" onClick={clear} disabled={busy !== null}>
                {f.clear}
              </Button>
            </Stack>
          </form>
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Stack gap="sm">
          <Title order={2} size="h4">
            {f.listHeading} ({data.categories.length})
          </Title>
          {data.loading ? (
            <Center py="xl">
              <Loader aria-label="Loading catagories" />
            </Center>
          ) : data.failed ? (
            <Alert color="red" role="alert">
              <Group justify="space-between">
                <Text size="sm">{texts.unexpected}</Text>
                <Button size="xs" variant="light" onClick={() => void data.reload()}>
                  {texts.admin.retry}
                </Button>
              </Group>
            </Alert>
          ) : data.categories.length === 0 ? (
            <Text c="dimmed">{f.none}</Text>
          ) : (
            <Table highlightOnHover striped verticalSpacing="xs" aria-label={f.listHeading}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{f.title}</Table.Th>
                  <Table.Th ta="right">{f.products}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.categories.map((category) => (
                  <Table.Tr
                    key={category.id}
                    tabIndex={0}
                    aria-selected={category.id === loaded?.id}
                    bg={
                      category.id === loaded?.id ? 'var(--mantine-primary-color-light)' : undefined
                    }
                    style={{ cursor: busy ? 'progress' : 'pointer' }}
                    onClick={() => choose(category)}
                    onKeyDown={(e) => onRowKey(e, category)}
                  >
                    <Table.Td>{category.title}</Table.Td>
                    <Table.Td ta="right">{counts.get(category.title) ?? 0}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      </Grid.Col>
      <ConfirmDialog
        opened={confirming}
        title={f.confirmTitle}
        text={`${f.confirmText} "${loaded?.originalTitle ?? ''}".`}
        confirmLabel={f.delete}
        onConfirm={onDeleteConfirmed}
        onCancel={() => setConfirming(false)}
      />
    </Grid>
  );
}
