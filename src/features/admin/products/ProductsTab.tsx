import { Button, Select, TextInput, Textarea } from '@mantine/core';
import { lazy, Suspense, useRef, useState, type ComponentProps } from 'react';
import { Controller } from 'react-hook-form';
import type { AdminProduct } from '../../../lib/domain/tables';
import { texts } from '../../../adminTexts';
import * as api from './productApi';
import type { ProductQuery } from './productQuery';
import { CsvMenu } from '../csv/CsvMenu';
import { productEditBlocker } from '../editor/editRules';
import { ImagePreview } from './ImagePreview';
import LinkHealthStatus from '../linkHealth/LinkHealthStatus';
import { releaseProductImage, removeUnusedImage } from '../images/imageStorage';
import { ProductTable } from './ProductTable';
import { RecordForm } from '../editor/RecordForm';
import { emptyProduct, productSchema, type ProductValues } from './productSchema';
import { useRecordEditor, type RecordEditorConfig } from '../editor/useRecordEditor';

// The picture upload (drop zone, resizing) loads on its own, after the form is shown.
const ImageUpload = lazy(() =>
  import('../images/ImageUpload').then((m) => ({ default: m.ImageUpload })),
);

// The loaded product's offers (REQ-OFF-1): a chunk of its own, after Get Product.
const OffersPanel = lazy(() => import('../offers/OffersPanel'));

const f = texts.productForm;
const m = texts.product;

const productEditor: RecordEditorConfig<AdminProduct, ProductValues> = {
  noun: 'Product',
  draftKey: 'product',
  empty: emptyProduct,
  schema: productSchema,
  messages: { ...m, getFirst: texts.validation.clickGetProduct, stale: m.changedSinceGet },
  valuesOf: ({ title, cat, price, com, image, link }) => ({ title, cat, price, com, image, link }),
  // updated_at: Update writes only the version Get loaded (optimistic concurrency).
  loadedOf: (p) => ({ id: p.id, originalTitle: p.title, updatedAt: p.updated_at }),
  editBlocker: productEditBlocker,
  find: api.findProductByTitle,
  suggest: api.findProductInAnyCase,
  insert: api.addProduct,
  // A replaced or deleted uploaded picture that no product shows any more (the database says
  // which) is removed after the answer, without holding up the message (REQ-IMG-3).
  update: async (loaded, values) => {
    const written = await api.updateProduct(loaded.id, loaded.updatedAt ?? '', values);
    void removeUnusedImage(written.unused_image);
    return written;
  },
  remove: async (loaded) => {
    const written = await api.deleteProduct(loaded.id);
    void removeUnusedImage(written.unused_image);
    return written.result === 'deleted';
  },
};

/**
 * The CSV menu and the table. The table's settled query lives here, not in ProductsTab, so a
 * new search re-renders these two and not the whole product form.
 */
function ProductList(props: Omit<ComponentProps<typeof ProductTable>, 'onQueryChange'>) {
  const [tableQuery, setTableQuery] = useState<ProductQuery | null>(null);
  return (
    <>
      <CsvMenu query={tableQuery} />
      <ProductTable {...props} onQueryChange={setTableQuery} />
    </>
  );
}

/** Products tab (REQ-PROD-1..10): the record editor with every product field and the table. */
export function ProductsTab() {
  const editor = useRecordEditor(productEditor);
  const { data, form, register, errors } = editor;
  // The last picture uploaded in this form: replaced by another upload or left by Clear before
  // any save, nobody uses it (release checks that no product does).
  const lastUpload = useRef<string | null>(null);
  const forgetUpload = () => {
    void releaseProductImage(lastUpload.current);
    lastUpload.current = null;
  };

  const categoryOptions = data.categories.map((c) => c.title);
  const currentCat = form.watch('cat');
  // A loaded product keeps showing its category even if the list has not caught up yet.
  if (currentCat && !categoryOptions.includes(currentCat)) categoryOptions.push(currentCat);

  return (
    <RecordForm
      editor={{
        ...editor,
        clear: () => {
          forgetUpload();
          editor.clear();
        },
      }}
      labels={f}
      phone={{ add: f.addProduct, back: f.backToList }}
      list={
        <>
          {editor.loaded && (
            <Suspense fallback={null}>
              <OffersPanel
                key={editor.loaded.id}
                productId={editor.loaded.id}
                loaded={editor.loaded}
                onChanged={() => void data.reload()}
              />
            </Suspense>
          )}
          <ProductList
            categories={data.categories.map((c) => c.title)}
            version={data.version}
            selectedId={editor.loaded?.id ?? null}
            disabled={editor.busy !== null}
            onSelect={editor.select}
            onChanged={data.reload}
          />
        </>
      }
    >
      <TextInput
        label={f.title}
        withAsterisk
        error={errors.title?.message}
        {...register('title')}
      />
      {editor.suggestion && (
        <Button
          variant="light"
          size="compact-sm"
          style={{ alignSelf: 'flex-start' }}
          onClick={() => editor.suggestion && editor.select(editor.suggestion)}
        >
          {f.didYouMean(editor.suggestion.title)}
        </Button>
      )}
      <Controller
        control={form.control}
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
      <Suspense fallback={null}>
        <ImageUpload
          disabled={editor.busy !== null}
          onUploaded={(url) => {
            forgetUpload();
            lastUpload.current = url;
            form.setValue('image', url, { shouldDirty: true });
            form.clearErrors('image');
          }}
        />
      </Suspense>
      <ImagePreview src={form.watch('image')} />
      <TextInput
        label={f.link}
        withAsterisk
        type="url"
        placeholder="https://…"
        error={errors.link?.message}
        {...register('link')}
      />
      {/* In the admin chunk, not lazy: a chunk of its own split shared Mantine code out of the
          storefront's chunks and made the home page's first download bigger. */}
      {editor.loaded && (
        <LinkHealthStatus
          key={editor.loaded.id}
          productId={editor.loaded.id}
          onChecked={() => void data.reload()}
        />
      )}
    </RecordForm>
  );
}
