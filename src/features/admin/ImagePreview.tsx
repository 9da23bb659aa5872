import { Center, Image, Paper, Text } from '@mantine/core';
import { texts } from '../../texts';
import { isImageRef } from './schemas';

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
        <Image src={value} alt={texts.productForm.imagePreview} h="100%" fit="contain" />
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
