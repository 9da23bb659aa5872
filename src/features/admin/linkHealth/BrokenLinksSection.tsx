import { Anchor, Badge, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { texts } from '../../../adminTexts';
import { LinkEvidence } from './LinkEvidence';
import { fetchProblemLinks, type ProblemLink } from './linkHealthApi';

const t = texts.linkHealth;
const timeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Insights: the products whose seller link, offer link or image is broken, failing, blocked by a
 * bot wall (with the evidence) or redirects to another site (with "Accept redirect"), worst first. For 16A's Insights tab (the lead wires it in); `version` reloads it.
 */
export function BrokenLinksSection({ version: outer = 0 }: { version?: number }) {
  const [rows, setRows] = useState<ProblemLink[] | null>(null);
  const [own, setOwn] = useState(0);
  const version = outer + own;
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    setFailed(false);
    fetchProblemLinks()
      .then((found) => live && setRows(found))
      .catch((error: unknown) => {
        console.error('Loading broken links failed', error);
        if (live) setFailed(true);
      });
    return () => {
      live = false;
    };
  }, [version]);

  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t.insightsHeading}
      </Title>
      {failed && <Text c="red">{t.insightsFailed}</Text>}
      {rows && rows.length === 0 && <Text c="dimmed">{t.insightsEmpty}</Text>}
      {rows && rows.length > 0 && (
        <Table.ScrollContainer minWidth={480}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{texts.productForm.title}</Table.Th>
                <Table.Th>{t.column}</Table.Th>
                <Table.Th>{t.goesTo}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={`${r.product_id}-${r.kind}-${r.url}`}>
                  <Table.Td>
                    {r.products?.title ?? r.product_id}
                    <Text size="xs" c="dimmed">
                      {r.kind === 'link'
                        ? texts.productForm.link
                        : r.kind === 'offer'
                          ? t.offerLink
                          : texts.productForm.image}{' '}
                      · {timeFormat.format(new Date(r.checked_at))}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge
                      color={
                        r.status === 'broken' ? 'red' : r.status === 'blocked' ? 'teal' : 'orange'
                      }
                      variant="light"
                      size="sm"
                    >
                      {t.status[r.status]}
                      {r.http_code ? ` · ${r.http_code}` : ''}
                    </Badge>
                    <LinkEvidence check={r} onChanged={() => setOwn((v) => v + 1)} />
                  </Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>
                    {/^https?:\/\//i.test(r.final_url ?? r.url) ? (
                      <Anchor
                        href={r.final_url ?? r.url}
                        target="_blank"
                        rel="noopener noreferrer"
                        size="sm"
                      >
                        {r.final_url ?? r.url}
                      </Anchor>
                    ) : (
                      <Text size="sm">{r.final_url ?? r.url}</Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

export default BrokenLinksSection;
