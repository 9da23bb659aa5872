import { AppShell, Container, Group, Text } from '@mantine/core';
import { Link, Outlet } from 'react-router-dom';
import { texts } from '../texts';

/** Common layout: navigation bar, main area (min 80% of the viewport) and footer. */
export function Layout() {
  return (
    <AppShell header={{ height: 64 }}>
      <AppShell.Header>
        <Group h="100%" px="md">
          <Link to="/">{texts.brand.title}</Link>
        </Group>
      </AppShell.Header>
      <AppShell.Main style={{ minHeight: '80vh' }}>
        <Container size="lg">
          <Outlet />
        </Container>
      </AppShell.Main>
      <footer>
        <Text ta="center">{texts.brand.footer}</Text>
      </footer>
    </AppShell>
  );
}
