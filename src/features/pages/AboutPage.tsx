import { Anchor, Group, Image, List, Stack, Text, Title } from '@mantine/core';
import { Fragment } from 'react';
import { Link } from 'react-router-dom';
import { texts } from '../../texts';
import { paths } from '../../routing/paths';
import { useStorefrontContent } from '../../lib/infra/storefrontContent';
import { aboutBlocks, DEFAULT_ABOUT_TEXT, splitPageNames } from './aboutText';

/** The page names the About text turns into links (decision 0212). */
const PAGE_LINKS: Record<string, string> = {
  [texts.nav.policy]: paths.policy,
  [texts.nav.contact]: paths.contact,
};
const PAGE_NAMES = Object.keys(PAGE_LINKS);

/** Text, with the store's page names as links; everything else stays text (never HTML). */
function Inline({ text }: { text: string }) {
  return splitPageNames(text, PAGE_NAMES).map((part, i) => {
    const to = part.page ? PAGE_LINKS[part.page] : undefined;
    return to ? (
      <Anchor key={i} component={Link} to={to}>
        {part.text}
      </Anchor>
    ) : (
      <Fragment key={i}>{part.text}</Fragment>
    );
  });
}

/**
 * About Us: the logo and what this store is. The text is the owner's, edited on the admin's
 * Storefront tab (docs/decisions/0212); the built-in text until the stored one has arrived.
 */
export function AboutPage() {
  const content = useStorefrontContent();
  const blocks = aboutBlocks(content?.about_text ?? DEFAULT_ABOUT_TEXT);
  const firstParagraph = blocks.findIndex((b) => b.kind === 'paragraph');
  return (
    <Stack gap="lg" maw={760} mx="auto" py="md">
      <Group gap="md" wrap="nowrap">
        <Image src="/logo.svg" alt={`${texts.brand.title} logo`} w={96} h={96} fit="contain" />
        <Title order={1}>{texts.pages.aboutHeading}</Title>
      </Group>
      <Stack gap="lg" data-testid="about-text">
        {blocks.map((block, i) => {
          if (block.kind === 'heading') {
            return (
              <Title key={i} order={2} size="h3">
                {block.text}
              </Title>
            );
          }
          if (block.kind === 'list') {
            return (
              <List key={i} spacing="xs">
                {block.items.map((item, j) => (
                  <List.Item key={j}>
                    <Inline text={item} />
                  </List.Item>
                ))}
              </List>
            );
          }
          // The first paragraph leads, a size larger, as the page always had it.
          return (
            <Text
              key={i}
              size={i === firstParagraph ? 'lg' : undefined}
              style={{ whiteSpace: 'pre-line' }}
            >
              <Inline text={block.text} />
            </Text>
          );
        })}
      </Stack>
    </Stack>
  );
}
