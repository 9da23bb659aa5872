import { Badge, Button, Grid, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
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
    | 'formOpen'
    | 'openForm'
    | 'closeForm'
  >;
  labels: RecordFormLabels;
  /** The form's fields. */
  children: ReactNode;
  /** The list of records beside (on a phone: below) the form. */
  list: ReactNode;
  /**
   * On a phone, the list first and the form behind this button (REQ-PATH-10): the form was two
   * screens long above the list. Without it the form comes first, as before.
   */
  phone?: { add: string; back: string };
}

/**
 * The frame of an admin editor: the form with what is being edited, the fields, Add, Get, Update,
 * Delete and Clear; the list of records; and the delete confirmation.
 */
export function RecordForm({ editor, labels, children, list, phone }: RecordFormProps) {
  const { loaded, busy } = editor;
  // Below Mantine's `md` (62em) the list comes first. Asked of the window, not left to CSS alone,
  // so that a wide window never hides the form, whatever the style sheet's media support.
  const narrow = useMediaQuery('(max-width: 61.99em)', false, { getInitialValueInEffect: false });
  const hidden = phone && narrow && !editor.formOpen;
  const buttonProps = (action: EditorAction) => ({
    loading: busy === action,
    disabled: busy !== null && busy !== action,
  });

  return (
    <Grid gap="xl">
      <Grid.Col
        span={{ base: 12, md: 5 }}
        order={{ base: hidden ? 2 : 1, md: 1 }}
        display={hidden ? { base: 'none', md: 'block' } : undefined}
      >
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
              {phone && (
                <Button variant="default" hiddenFrom="md" onClick={editor.closeForm}>
                  {phone.back}
                </Button>
              )}
            </Stack>
          </form>
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 7 }} order={{ base: hidden ? 1 : 2, md: 2 }}>
        {phone && hidden && (
          <Button
            hiddenFrom="md"
            mb="sm"
            fullWidth
            onClick={() => {
              editor.clear();
              editor.openForm();
            }}
          >
            {phone.add}
          </Button>
        )}
        {list}
      </Grid.Col>
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
