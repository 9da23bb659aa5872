import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import type { AdminCategory, AdminProduct } from '../../lib/tables';
import { listCategories, listProducts } from './api';

export interface AdminData {
  products: AdminProduct[];
  categories: AdminCategory[];
  /** True while the first load (or a reload after an error) is running. */
  loading: boolean;
  failed: boolean;
  /** Loads both lists again; tabs call it after every successful write. */
  reload: () => Promise<void>;
}

const AdminDataContext = createContext<AdminData | null>(null);

/**
 * Products and categories shared by all admin tabs, so a category added on the Catagories tab is
 * at once offered by the Products tab's Category select and product counts stay right.
 */
export function AdminDataProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<Omit<AdminData, 'reload'>>({
    products: [],
    categories: [],
    loading: true,
    failed: false,
  });

  const reload = useCallback(async () => {
    setState((s) => (s.failed ? { ...s, loading: true, failed: false } : s));
    try {
      const [products, categories] = await Promise.all([listProducts(), listCategories()]);
      setState({ products, categories, loading: false, failed: false });
    } catch (error) {
      console.error('Loading products and catagories failed', error);
      setState((s) => ({ ...s, loading: false, failed: true }));
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  const value = useMemo(() => ({ ...state, reload }), [state, reload]);
  return <AdminDataContext.Provider value={value}>{children}</AdminDataContext.Provider>;
}

export function useAdminData(): AdminData {
  const value = useContext(AdminDataContext);
  if (!value) throw new Error('useAdminData must be used inside <AdminDataProvider>');
  return value;
}
