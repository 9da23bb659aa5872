import { Alert, Button, Center, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { Navigate } from 'react-router-dom';
import { texts } from '../../texts';
import { useAuth } from '../auth/AuthProvider';
import { AccountTab } from './AccountTab';
import { AdminDataProvider } from './AdminData';
import { CategoriesTab } from './CategoriesTab';
import { MessagesPanel } from './MessagesPanel';
import { ProductsTab } from './ProductsTab';
import { SignupTab } from './SignupTab';
import { paths } from '../../app/paths';

/** /admin: guarded by the session and the database's admin check, then the admin tabs. */
export function AdminPage() {
  const { loading, session, adminStatus, displayName, recheckAdmin } = useAuth();

  if (loading || adminStatus === 'loading') {
    return (
      <Center mih="50vh">
        <Loader size="lg" aria-label={texts.admin.loading} />
      </Center>
    );
  }
  if (!session) return <Navigate to={paths.login} replace />;
  if (adminStatus === 'error') {
    return (
      <Alert color="red" role="alert" maw={560} mx="auto" my="xl" title={texts.unexpected}>
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{texts.admin.statusFailed}</Text>
          <Button size="xs" variant="light" onClick={recheckAdmin}>
            {texts.admin.retry}
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (adminStatus !== 'admin') {
    return (
      <Alert color="orange" role="alert" maw={560} mx="auto" my="xl">
        {texts.admin.notAdmin}
      </Alert>
    );
  }

  const name = displayName ?? session.user.email ?? '';
  return (
    <AdminDataProvider>
      <Stack gap="lg" py="md">
        <Group justify="space-between">
          <Title order={1} size="h2">
            {texts.admin.heading} {name}
          </Title>
        </Group>
        <Tabs defaultValue="products">
          {/* One scrollable row on narrow phones rather than a wrapped second line. */}
          <Tabs.List mb="md" style={{ flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' }}>
            <Tabs.Tab value="products" px={{ base: 10, sm: 'md' }}>
              {texts.admin.tabs.products}
            </Tabs.Tab>
            <Tabs.Tab value="signup" px={{ base: 10, sm: 'md' }}>
              {texts.admin.tabs.signup}
            </Tabs.Tab>
            <Tabs.Tab value="categories" px={{ base: 10, sm: 'md' }}>
              {texts.admin.tabs.categories}
            </Tabs.Tab>
            <Tabs.Tab value="messages" px={{ base: 10, sm: 'md' }}>
              {texts.admin.tabs.messages}
            </Tabs.Tab>
            <Tabs.Tab value="account" px={{ base: 10, sm: 'md' }}>
              {texts.account.tab}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="products">
            <ProductsTab />
          </Tabs.Panel>
          <Tabs.Panel value="signup">
            <SignupTab />
          </Tabs.Panel>
          <Tabs.Panel value="categories">
            <CategoriesTab />
          </Tabs.Panel>
          <Tabs.Panel value="messages">
            <MessagesPanel />
          </Tabs.Panel>
          <Tabs.Panel value="account">
            <AccountTab />
          </Tabs.Panel>
        </Tabs>
      </Stack>
    </AdminDataProvider>
  );
}
