import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import type { AdminCategory } from '../../lib/domain/tables';
import { listCategories } from './categories/categoryApi';

export interface AdminData {
  categories: AdminCategory[];
  /** True while the first load (or a reload after an error) is running. */
  loading: boolean;
  failed: boolean;
  /**
   * Goes up after every successful write, so views that read the catalogue from the database
   * (the product table, the category counts) read it again. Products are never held here: the
   * catalogue can have a million of them.
   */
  version: number;
  /** Loads the categories again and bumps `version`; tabs call it after every successful write. */
  reload: () => Promise<void>;
}

const AdminDataContext = createContext<AdminData | null>(null);

/**
 * Categories shared by all admin tabs, so a category added on the Catagories tab is at once
 * offered by the Products tab's Category select, and a change on one tab is seen on the other.
 */
export function AdminDataProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<Omit<AdminData, 'reload'>>({
    categories: [],
    loading: true,
    failed: false,
    version: 0,
  });

  const load = useCallback(async (bump: number) => {
    setState((s) => (s.failed ? { ...s, loading: true, failed: false } : s));
    try {
      const categories = await listCategories();
      setState((s) => ({ categories, loading: false, failed: false, version: s.version + bump }));
    } catch (error) {
      console.error('Loading catagories failed', error);
      setState((s) => ({ ...s, loading: false, failed: true }));
    }
  }, []);

  // The first load bumps nothing: the product table is already reading its first page.
  useEffect(() => {
    void load(0);
  }, [load]);
  const reload = useCallback(() => load(1), [load]);

  const value = useMemo(() => ({ ...state, reload }), [state, reload]);
  return <AdminDataContext.Provider value={value}>{children}</AdminDataContext.Provider>;
}

export function useAdminData(): AdminData {
  const value = useContext(AdminDataContext);
  if (!value) throw new Error('useAdminData must be used inside <AdminDataProvider>');
  return value;
}
