import { Alert, Stack, Text } from '@mantine/core';
import { useState, type DragEvent } from 'react';
import { notify } from '../../../lib/infra/notify';
import { texts } from '../../../adminTexts';
import { ImageRefusedError } from './imageRules';
import { uploadProductImage } from './imageStorage';
import classes from './ImageUpload.module.css';
import { resizeImage, type ResizedImage } from './resizeImage';

const t = texts.productImages;

/** The upload's own messages: a refusal or a failure, shown under the drop area until the next try. */
async function prepareAndUpload(
  file: File,
  upload: (image: ResizedImage) => Promise<string>,
): Promise<{ url: string } | { error: string }> {
  try {
    return { url: await upload(await resizeImage(file)) };
  } catch (error) {
    if (error instanceof ImageRefusedError) return { error: error.message };
    console.error('Uploading a product picture failed', error);
    return { error: t.uploadFailed };
  }
}

/**
 * File picker and drag-and-drop for the product's picture (REQ-IMG-1). On success the product's
 * image becomes the upload's public URL; on any refusal or failure the form stays as it was.
 * `accept="image/*"` makes a phone offer its camera roll (and camera). A plain file input in a
 * label, not a drop-zone package: those need Node 22 to install (decision 0221). What may be
 * uploaded is judged by imageRules for picked and dropped files alike. The Storefront tab uses it
 * for the banner's pictures with its own `upload`, label and message (docs/decisions/0212).
 */
export function ImageUpload({
  disabled,
  onUploaded,
  upload = uploadProductImage,
  label = t.dropLabel,
  uploadedMessage = t.uploaded,
}: {
  disabled: boolean;
  onUploaded: (url: string) => void;
  upload?: (image: ResizedImage) => Promise<string>;
  label?: string;
  uploadedMessage?: string;
}) {
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);

  const onDrop = async (files: File[]) => {
    const [file] = files;
    if (!file || files.length > 1) {
      setError(t.oneAtATime);
      return;
    }
    setError(null);
    setWorking(true);
    const result = await prepareAndUpload(file, upload);
    setWorking(false);
    if ('error' in result) {
      setError(result.error);
      return;
    }
    onUploaded(result.url);
    notify.success(uploadedMessage);
  };

  const off = disabled || working;
  const onDragOver = (event: DragEvent) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = off ? 'none' : 'copy';
    setOver(!off);
  };
  const onDropped = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (!off) void onDrop([...event.dataTransfer.files]);
  };

  return (
    <Stack gap={4}>
      <label
        className={classes.area}
        data-testid="image-dropzone"
        data-over={over || undefined}
        data-disabled={off || undefined}
        onDragOver={onDragOver}
        onDragLeave={() => setOver(false)}
        onDrop={onDropped}
      >
        <input
          type="file"
          accept="image/*"
          className={classes.input}
          aria-label={label}
          disabled={off}
          onChange={(event) => {
            const files = [...(event.currentTarget.files ?? [])];
            // Cleared so that choosing the same file again (after a refusal) fires a change.
            event.currentTarget.value = '';
            void onDrop(files);
          }}
        />
        <Text component="span" display="block" size="sm" fw={600}>
          {t.dropTitle}
        </Text>
        <Text component="span" display="block" size="xs" c="dimmed">
          {t.dropHint}
        </Text>
      </label>
      {working && (
        <Text size="xs" c="dimmed" role="status">
          {t.working}
        </Text>
      )}
      {error && (
        <Alert color="red" variant="light" p="xs" role="alert" data-testid="image-upload-error">
          <Text size="sm">{error}</Text>
        </Alert>
      )}
    </Stack>
  );
}
