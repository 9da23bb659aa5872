import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  FileInput,
  Group,
  Loader,
  Modal,
  Radio,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { useState } from 'react';
import { notify } from '../../../lib/infra/notify';
import { supabase } from '../../../lib/infra/supabase';
import { texts } from '../../../adminCsvTexts';
import {
  checkFile,
  fieldChanges,
  runImport,
  stageRows,
  summarise,
  type CheckedFile,
  type ImportMode,
  type ImportOptions,
  type ImportSummary,
} from './importCsv';

const t = texts.catalogueCsv;
const p = texts.csvPreview;
/** Refused rows listed in the dialog; the count covers all of them. */
const SHOWN_REFUSALS = 100;

type Step =
  | { kind: 'choose'; error?: string }
  | { kind: 'checking' }
  | { kind: 'preview'; file: CheckedFile; importId: string; summary: ImportSummary }
  | { kind: 'applying'; file: CheckedFile; importId: string; summary: ImportSummary }
  | { kind: 'done'; summary: ImportSummary };

interface ImportDialogProps {
  opened: boolean;
  onClose: () => void;
  onApplied: () => void;
}

/**
 * Choose a file → preview (the form's rules here, then the database's in a dry run) → choose
 * what to do → apply in one transaction → report. Nothing is written before Apply.
 */
export function ImportDialog({ opened, onClose, onApplied }: ImportDialogProps) {
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [options, setOptions] = useState<ImportOptions>({ mode: 'add', createCategories: false });

  const close = () => {
    setStep({ kind: 'choose' });
    onClose();
  };

  const check = async (file: CheckedFile, importId: string, next: ImportOptions) => {
    setStep({ kind: 'checking' });
    try {
      const report = await runImport(supabase, importId, next, true);
      setStep({ kind: 'preview', file, importId, summary: summarise(file, report) });
    } catch (error) {
      console.error('CSV import preview failed', error);
      setStep({ kind: 'choose', error: t.checkFailed });
    }
  };

  const choose = async (chosen: File | null) => {
    if (!chosen) return;
    setStep({ kind: 'checking' });
    try {
      const result = await checkFile(chosen);
      if (!result.ok) return setStep({ kind: 'choose', error: result.message });
      const importId = crypto.randomUUID();
      await stageRows(supabase, importId, result.accepted);
      await check(result, importId, options);
    } catch (error) {
      console.error('CSV import check failed', error);
      setStep({ kind: 'choose', error: t.checkFailed });
    }
  };

  const change = (next: ImportOptions) => {
    setOptions(next);
    if (step.kind === 'preview') void check(step.file, step.importId, next);
  };

  const apply = async () => {
    if (step.kind !== 'preview') return;
    setStep({ ...step, kind: 'applying' });
    try {
      const report = await runImport(supabase, step.importId, options, false);
      setStep({ kind: 'done', summary: summarise(step.file, report) });
      notify.success(t.applied);
      onApplied();
    } catch (error) {
      console.error('CSV import failed', error);
      if (!(await sessionEndedAfter(error))) notify.error(t.applyFailed);
      setStep({ ...step, kind: 'preview' });
    }
  };

  const summary = 'summary' in step ? step.summary : null;
  const counts = summary && {
    added: summary.added,
    updated: summary.updated,
    unchanged: summary.unchanged,
    refused: summary.refused.length,
  };

  return (
    <Modal opened={opened} onClose={close} title={t.dialogTitle} size="lg">
      <Stack>
        {step.kind === 'choose' && (
          <>
            <FileInput
              label={t.file}
              placeholder={t.filePlaceholder}
              description={t.formatHint}
              accept=".csv,text/csv"
              error={step.error}
              onChange={(file) => void choose(file)}
              clearable={false}
              value={null}
            />
            <Button
              variant="subtle"
              size="compact-sm"
              style={{ alignSelf: 'flex-start' }}
              onClick={() =>
                void import('./exportCsv').then((m) =>
                  m.downloadCsv(m.templateCsv(p.templateExample), p.templateName),
                )
              }
            >
              {p.template}
            </Button>
          </>
        )}
        {step.kind === 'checking' && (
          <Group role="status">
            <Loader size="sm" />
            <Text>{t.checking}</Text>
          </Group>
        )}
        {'file' in step && step.file.name && (
          <Text size="sm" fw={600}>
            {p.fileName(step.file.name)}
          </Text>
        )}
        {(step.kind === 'preview' || step.kind === 'applying') && (
          <>
            <Radio.Group
              label={t.mode}
              value={options.mode}
              onChange={(mode) => change({ ...options, mode: mode as ImportMode })}
            >
              <Group mt="xs">
                <Radio value="add" label={t.modeAdd} />
                <Radio value="upsert" label={t.modeUpsert} />
              </Group>
            </Radio.Group>
            <Checkbox
              label={t.createCategories}
              checked={options.createCategories}
              onChange={(e) => change({ ...options, createCategories: e.currentTarget.checked })}
            />
          </>
        )}
        {counts && (
          <Alert
            color={step.kind === 'done' ? 'green' : 'blue'}
            role="status"
            data-testid="csv-import-counts"
          >
            {step.kind === 'done' ? t.report(counts) : t.preview(counts)}
            {summary.categoriesCreated.length > 0 && (
              <Text size="sm" mt={4}>
                {t.newCategories(summary.categoriesCreated)}
              </Text>
            )}
          </Alert>
        )}
        {step.kind !== 'done' && summary && summary.changes.length > 0 && (
          <ChangesTable summary={summary} />
        )}
        {summary && summary.refused.length > 0 && <RefusedTable summary={summary} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {texts.a11y.closeDialog}
          </Button>
          {(step.kind === 'preview' || step.kind === 'applying') && (
            <Button
              onClick={() => void apply()}
              loading={step.kind === 'applying'}
              disabled={counts !== null && counts.added + counts.updated === 0}
            >
              {t.apply}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

/** REQ-PATH-12: what Apply will add, and each change as "field: before → after", row by row. */
function ChangesTable({ summary }: { summary: ImportSummary }) {
  const { changes } = summary;
  const listed = summary.added + summary.updated;
  return (
    <Box
      tabIndex={0}
      role="region"
      aria-label={p.changesCaption}
      style={{ maxHeight: 320, overflow: 'auto' }}
    >
      <Table striped data-testid="csv-import-changes">
        <Table.Caption>{p.changesCaption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t.row}</Table.Th>
            <Table.Th>{texts.productForm.title}</Table.Th>
            <Table.Th>{p.changesHeading}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {changes.map((c) => (
            <Table.Tr key={c.line}>
              <Table.Td>{c.line}</Table.Td>
              <Table.Td>{c.title}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                {c.before
                  ? fieldChanges(c.before, c.after).map((f) => (
                      <Text key={f.field} size="sm">
                        {p.change(f.field, f.before, f.after)}
                      </Text>
                    ))
                  : p.willAdd}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {listed > changes.length && <Text size="sm">{p.firstChanges(changes.length)}</Text>}
    </Box>
  );
}

function RefusedTable({ summary }: { summary: ImportSummary }) {
  const shown = summary.refused.slice(0, SHOWN_REFUSALS);
  return (
    // A focusable region: keyboard users can scroll a long list (axe scrollable-region-focusable).
    <Box
      tabIndex={0}
      role="region"
      aria-label={t.refusedCaption}
      style={{ maxHeight: 320, overflow: 'auto' }}
    >
      <Table striped data-testid="csv-import-refused">
        <Table.Caption>{t.refusedCaption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t.row}</Table.Th>
            <Table.Th>{texts.productForm.title}</Table.Th>
            <Table.Th>{t.problems}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {shown.map((r) => (
            <Table.Tr key={r.line}>
              <Table.Td>{r.line}</Table.Td>
              <Table.Td>{r.title}</Table.Td>
              <Table.Td>{r.messages.join('; ')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {summary.refused.length > SHOWN_REFUSALS && (
        <Text size="sm">{t.moreRefused(summary.refused.length - SHOWN_REFUSALS)}</Text>
      )}
    </Box>
  );
}
