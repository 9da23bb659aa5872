import { Alert, Center, Image, Paper, Text } from '@mantine/core';
import { useState } from 'react';
import { texts } from '../../../adminTexts';
import { isImageRef } from './productSchema';

/** The picture at `src`, or a warning instead of the browser's broken-image icon. */
function PreviewImage({ src }: { src: string }) {
  const [broken, setBroken] = useState(false);
  if (broken) {
    // Saving stays allowed: the link may be down only for now, or only from here.
    return (
      // Body text, not the Alert's title: a yellow title on its light background fails contrast.
      <Alert color="yellow" variant="light" h="100%" data-testid="image-link-broken">
        <Text size="sm" fw={700}>
          {texts.productImages.linkBroken}
        </Text>
        <Text size="sm">{texts.productImages.linkBrokenHint}</Text>
      </Alert>
    );
  }
  return (
    <Image
      src={src}
      alt={texts.productForm.imagePreview}
      h="100%"
      fit="contain"
      onError={() => setBroken(true)}
    />
  );
}

/** Shows the entered image link as the storefront card will, once it is a usable address. */
export function ImagePreview({ src }: { src: string }) {
  const value = src.trim();
  return (
    <Paper
      withBorder
      radius="md"
      h={140}
      p={4}
      aria-label={texts.productForm.imagePreview}
      role="figure"
    >
      {value && isImageRef(value) ? (
        // A new address starts again from "not known to be broken".
        <PreviewImage key={value} src={value} />
      ) : (
        <Center h="100%">
          <Text c="dimmed" size="sm">
            {texts.productForm.imagePreview}
          </Text>
        </Center>
      )}
    </Paper>
  );
}
