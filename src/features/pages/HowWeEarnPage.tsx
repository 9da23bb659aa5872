import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { paths } from '../../routing/paths';
import { texts } from '../../pageTexts';

const t = texts.howWeEarn;

/**
 * How the store earns money and orders its products: the page the affiliate disclosure links
 * to (docs/decisions/0210). Pre-rendered like About, so it reads without JavaScript.
 */
export function HowWeEarnPage() {
  return (
    <Stack gap="lg" maw={760} mx="auto" py="md">
      <Title order={1}>{t.heading}</Title>
      <Stack gap="xs" component="section" aria-labelledby="earn">
        <Title order={2} size="h3" id="earn">
          {t.earnHeading}
        </Title>
        {t.earn.map((p) => (
          <Text key={p}>{p}</Text>
        ))}
      </Stack>
      <Stack gap="xs" component="section" aria-labelledby="sort">
        <Title order={2} size="h3" id="sort">
          {t.sortHeading}
        </Title>
        {t.sort.map((p) => (
          <Text key={p}>{p}</Text>
        ))}
      </Stack>
      <Stack gap="xs" component="section" aria-labelledby="count">
        <Title order={2} size="h3" id="count">
          {t.countHeading}
        </Title>
        <Text>
          {t.count} {t.countMore}{' '}
          <Anchor component={Link} to={paths.policy}>
            {texts.nav.policy}
          </Anchor>
          .
        </Text>
      </Stack>
    </Stack>
  );
}
