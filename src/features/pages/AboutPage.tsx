import { Anchor, Group, Image, List, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { texts } from '../../texts';
import { paths } from '../../routing/paths';

/** About Us: the logo and what this store is. */
export function AboutPage() {
  return (
    <Stack gap="lg" maw={760} mx="auto" py="md">
      <Group gap="md" wrap="nowrap">
        <Image src="/logo.svg" alt={`${texts.brand.title} logo`} w={96} h={96} fit="contain" />
        <Title order={1}>{texts.pages.aboutHeading}</Title>
      </Group>
      <Text size="lg">
        MAR Online Store UK is a small, independent sports-goods storefront for shoppers across the
        United Kingdom. We bring together kit for the sports people actually play on weekday
        evenings and Sunday mornings: football, cricket, tennis, running, cycling, swimming, gym
        training and more.
      </Text>
      <Text>
        We do not run a warehouse. Instead we search out good products from trusted UK sellers,
        check the details and list each one with an honest comment about what it is good for. When
        you find something you like, the Buy Now button takes you straight to the seller&apos;s own
        page, where you buy it with the seller&apos;s prices, delivery and returns.
      </Text>
      <Title order={2} size="h3">
        What we care about
      </Title>
      <List spacing="xs">
        <List.Item>
          Clear prices in pounds sterling and plain descriptions, with no pushy extras.
        </List.Item>
        <List.Item>
          Kit for every level, from a first pair of running shoes to match-day gear.
        </List.Item>
        <List.Item>
          Sellers with fair delivery and returns, so buying outside our site stays simple.
        </List.Item>
        <List.Item>
          Your privacy: we collect as little as we can (see our{' '}
          <Anchor component={Link} to={paths.policy}>
            {texts.nav.policy}
          </Anchor>
          ).
        </List.Item>
      </List>
      <Text>
        Have a question, a product we should list, or a seller you would recommend? We would love to
        hear from you on our{' '}
        <Anchor component={Link} to={paths.contact}>
          {texts.nav.contact}
        </Anchor>{' '}
        page.
      </Text>
    </Stack>
  );
}
