import { Badge, Button, Grid, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ConfirmDialog } from './ConfirmDialog';
import type { EditorAction, RecordEditor } from './useRecordEditor';

/** Button and dialog texts of one editor (texts.productForm, texts.categoryForm). */
export interface RecordFormLabels {
  editing: string;
  add: string;
  get: string;
  update: string;
  delete: string;
  clear: string;
  confirmTitle: string;
  confirmText: string;
}

interface RecordFormProps {
  editor: Pick<
    RecordEditor,
    | 'loaded'
    | 'busy'
    | 'formBox'
    | 'confirming'
    | 'clear'
    | 'onAdd'
    | 'onGet'
    | 'onUpdate'
    | 'onDeleteRequest'
    | 'onDeleteConfirmed'
    | 'onDeleteCancelled'
  >;
  labels: RecordFormLabels;
  /** The form's fields. */
  children: ReactNode;
  /** The list of records beside (on a phone: below) the form. */
  list: ReactNode;
}

/**
 * The frame of an admin editor: the form with what is being edited, the fields, Add, Get, Update,
 * Delete and Clear; the list of records; and the delete confirmation.
 */
export function RecordForm({ editor, labels, children, list }: RecordFormProps) {
  const { loaded, busy } = editor;
  const buttonProps = (action: EditorAction) => ({
    loading: busy === action,
    disabled: busy !== null && busy !== action,
  });

  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Paper withBorder p="md" radius="md" ref={editor.formBox} style={{ scrollMarginTop: 80 }}>
          <form
            noValidate
            onSubmit={(e) => {
              // Enter in a field adds, like the first button.
              e.preventDefault();
              void editor.onAdd();
            }}
          >
            <Stack gap="sm">
              {loaded && (
                <Group gap="xs">
                  <Text size="sm" c="dimmed">
                    {labels.editing}
                  </Text>
                  <Badge variant="light" style={{ textTransform: 'none' }}>
                    {loaded.originalTitle}
                  </Badge>
                </Group>
              )}
              {children}
              <SimpleGrid cols={{ base: 2, sm: 4, md: 2 }} spacing="xs">
                <Button type="submit" {...buttonProps('add')}>
                  {labels.add}
                </Button>
                <Button variant="light" onClick={() => void editor.onGet()} {...buttonProps('get')}>
                  {labels.get}
                </Button>
                <Button
                  variant="light"
                  onClick={() => void editor.onUpdate()}
                  {...buttonProps('update')}
                >
                  {labels.update}
                </Button>
                <Button
                  color="red"
                  variant="light"
                  onClick={editor.onDeleteRequest}
                  {...buttonProps('delete')}
                >
                  {labels.delete}
                </Button>
              </SimpleGrid>
              <Button
                variant="subtle"
                size="compact-sm"
                onClick={editor.clear}
                disabled={busy !== null}
              >
                {labels.clear}
              </Button>
            </Stack>
          </form>
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 7 }}>{list}</Grid.Col>
      <ConfirmDialog
        opened={editor.confirming}
        title={labels.confirmTitle}
        text={`${labels.confirmText} "${loaded?.originalTitle ?? ''}".`}
        confirmLabel={labels.delete}
        onConfirm={editor.onDeleteConfirmed}
        onCancel={editor.onDeleteCancelled}
      />
    </Grid>
  );
}
