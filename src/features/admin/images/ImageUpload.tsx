import { Alert, Group, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { useState } from 'react';
import { notify } from '../../../lib/notify';
import { texts } from '../../../adminTexts';
import { ImageRefusedError } from './imageRules';
import { uploadProductImage } from './imageStorage';
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
 * File picker and drag-and-drop for the product's picture (issue 15). On success the product's
 * image becomes the upload's public URL; on any refusal or failure the form stays as it was.
 * `accept="image/*"` makes a phone offer its camera roll (and camera). The Storefront tab uses it
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

  return (
    <Stack gap={4}>
      <Dropzone
        onDrop={(files) => void onDrop(files)}
        onReject={(rejections) => setError(rejections.length > 1 ? t.oneAtATime : t.notAnImage)}
        accept={['image/*']}
        multiple={false}
        loading={working}
        disabled={disabled || working}
        aria-label={label}
        inputProps={{ 'aria-label': label }}
        data-testid="image-dropzone"
        p="sm"
      >
        <Group justify="center" gap="xs" mih={56} style={{ pointerEvents: 'none' }}>
          <div>
            <Text size="sm" fw={600}>
              {t.dropTitle}
            </Text>
            <Text size="xs" c="dimmed">
              {t.dropHint}
            </Text>
          </div>
        </Group>
      </Dropzone>
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
