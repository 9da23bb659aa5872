import { Badge, Box, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { Json } from '../../../lib/infra/database.types';
import { texts } from '../../../adminOfferTexts';
import { isActivityKind, type ActivityEntry, type AdminAccount } from './activityApi';

const activityTexts = texts.activity;
const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });

const KIND_COLOR: Record<string, string> = {
  added: 'green',
  changed: 'blue',
  deleted: 'red',
  invited: 'grape',
  withdrawn: 'orange',
  confirmed: 'teal',
  removed: 'red',
};

/** Long values (comments, links) wrap inside the card instead of widening the page. */
const wrap = { overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' } as const;

type Fields = Record<string, Json | undefined>;

function asFields(value: Json | null): Fields {
  return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
}

function show(value: Json | undefined): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Column names as the admin's forms label them. */
const FIELD_LABEL: Record<string, string> = {
  title: texts.productForm.title,
  cat: texts.productForm.category,
  price: texts.productForm.price,
  com: texts.productForm.comment,
  image: texts.productForm.image,
  link: texts.productForm.link,
  // Store settings (settings_changed, docs/decisions/0211).
  store_name: texts.settings.storeName,
  contact_email: texts.settings.contactEmail,
  site_url: texts.settings.siteUrl,
  instagram_url: texts.settings.instagram,
  facebook_url: texts.settings.facebook,
  x_url: texts.settings.x,
  tiktok_url: texts.settings.tiktok,
  youtube_url: texts.settings.youtube,
  disclosure_text: texts.settings.disclosure,
  trader_name: texts.settings.traderName,
  trader_address: texts.settings.traderAddress,
  company_number: texts.settings.companyNumber,
  vat_number: texts.settings.vatNumber,
  price_stale_after_days: texts.freshness.staleAfter,
  price_hidden_after_days: texts.freshness.hiddenAfter,
  // Offers and sellers (REQ-OFF-1).
  seller_id: texts.offerPanel.seller,
  price_confirmed_at: texts.offerPanel.confirmedAt,
  price_source: texts.offerPanel.source,
  price_gbp: texts.offerPanel.price,
  delivery_gbp: texts.offerPanel.delivery,
  availability: texts.offerPanel.availability,
  name: texts.sellers.name,
  site: texts.sellers.site,
  logo: texts.sellers.logo,
  network: texts.sellers.network,
  affiliate_param: texts.sellers.affiliateParam,
  affiliate_value: texts.sellers.affiliateValue,
};

/** Storefront content (docs/decisions/0212): "Banner slide 2: Headline", "About text". */
const SLIDE_PART_LABEL: Record<string, string> = {
  image: texts.storefrontContent.picture,
  alt: texts.storefrontContent.alt,
  heading: texts.storefrontContent.heading,
  text: texts.storefrontContent.text,
  link: texts.storefrontContent.link,
};

function fieldLabel(field: string): string {
  const slide = /^slide_(\d)_([a-z]+)$/.exec(field);
  const part = slide && SLIDE_PART_LABEL[slide[2] ?? ''];
  if (slide && part) return `${texts.storefrontContent.slideHeading(Number(slide[1]))}: ${part}`;
  if (field === 'about_text') return texts.storefrontContent.about;
  return FIELD_LABEL[field] ?? field;
}

/** Field by field: "before → after" for a change, the single value for an add or delete. */
function FieldList({ entry }: { entry: ActivityEntry }) {
  const before = asFields(entry.before);
  const after = asFields(entry.after);
  const fields = [...new Set([...Object.keys(after), ...Object.keys(before)])];
  if (fields.length === 0) return null;
  return (
    <Box component="dl" m={0} data-testid="activity-fields">
      {fields.map((field) => {
        const changed = field in before && field in after;
        return (
          <Box key={field} mb={4}>
            <Text component="dt" size="xs" fw={600} c="dimmed">
              {fieldLabel(field)}
            </Text>
            <Text component="dd" size="sm" m={0} style={wrap}>
              {changed ? (
                <>
                  {show(before[field])} → {show(after[field])}
                </>
              ) : (
                show(field in after ? after[field] : before[field])
              )}
            </Text>
          </Box>
        );
      })}
    </Box>
  );
}

/** One log entry as a card: readable at 375 px without sideways scrolling. */
export function ActivityEntryCard({
  entry,
  admin,
  onOnlyThisProduct,
}: {
  entry: ActivityEntry;
  /** The entry's admin while still an admin: shown by display name, the e-mail on hover. */
  admin?: AdminAccount;
  onOnlyThisProduct?: (productId: string, title: string) => void;
}) {
  const kindLabel = isActivityKind(entry.kind) ? activityTexts.kind[entry.kind] : entry.kind;
  const color = KIND_COLOR[entry.kind.split('_').at(-1) ?? ''] ?? 'gray';
  return (
    <Paper withBorder p="sm" radius="md" component="li" data-testid="activity-entry">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Badge color={color} variant="light">
            {kindLabel}
          </Badge>
          <Text size="xs" c="dimmed">
            <time dateTime={entry.created_at}>{dateFormat.format(new Date(entry.created_at))}</time>
          </Text>
        </Group>
        <Text fw={600} style={wrap}>
          {entry.subject}
        </Text>
        <Text size="sm" c="dimmed" style={wrap}>
          {activityTexts.by}{' '}
          {admin?.name ? (
            <span title={admin.email}>{admin.name}</span>
          ) : (
            (entry.actor_email ?? entry.actor ?? activityTexts.system)
          )}
        </Text>
        <FieldList entry={entry} />
        {entry.product_id && onOnlyThisProduct && (
          <Group>
            <Button
              variant="subtle"
              size="compact-xs"
              onClick={() => onOnlyThisProduct(entry.product_id!, entry.subject)}
            >
              {activityTexts.onlyThisProduct}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
