import { Button, Group, Menu } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { notify } from '../../../lib/infra/notify';
import type { StoreProduct } from '../../../lib/domain/tables';
import { supabase } from '../../../lib/infra/supabase';
import { texts } from '../../../adminTexts';
import { useAdminData } from '../AdminData';
import { fetchAdminTablePage, type ProductQuery } from '../products/productQuery';
import type { PageReader } from './exportCsv';

// papaparse and the dialog load when first used: the admin chunk stays within its budget.
const ImportDialog = lazy(() =>
  import('./ImportDialog').then((m) => ({ default: m.ImportDialog })),
);

const t = texts.catalogueCsv;

/** The admin table's current search / category, in its order (public.admin_product_page). */
function queryReader(query: ProductQuery, pageSize: number): PageReader<StoreProduct> {
  let offset = 0;
  return async () => {
    const page = await fetchAdminTablePage(query, offset, pageSize);
    offset += page.length;
    return page;
  };
}

/** The Products tab's "CSV" menu: export the catalogue, import a file. */
export function CsvMenu({ query }: { query: ProductQuery | null }) {
  const data = useAdminData();
  const [exporting, setExporting] = useState(false);
  const [importing, setImporting] = useState(false);

  // A search or category narrows the table: then the table's products can be exported alone.
  const filtered = query !== null && (query.search.trim() !== '' || query.cat !== null);

  const runExport = async (only: ProductQuery | null) => {
    setExporting(true);
    try {
      const { catalogueReader, downloadCsv, exportCsv, EXPORT_PAGE_SIZE } =
        await import('./exportCsv');
      const file = await exportCsv(
        only ? queryReader(only, EXPORT_PAGE_SIZE) : catalogueReader(supabase, EXPORT_PAGE_SIZE),
      );
      downloadCsv(file);
      notify.success(t.exported(file.rows));
    } catch (error) {
      console.error('CSV export failed', error);
      notify.error(t.exportFailed);
    } finally {
      setExporting(false);
    }
  };

  return (
    <Group justify="flex-end" mb="xs">
      <Menu position="bottom-end">
        <Menu.Target>
          <Button variant="default" size="xs" loading={exporting} aria-label={t.menuLabel}>
            {t.menu}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => void runExport(null)}>{t.export}</Menu.Item>
          {filtered && (
            <Menu.Item onClick={() => void runExport(query)}>{t.exportFiltered}</Menu.Item>
          )}
          <Menu.Item onClick={() => setImporting(true)}>{t.import}</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {importing && (
        <Suspense fallback={null}>
          <ImportDialog
            opened
            onClose={() => setImporting(false)}
            onApplied={() => void data.reload()}
          />
        </Suspense>
      )}
    </Group>
  );
}
