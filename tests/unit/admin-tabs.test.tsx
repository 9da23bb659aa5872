// @vitest-environment jsdom
// The Products and Catagories tabs with the database calls isolated: the failure messages
// (REQ-PROD-9, REQ-CAT-5 and others) that a healthy local stack cannot produce on demand, and
// the one-action-at-a-time rule.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from './render';

vi.mock('../../src/lib/infra/supabase', () => ({ supabase: {} }));
vi.mock('../../src/lib/infra/notify', () => ({ notify: { success: vi.fn(), error: vi.fn() } }));
vi.mock('../../src/features/admin/products/productApi', async (importOriginal) => {
  const actual =
    await importOriginal<typeof import('../../src/features/admin/products/productApi')>();
  return {
    ...actual,
    findProductByTitle: vi.fn(),
    addProduct: vi.fn(),
    updateProduct: vi.fn(),
    deleteProduct: vi.fn(),
  };
});
vi.mock('../../src/features/admin/categories/categoryApi', async (importOriginal) => {
  const actual =
    await importOriginal<typeof import('../../src/features/admin/categories/categoryApi')>();
  return {
    ...actual,
    categoryProductCounts: vi.fn(),
    listCategories: vi.fn(),
    findCategoryByTitle: vi.fn(),
    addCategory: vi.fn(),
    updateCategory: vi.fn(),
    deleteCategory: vi.fn(),
    countProductsIn: vi.fn(),
  };
});

// The product table reads its pages from the database; here it gets one page with the product.
vi.mock('../../src/features/admin/products/productQuery', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/features/admin/products/productQuery')>()),
  fetchAdminTablePage: vi.fn(),
  countProducts: vi.fn(),
}));

const api = {
  ...(await import('../../src/features/admin/db')),
  ...(await import('../../src/features/admin/products/productApi')),
  ...(await import('../../src/features/admin/categories/categoryApi')),
};
const productQuery = await import('../../src/features/admin/products/productQuery');
const { notify } = await import('../../src/lib/infra/notify');
const { AdminDataProvider } = await import('../../src/features/admin/AdminData');
const { ProductsTab } = await import('../../src/features/admin/products/ProductsTab');
const { CategoriesTab } = await import('../../src/features/admin/categories/CategoriesTab');

const product = {
  id: 'p1',
  title: 'Match Football',
  cat: 'Football',
  price: '£12.50',
  com: 'Size 5',
  image: '/products/football.svg',
  link: 'https://example.com/ball',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-02T00:00:00.123456+00:00',
  price_value: 12.5,
  price_checked_at: null,
  slug: 'test-ball',
};
const category = { id: 'c1', title: 'Football', created_at: '2026-01-01T00:00:00Z' };

/** What one admin write RPC answers (docs/decisions/0223). */
const answer = (result: import('../../src/features/admin/db').WriteResult) => ({
  result,
  unused_image: null,
});

function dbError(code: string) {
  return new api.DbError({
    code,
    message: `failed with ${code}`,
    details: '',
    hint: '',
    name: 'PostgrestError',
  } as never);
}

function renderTab(tab: ReactElement) {
  return renderWithProviders(<AdminDataProvider>{tab}</AdminDataProvider>);
}

const input = (name: string) => screen.getByRole('textbox', { name });

/** Confirms the open delete dialog and waits until it has gone. */
async function confirmDelete(user: ReturnType<typeof userEvent.setup>) {
  const dialog = await screen.findByRole('dialog');
  await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}
const button = (name: string) => screen.getByRole('button', { name });

// Rendering Mantine forms in jsdom on a busy 2-core machine takes seconds.
vi.setConfig({ testTimeout: 30_000 });

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.mocked(productQuery.fetchAdminTablePage).mockResolvedValue([product]);
  vi.mocked(productQuery.countProducts).mockResolvedValue({ total: 1, exact: true });
  vi.mocked(api.categoryProductCounts).mockResolvedValue(new Map([['Football', 1]]));
  vi.mocked(api.listCategories).mockResolvedValue([category]);
  vi.mocked(api.findProductByTitle).mockResolvedValue(product);
  vi.mocked(api.findCategoryByTitle).mockResolvedValue(category);
  vi.mocked(api.countProductsIn).mockResolvedValue(0);
});

afterEach(() => {
  vi.clearAllMocks();
});

async function getProduct(user: ReturnType<typeof userEvent.setup>) {
  await user.type(input('Title'), product.title);
  await user.click(button('Get Product'));
  await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Product Details Loaded'));
  vi.mocked(notify.success).mockClear();
}

describe('Products tab failure messages', () => {
  it('Get: "Error Getting Product" when the lookup fails, "Product Not Foound" when absent', async () => {
    const user = userEvent.setup();
    renderTab(<ProductsTab />);
    vi.mocked(api.findProductByTitle).mockRejectedValueOnce(dbError('08006'));
    await user.type(input('Title'), 'Anything');
    await user.click(button('Get Product'));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Error Getting Product'));
    vi.mocked(api.findProductByTitle).mockResolvedValueOnce(null);
    await user.click(button('Get Product'));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Product Not Foound'));
  });

  it('Get loads every field, including the category', async () => {
    const user = userEvent.setup();
    renderTab(<ProductsTab />);
    await getProduct(user);
    expect(input('Price')).toHaveValue('£12.50');
    expect(input('Comment')).toHaveValue('Size 5');
    expect(input('Image link')).toHaveValue('/products/football.svg');
    expect(input('Link')).toHaveValue('https://example.com/ball');
    // The Select shows the category and submits it as the form's `cat` value.
    expect(screen.getAllByDisplayValue('Football').length).toBeGreaterThan(0);
    expect(document.querySelector('input[name="cat"]')).toHaveValue('Football');
  });

  it('Add: "Error in Adding New Product" on a database error, "Title Already in Use" on a unique race', async () => {
    const user = userEvent.setup();
    renderTab(<ProductsTab />);
    await getProduct(user);
    vi.mocked(api.addProduct).mockRejectedValueOnce(dbError('23514'));
    await user.click(button('Add'));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Error in Adding New Product'));
    vi.mocked(notify.error).mockClear();
    vi.mocked(api.addProduct).mockResolvedValueOnce(answer('title_in_use'));
    await user.click(button('Add'));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Title Already in Use'));
    vi.mocked(notify.error).mockClear();
    vi.mocked(api.addProduct).mockRejectedValueOnce(dbError('23505'));
    await user.click(button('Add'));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Title Already in Use'));
    expect(notify.success).not.toHaveBeenCalled();
  });

  it('an unexpected failure (no answer from the database) shows "Something went Wrong"', async () => {
    const user = userEvent.setup();
    renderTab(<ProductsTab />);
    await getProduct(user);
    vi.mocked(api.addProduct).mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await user.click(button('Add'));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Something went Wrong'));
    vi.mocked(notify.error).mockClear();
    vi.mocked(api.addProduct).mockRejectedValueOnce(dbError(''));
    await user.click(button('Add'));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Something went Wrong'));
  });

  it('Update: "Error in Updating Product" on an error or when no row changed; success clears the form', async () => {
    const user = userEvent.setup();
    renderTab(<ProductsTab />);
    await getProduct(user);
    vi.mocked(api.updateProduct).mockRejectedValueOnce(dbError('42501'));
    await user.click(button('Update'));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Error in Updating Product'));
    vi.mocked(notify.error).mockClear();
    vi.mocked(api.updateProduct).mockResolvedValueOnce(answer('not_found'));
    await user.click(button('Update'));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Error in Updating Product'));
    // No answer with the title unchanged: the update's own failure, as before.
    vi.mocked(notify.error).mockClear();
    vi.mocked(api.updateProduct).mockRejectedValueOnce(dbError(''));
    await user.click(button('Update'));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Error in Updating Product'));
    // Another admin changed it since Get: nothing written, and the admin is told so.
    vi.mocked(notify.error).mockClear();
    vi.mocked(api.updateProduct).mockResolvedValueOnce(answer('stale'));
    await user.click(button('Update'));
    await waitFor(() =>
      expect(notify.error).toHaveBeenCalledWith(
        'This product was changed by someone else after you clicked Get Product. Click Get Product to load the latest version, then update again.',
      ),
    );
    expect(input('Title')).toHaveValue(product.title);
    vi.mocked(api.updateProduct).mockResolvedValueOnce(answer('changed'));
    await user.click(button('Update'));
    await waitFor(() =>
      expect(notify.success).toHaveBeenCalledWith('Product Updated Successfully'),
    );
    expect(input('Title')).toHaveValue('');
    expect(api.updateProduct).toHaveBeenLastCalledWith('p1', product.updated_at, {
      title: product.title,
      cat: product.cat,
      price: product.price,
      com: product.com,
      image: product.image,
      link: product.link,
    });
  });

  it('Delete: confirms first; "Product not Deleted" when it fails', async () => {
    const user = userEvent.setup();
    renderTab(<ProductsTab />);
    await getProduct(user);
    vi.mocked(api.deleteProduct).mockResolvedValueOnce(answer('not_found'));
    await user.click(button('Delete'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Match Football');
    expect(api.deleteProduct).not.toHaveBeenCalled();
    await confirmDelete(user);
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Product not Deleted'));
    expect(api.deleteProduct).toHaveBeenCalledWith('p1');
  });

  it('runs one action at a time: a second Add while the first runs is ignored', async () => {
    const user = userEvent.setup();
    renderTab(<ProductsTab />);
    await getProduct(user);
    let finish: (value: ReturnType<typeof answer>) => void = () => {};
    vi.mocked(api.addProduct).mockReturnValueOnce(new Promise((resolve) => (finish = resolve)));
    const add = button('Add');
    await user.click(add);
    await waitFor(() => expect(api.addProduct).toHaveBeenCalledTimes(1));
    await user.click(add);
    expect(button('Update')).toBeDisabled();
    finish(answer('added'));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Product Added'));
    expect(api.addProduct).toHaveBeenCalledTimes(1);
  });
});

describe('Catagories tab failure messages', () => {
  async function getCategory(user: ReturnType<typeof userEvent.setup>) {
    await user.type(input('Title'), category.title);
    await user.click(button('Get'));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Catagory Founded'));
  }

  it('Add and Get errors', async () => {
    const user = userEvent.setup();
    renderTab(<CategoriesTab />);
    await user.type(input('Title'), 'Hockey');
    vi.mocked(api.addCategory).mockRejectedValueOnce(dbError('42501'));
    await user.click(button('Add'));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Error in Adding New Catagory'));
    vi.mocked(api.findCategoryByTitle).mockRejectedValueOnce(dbError('08006'));
    await user.click(button('Get'));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Error Getting Catagory'));
  });

  it('Update error, and a rename that races into a taken title', async () => {
    const user = userEvent.setup();
    renderTab(<CategoriesTab />);
    await getCategory(user);
    vi.mocked(api.updateCategory).mockRejectedValueOnce(dbError('42501'));
    await user.click(button('Update'));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Error in Updating Catagory'));
    await user.clear(input('Title'));
    await user.type(input('Title'), 'Rugby');
    vi.mocked(api.updateCategory).mockResolvedValueOnce(answer('title_in_use'));
    await user.click(button('Update'));
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Title Already in Use'));
    expect(api.updateCategory).toHaveBeenLastCalledWith('c1', { title: 'Rugby' });
  });

  it('Delete: "Catagory not Deleted" with the reason, or plain when the delete fails', async () => {
    const user = userEvent.setup();
    renderTab(<CategoriesTab />);
    await getCategory(user);
    // Empty when Delete is pressed, three products by the time the delete is confirmed (a race
    // the database refuses; only then are they counted).
    vi.mocked(api.countProductsIn).mockResolvedValueOnce(0).mockResolvedValueOnce(3);
    vi.mocked(api.deleteCategory).mockRejectedValueOnce(dbError('23503'));
    await user.click(button('Delete'));
    await confirmDelete(user);
    await waitFor(() =>
      expect(notify.error).toHaveBeenCalledWith(
        'Catagory not Deleted: it still has 3 products; move or delete them first',
      ),
    );
    expect(api.deleteCategory).toHaveBeenCalledTimes(1);

    vi.mocked(api.deleteCategory).mockRejectedValueOnce(dbError('42501'));
    await user.click(button('Delete'));
    await confirmDelete(user);
    await waitFor(() => expect(notify.error).toHaveBeenCalledWith('Catagory not Deleted'));
  });
});
