import { Button, Group, Menu } from '@mantine/core';
import { useState } from 'react';
import { notify } from '../../../lib/notify';
import { supabase } from '../../../lib/supabase';
import { texts } from '../../../texts';
import { useAdminData } from '../AdminData';
import { MAX_ROWS_PER_REQUEST } from '../api';
import { catalogueReader, downloadCsv, exportCsv } from './exportCsv';
import { ImportDialog } from './ImportDialog';

const t = texts.catalogueCsv;

/** The Products tab's "CSV" menu: export the catalogue, import a file. */
export function CsvMenu() {
  const data = useAdminData();
  const [exporting, setExporting] = useState(false);
  const [importing, setImporting] = useState(false);

  const runExport = async () => {
    setExporting(true);
    try {
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
      <ImportDialog
        opened={importing}
        onClose={() => setImporting(false)}
        onApplied={() => void data.reload()}
      />
    </Group>
  );
}
