import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import { Alert, Button, Center, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { texts } from '../../../adminOfferTexts';
import { notify } from '../../../lib/infra/notify';
import { FOREIGN_KEY_VIOLATION, isDbError } from '../db';
import { ConfirmDialog } from '../editor/ConfirmDialog';
import { deleteSeller, listSellers, type Seller, type SellerWithCount } from './sellerApi';
import { SellerDialog } from './SellerDialog';
import { LoadingIndicator } from '../../../lib/ui/LoadingIndicator';

const t = texts.sellers;

/**
 * Admin tab "Sellers" (REQ-OFF-1): every seller with its site, network, affiliate rule and
 * number of offers; add, edit, delete. The database refuses to delete a seller that offers still
 * use (ON DELETE RESTRICT), and its message is shown.
 */
export function SellersTab() {
  const [sellers, setSellers] = useState<SellerWithCount[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [editing, setEditing] = useState<{ seller: Seller | null } | null>(null);
  const [deleting, setDeleting] = useState<SellerWithCount | null>(null);

  const load = useCallback(async () => {
    try {
      setSellers(await listSellers());
      setFailed(false);
    } catch (error) {
      console.error('Loading the sellers failed', error);
      setFailed(true);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const remove = async (seller: SellerWithCount) => {
    setDeleting(null);
    try {
      if (await deleteSeller(seller.id)) notify.success(t.deleted);
      else if (!(await sessionEndedAfter())) notify.error(t.deleteFailed);
    } catch (error) {
      console.error('Deleting a seller failed', error);
      // Offers still use it: the database's own words say so.
      if (!(await sessionEndedAfter(error)))
        notify.error(
          isDbError(error, FOREIGN_KEY_VIOLATION)
            ? `${t.deleteFailed}: ${error.message}`
            : t.deleteFailed,
        );
    }
    await load();
  };

  const rule = (s: SellerWithCount) =>
    s.affiliate_param ? `${s.affiliate_param}=${s.affiliate_value ?? ''}` : '';
  const actions = (s: SellerWithCount) => (
    <>
      <Button size="compact-sm" variant="light" onClick={() => setEditing({ seller: s })}>
        {t.edit}
      </Button>
      <Button size="compact-sm" variant="light" color="red" onClick={() => setDeleting(s)}>
        {t.delete}
      </Button>
    </>
  );

  if (failed) {
    return (
      <Alert color="red" role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t.loadFailed}</Text>
          <Button size="xs" variant="light" onClick={() => void load()}>
            {texts.admin.retry}
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (!sellers) {
    return (
      <Center py="xl">
        <LoadingIndicator label={t.loading} />
      </Center>
    );
  }
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Text size="sm" c="dimmed" maw={640}>
          {t.intro}
        </Text>
        <Button onClick={() => setEditing({ seller: null })}>{t.add}</Button>
      </Group>
      {sellers.length === 0 && <Text c="dimmed">{t.empty}</Text>}
      {/* Phones: one card per seller; wider screens: the table. */}
      <Stack gap="xs" hiddenFrom="sm">
        {sellers.map((s) => (
          <Paper key={s.id} withBorder p="sm" radius="sm" data-testid="seller-card">
            <Stack gap={2}>
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
                  {s.name}
                </Text>
                <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {t.offerCount(s.offers)}
                </Text>
              </Group>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {s.site}
              </Text>
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {[s.network, rule(s)].filter(Boolean).join(' · ')}
              </Text>
              <Group gap={6} mt={4}>
                {actions(s)}
              </Group>
            </Stack>
          </Paper>
        ))}
      </Stack>
      {sellers.length > 0 && (
        <Table
          striped
          verticalSpacing="xs"
          visibleFrom="sm"
          aria-label={texts.priceChecks.sellersTab}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t.name}</Table.Th>
              <Table.Th>{t.site}</Table.Th>
              <Table.Th>{t.networkColumn}</Table.Th>
              <Table.Th>{t.affiliateHeading}</Table.Th>
              <Table.Th>{t.offers}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sellers.map((s) => (
              <Table.Tr key={s.id} data-testid="seller-row">
                <Table.Td fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {s.name}
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{s.site}</Table.Td>
                <Table.Td>{s.network ?? ''}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{rule(s)}</Table.Td>
                <Table.Td>{s.offers.toLocaleString('en-GB')}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap" justify="flex-end">
                    {actions(s)}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <SellerDialog
        opened={editing !== null}
        seller={editing?.seller ?? null}
        onClose={() => setEditing(null)}
        onSaved={() => void load()}
      />
      <ConfirmDialog
        opened={deleting !== null}
        title={t.confirmTitle}
        text={t.confirmText(deleting?.name ?? '')}
        confirmLabel={t.delete}
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
