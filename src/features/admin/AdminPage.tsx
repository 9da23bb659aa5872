import { Alert, Button, Center, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { Navigate } from 'react-router-dom';
import { texts } from '../../adminTexts';
import { useAuth } from '../auth/AuthProvider';
import { AdminDataProvider } from './AdminData';
import { CategoriesTab } from './categories/CategoriesTab';
import { ProductsTab } from './products/ProductsTab';
import { SignupTab } from './team/SignupTab';
import { paths } from '../../routing/paths';
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import tabClasses from './AdminTabs.module.css';
import { useToastRoom } from './toastRoom';
import { prefetchFirstPage } from './products/productQuery';
import { SessionEndedNote } from './session/SessionEndedNote';
import { leavingOnPurpose, markSessionEnded, useSessionEnded } from '../../lib/infra/sessionEnded';
import { forgetReturnTab, peekReturnTab, rememberReturn } from '../../lib/infra/sessionDraft';
// Mantine's styles for what only this area uses (decision 0258).
import '../../lib/ui/mantine-overlays.css';
import '../../lib/ui/mantine-rest.css';
import { LoadingIndicator } from '../../lib/ui/LoadingIndicator';

// Tabs an admin opens now and then load as chunks of their own (the admin chunk's byte budget).
const AdminsTab = lazy(() => import('./team/AdminsTab').then((m) => ({ default: m.AdminsTab })));
const ActivityTab = lazy(() =>
  import('./activity/ActivityTab').then((m) => ({ default: m.ActivityTab })),
);
const SettingsTab = lazy(() =>
  import('./settings/SettingsTab').then((m) => ({ default: m.SettingsTab })),
);
const StorefrontTab = lazy(() =>
  import('./storefront/StorefrontTab').then((m) => ({ default: m.StorefrontTab })),
);
// Sellers and a product's offers (REQ-OFF-1): chunks of their own too.
const SellersTab = lazy(() =>
  import('./sellers/SellersTab').then((m) => ({ default: m.SellersTab })),
);
const AccountTab = lazy(() =>
  import('./account/AccountTab').then((m) => ({ default: m.AccountTab })),
);
// Feeds (REQ-FEED-5) and the notice of failing feeds above the tabs: chunks of their own.
const FeedsTab = lazy(() => import('./feeds/FeedsTab').then((m) => ({ default: m.FeedsTab })));
const FeedsNotice = lazy(() => import('./feeds/FeedsNotice'));
// The Messages inbox and the unread count on its tab's label (REQ-PATH-16): chunks of their own.
const MessagesPanel = lazy(() =>
  import('./messages/MessagesPanel').then((m) => ({ default: m.MessagesPanel })),
);
const UnreadCount = lazy(() => import('./messages/UnreadCount'));
// When is_admin() says no: the refusal, or two-factor sign-in if that is what is missing (0252).
const TwoFactorGate = lazy(() => import('./TwoFactorGate'));
// Insights also carries the chart library (@mantine/charts, recharts): only when opened.
const InsightsTab = lazy(() =>
  import('./insights/InsightsTab').then((m) => ({ default: m.InsightsTab })),
);

function LazyPanel({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <Center py="xl">
          <LoadingIndicator label={texts.admin.loading} />
        </Center>
      }
    >
      {children}
    </Suspense>
  );
}

/** /admin: guarded by the session and the database's admin check, then the admin tabs. */
export function AdminPage() {
  const { loading, session, adminStatus, displayName, recheckAdmin } = useAuth();
  // Whether this account was an admin earlier on this page: if the database now says no, another
  // admin removed it, and the notice says so rather than the general "not an admin".
  const wasAdmin = useRef(false);
  // REQ-MFA-5: the session ended under an admin at work (a write refused for it, or supabase-js
  // lost it: signed out elsewhere, refresh token revoked). The page stays with what was typed,
  // under a notice that leads to /login; only Logout here leaves at once.
  const ended = useSessionEnded();
  const sessionLost = !loading && !session && wasAdmin.current && !leavingOnPurpose();
  const showEnded = wasAdmin.current && (ended || sessionLost);
  if (adminStatus === 'admin') wasAdmin.current = true;
  if (adminStatus === 'none' && !showEnded) wasAdmin.current = false;
  const lastName = useRef('');
  const toastRoom = useToastRoom();
  if (session) lastName.current = displayName ?? session.user.email ?? '';
  useEffect(() => {
    if (sessionLost) markSessionEnded();
  }, [sessionLost]);
  // The Products tab's first rows are asked for alongside the admin check, not after it.
  const checking = session !== null && adminStatus === 'loading';
  useEffect(() => {
    if (checking) void prefetchFirstPage();
  }, [checking]);
  // A tab's panel is rendered from the first time it is opened on (then kept, hidden, as Mantine's
  // <Activity>). Pre-rendering every hidden tab at start-up fetched the lazy tabs' chunks (Insights
  // with its chart library) and rendered them while the admin was already searching (0180).
  const [tab, setTab] = useState(() => peekReturnTab() ?? 'products');
  useEffect(() => {
    if (showEnded) rememberReturn(paths.admin, tab);
    else forgetReturnTab();
  }, [showEnded, tab]);
  const [opened, setOpened] = useState<ReadonlySet<string>>(() => new Set([tab]));
  const openTab = (value: string | null) => {
    if (!value) return;
    setTab(value);
    setOpened((s) => (s.has(value) ? s : new Set(s).add(value)));
  };
  const panel = (value: string, content: ReactNode) => (
    <Tabs.Panel value={value}>{opened.has(value) && content}</Tabs.Panel>
  );

  if (!showEnded && (loading || adminStatus === 'loading')) {
    return (
      <Center mih="50vh">
        <LoadingIndicator size="lg" label={texts.admin.loading} />
      </Center>
    );
  }
  if (!session && !showEnded) return <Navigate to={paths.login} replace />;
  if (adminStatus === 'error' && !showEnded) {
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
  if (adminStatus !== 'admin' && !showEnded) {
    return (
      <LazyPanel>
        <TwoFactorGate wasAdmin={wasAdmin.current} onAdmin={recheckAdmin} />
      </LazyPanel>
    );
  }

  const name = lastName.current;
  return (
    <AdminDataProvider>
      {/* Room under the end for the toasts (REQ-PATH-11). */}
      <Stack gap="lg" py="md" style={toastRoom ? { paddingBottom: toastRoom } : undefined}>
        <Group justify="space-between">
          <Title order={1} size="h2">
            {texts.admin.heading} {name}
          </Title>
        </Group>
        {/* Sticky under the header: a write far down the page still has it in view. */}
        <SessionEndedNote
          style={{
            position: 'sticky',
            top: 'calc(var(--app-shell-header-offset, 0px) + 8px)',
            zIndex: 5,
          }}
        />
        <Suspense fallback={null}>
          <FeedsNotice tab={tab} onOpen={() => openTab('feeds')} />
        </Suspense>
        {/* Narrow screens: the tabs wrap onto rows, all in sight (AdminTabs.module.css). */}
        <Tabs value={tab} onChange={openTab} classNames={tabClasses}>
          <Tabs.List mb="md">
            <Tabs.Tab value="products" px={{ base: 10, sm: 'md' }}>
              {texts.admin.tabs.products}
            </Tabs.Tab>
            <Tabs.Tab value="signup" px={{ base: 10, sm: 'md' }}>
              {texts.admin.tabs.signup}
            </Tabs.Tab>
            <Tabs.Tab value="admins" px={{ base: 10, sm: 'md' }}>
              {texts.team.tab}
            </Tabs.Tab>
            <Tabs.Tab value="categories" px={{ base: 10, sm: 'md' }}>
              {texts.admin.tabs.categories}
            </Tabs.Tab>
            <Tabs.Tab value="sellers" px={{ base: 10, sm: 'md' }}>
              {texts.priceChecks.sellersTab}
            </Tabs.Tab>
            <Tabs.Tab value="feeds" px={{ base: 10, sm: 'md' }}>
              {texts.admin.tabs.feeds}
            </Tabs.Tab>
            <Tabs.Tab value="messages" px={{ base: 10, sm: 'md' }}>
              {texts.admin.tabs.messages}
              <Suspense fallback={null}>
                <UnreadCount />
              </Suspense>
            </Tabs.Tab>
            <Tabs.Tab value="activity" px={{ base: 10, sm: 'md' }}>
              {texts.activity.tab}
            </Tabs.Tab>
            <Tabs.Tab value="insights" px={{ base: 10, sm: 'md' }}>
              {texts.insights.tab}
            </Tabs.Tab>
            <Tabs.Tab value="settings" px={{ base: 10, sm: 'md' }}>
              {texts.settings.tab}
            </Tabs.Tab>
            <Tabs.Tab value="storefront" px={{ base: 10, sm: 'md' }}>
              {texts.storefrontContent.tab}
            </Tabs.Tab>
            <Tabs.Tab value="account" px={{ base: 10, sm: 'md' }}>
              {texts.account.tab}
            </Tabs.Tab>
          </Tabs.List>
          {panel('products', <ProductsTab />)}
          {panel('signup', <SignupTab />)}
          {panel(
            'admins',
            <LazyPanel>
              <AdminsTab />
            </LazyPanel>,
          )}
          {panel('categories', <CategoriesTab />)}
          {panel(
            'sellers',
            <LazyPanel>
              <SellersTab />
            </LazyPanel>,
          )}
          {panel(
            'feeds',
            <LazyPanel>
              <FeedsTab />
            </LazyPanel>,
          )}
          {panel(
            'messages',
            <LazyPanel>
              <MessagesPanel />
            </LazyPanel>,
          )}
          {/* Hidden panels are React <Activity>: the tab's effects run again each time it is
              opened, so it always shows the log as it is now. */}
          {panel(
            'activity',
            <LazyPanel>
              <ActivityTab />
            </LazyPanel>,
          )}
          {panel(
            'insights',
            <LazyPanel>
              <InsightsTab />
            </LazyPanel>,
          )}
          {panel(
            'settings',
            <LazyPanel>
              <SettingsTab />
            </LazyPanel>,
          )}
          {panel(
            'storefront',
            <LazyPanel>
              <StorefrontTab />
            </LazyPanel>,
          )}
          {panel(
            'account',
            <LazyPanel>
              <AccountTab />
            </LazyPanel>,
          )}
        </Tabs>
      </Stack>
    </AdminDataProvider>
  );
}
