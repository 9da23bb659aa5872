import { Button, Group, Menu } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { notify } from '../../../lib/notify';
import { supabase } from '../../../lib/supabase';
import { texts } from '../../../texts';
import { useAdminData } from '../AdminData';
import { MAX_ROWS_PER_REQUEST } from '../api';

// papaparse and the dialog load when first used: the admin chunk stays within its budget.
const ImportDialog = lazy(() =>
  import('./ImportDialog').then((m) => ({ default: m.ImportDialog })),
);

const t = texts.catalogueCsv;

/** The Products tab's "CSV" menu: export the catalogue, import a file. */
export function CsvMenu() {
  const data = useAdminData();
  const [exporting, setExporting] = useState(false);
  const [importing, setImporting] = useState(false);

  const runExport = async () => {
    setExporting(true);
    try {
      const { catalogueReader, downloadCsv, exportCsv } = await import('./exportCsv');
      // 14A's filtered table can pass a reader for its current filter here instead.
      const file = await exportCsv(catalogueReader(supabase, MAX_ROWS_PER_REQUEST));
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
          <Menu.Item onClick={() => void runExport()}>{t.export}</Menu.Item>
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
