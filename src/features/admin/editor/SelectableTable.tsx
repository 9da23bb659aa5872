import { Alert, Button, Center, Group, Table, Text } from '@mantine/core';
import type { KeyboardEvent, ReactNode } from 'react';
import { texts } from '../../../adminTexts';
import { LoadingIndicator } from '../../../lib/ui/LoadingIndicator';

interface ListStateProps {
  loading: boolean;
  failed: boolean;
  /** Names the spinner for screen readers. */
  loadingLabel: string;
  onRetry: () => void;
  children: ReactNode;
}

/** A spinner while the list loads, "Something went Wrong" with Try again when it failed. */
export function ListState({ loading, failed, loadingLabel, onRetry, children }: ListStateProps) {
  if (loading) {
    return (
      <Center py="xl">
        <LoadingIndicator label={loadingLabel} />
      </Center>
    );
  }
  if (failed) {
    return (
      <Alert color="red" role="alert">
        <Group justify="space-between">
          <Text size="sm">{texts.unexpected}</Text>
          <Button size="xs" variant="light" onClick={onRetry}>
            {texts.admin.retry}
          </Button>
        </Group>
      </Alert>
    );
  }
  return <>{children}</>;
}

interface SelectableTableProps<TRow extends { id: string }> {
  /** The table's accessible name. */
  label: string;
  /** The header cells. */
  head: ReactNode;
  rows: TRow[];
  cells: (row: TRow) => ReactNode;
  selectedId: string | null;
  /** While an action runs, rows cannot be chosen. */
  disabled: boolean;
  onSelect: (row: TRow) => void;
}

/** A table whose rows are chosen by click, Enter or Space; the chosen row is highlighted. */
export function SelectableTable<TRow extends { id: string }>({
  label,
  head,
  rows,
  cells,
  selectedId,
  disabled,
  onSelect,
}: SelectableTableProps<TRow>) {
  const choose = (row: TRow) => {
    if (!disabled) onSelect(row);
  };
  const onRowKey = (event: KeyboardEvent, row: TRow) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      choose(row);
    }
  };

  return (
    <Table highlightOnHover striped verticalSpacing="xs" aria-label={label}>
      <Table.Thead>
        <Table.Tr>{head}</Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr
            key={row.id}
            tabIndex={0}
            aria-selected={row.id === selectedId}
            bg={row.id === selectedId ? 'var(--mantine-primary-color-light)' : undefined}
            style={{ cursor: disabled ? 'progress' : 'pointer' }}
            onClick={() => choose(row)}
            onKeyDown={(e) => onRowKey(e, row)}
          >
            {cells(row)}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
