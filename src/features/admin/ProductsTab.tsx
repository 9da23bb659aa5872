import {
  Badge,
  Button,
  Grid,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { notify } from '../../lib/notify';
import { texts } from '../../texts';
import {
  deleteProduct,
  findProductByTitle,
  insertProduct,
  isDbError,
  titleInUse,
  UNIQUE_VIOLATION,
  ProductChangedError,
  updateProduct,
  type Product,
} from './api';
import { useAdminData } from './AdminData';
import { ConfirmDialog } from './ConfirmDialog';
import { productEditBlocker, titleNeedsCheck, type Loaded } from './flow';
import { ImagePreview } from './ImagePreview';
import { ProductTable } from './ProductTable';
import { emptyProduct, productSchema, titleSchema, type ProductValues } from './schemas';
import { useActionLock, validateWith } from './useFormTools';

type Action = 'add' | 'get' | 'update' | 'delete';

const f = texts.productForm;
const m = texts.product;

function valuesOf(product: Product): ProductValues {
  const { title, cat, price, com, image, link } = product;
  return { title, cat, price, com, image, link };
}

/**
 * Products tab (REQ-PROD-1..10): Add; Get Product by exact title, which loads the fields and
 * remembers the id and original title; Update and Delete only after a successful Get; the form
 * clears after every successful write.
 */
export function ProductsTab() {
  const data = useAdminData();
  const form = useForm<ProductValues>({ defaultValues: emptyProduct });
  const { control, reset, setError, watch, formState } = form;
  const { errors } = formState;
  // A message under a field goes away as soon as the field is edited.
  const register = (name: keyof ProductValues) =>
    form.register(name, { onChange: () => form.clearErrors(name) });
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [confirming, setConfirming] = useState(false);
  const { busy, run } = useActionLock<Action>();
  const formBox = useRef<HTMLDivElement>(null);

  const fail = (message: string, field?: keyof ProductValues) => {
    if (field) setError(field, { type: 'server', message }, { shouldFocus: true });
    notify.error(message);
  };

  const clear = () => {
    reset(emptyProduct);
    setLoaded(null);
  };

  const load = (product: Product) => {
    reset(valuesOf(product));
    setLoaded({ id: product.id, originalTitle: product.title, updatedAt: product.updated_at });
    notify.success(m.loaded);
  };

  /** Wraps an action so anything unforeseen ends in the spec's "Something went Wrong". */
  const act = (action: Action, work: () => Promise<void>) =>
    run(action, async () => {
      try {
        await work();
      } catch (error) {
        console.error(`Product ${action} failed`, error);
        notify.error(texts.unexpected);
      }
    });

  const onAdd = () =>
    act('add', async () => {
      const values = validateWith(form, productSchema);
      if (!values) return;
      if (await titleInUse('products', values.title)) {
        fail(texts.validation.titleInUse, 'title');
        return;
      }
      try {
        await insertProduct(values);
      } catch (error) {
        console.error('Adding a product failed', error);
        if (isDbError(error, UNIQUE_VIOLATION)) fail(texts.validation.titleInUse, 'title');
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
      let product: Product | null;
      try {
        product = await findProductByTitle(values.title);
      } catch (error) {
        console.error('Getting a product failed', error);
        fail(m.getFailed);
        return;
      }
      if (!product) {
        // A failed Get leaves nothing loaded, so Update/Delete ask for a Get again.
        setLoaded(null);
        fail(m.notFound, 'title');
        return;
      }
      load(product);
    });

  const onUpdate = () =>
    act('update', async () => {
      form.clearErrors();
      const blocker = productEditBlocker(form.getValues('title'), loaded);
      if (blocker || !loaded) {
        fail(blocker ?? texts.validation.clickGetProduct, 'title');
        return;
      }
      const values = validateWith(form, productSchema);
      if (!values) return;
      if (
        titleNeedsCheck(values.title, loaded) &&
        (await titleInUse('products', values.title, loaded.id))
      ) {
        fail(texts.validation.titleInUse, 'title');
        return;
      }
      let updated: Product | null;
      try {
        updated = await updateProduct(loaded.id, values, loaded.updatedAt);
      } catch (error) {
        console.error('Updating a product failed', error);
        if (error instanceof ProductChangedError) fail(m.changedSinceGet);
        else if (isDbError(error, UNIQUE_VIOLATION)) fail(texts.validation.titleInUse, 'title');
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
    const blocker = productEditBlocker(form.getValues('title'), loaded);
    if (blocker) {
      fail(blocker, 'title');
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
        deleted = await deleteProduct(target.id);
      } catch (error) {
        console.error('Deleting a product failed', error);
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

  const categoryOptions = data.categories.map((c) => c.title);
  const currentCat = watch('cat');
  // A loaded product keeps showing its category even if the list has not caught up yet.
  if (currentCat && !categoryOptions.includes(currentCat)) categoryOptions.push(currentCat);

  const buttonProps = (action: Action) => ({
    loading: busy === action,
    disabled: busy !== null && busy !== action,
  });

  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Paper withBorder p="md" radius="md" ref={formBox} style={{ scrollMarginTop: 80 }}>
          <form
            noValidate
            onSubmit={(e) => {
              // Enter in a field adds, like the first button.
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
                error={errors.title?.message}
                {...register('title')}
              />
              <Controller
                control={control}
                name="cat"
                render={({ field }) => (
                  <Select
                    label={f.category}
                    placeholder={f.categoryPlaceholder}
                    withAsterisk
                    data={categoryOptions}
                    searchable
                    nothingFoundMessage={texts.categoryForm.none}
                    value={field.value || null}
                    onChange={(value) => {
                      field.onChange(value ?? '');
                      form.clearErrors('cat');
                    }}
                    onBlur={field.onBlur}
                    ref={field.ref}
                    name={field.name}
                    error={errors.cat?.message}
                  />
                )}
              />
              <TextInput
                label={f.price}
                withAsterisk
                placeholder="£12.50"
                error={errors.price?.message}
                {...register('price')}
              />
              <Textarea
                label={f.comment}
                withAsterisk
                autosize
                minRows={2}
                maxRows={6}
                error={errors.com?.message}
                {...register('com')}
              />
              <TextInput
                label={f.image}
                withAsterisk
                type="url"
                placeholder="https://…"
                error={errors.image?.message}
                {...register('image')}
              />
              <ImagePreview src={watch('image')} />
              <TextInput
                label={f.link}
                withAsterisk
                type="url"
                placeholder="https://…"
                error={errors.link?.message}
                {...register('link')}
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
        <ProductTable
          products={data.products}
          loading={data.loading}
          failed={data.failed}
          selectedId={loaded?.id ?? null}
          disabled={busy !== null}
          onSelect={(product) => {
            load(product);
            // On a phone the form sits above the table: bring the loaded product into view.
            formBox.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
          }}
          onRetry={() => void data.reload()}
        />
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
