import { Anchor, Group, Text, VisuallyHidden } from '@mantine/core';
import { useStoreSettings } from '../infra/storeSettings';
import { texts } from '../../texts';
import classes from './StoreDetails.module.css';

function FollowIcon() {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      aria-hidden="true"
      className={classes.followIcon}
    >
      <rect
        x="3"
        y="3"
        width="18"
        height="18"
        rx="5"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      />
      <circle cx="12" cy="12" r="4" fill="none" stroke="currentColor" strokeWidth="2" />
      <circle cx="17.5" cy="6.5" r="1.2" fill="currentColor" />
    </svg>
  );
}

/**
 * The spec's "Follow us" line: each social page the store settings name, by its network, in a
 * new tab. rel="me" says the page is the store's own; no placeholder when none is configured.
 */
export function FollowUs() {
  const { social } = useStoreSettings();
  if (social.length === 0) return null;
  return (
    <Group gap="xs" justify="center" data-testid="follow-us">
      <Text component="span" size="sm">
        <FollowIcon />
        {texts.brand.followUs}
      </Text>
      {social.map(({ network, url }) => (
        <Anchor key={network} href={url} target="_blank" rel="me noopener" className={classes.link}>
          {texts.storefront.social[network]}
          <VisuallyHidden> {texts.storefront.opensInNewTab}</VisuallyHidden>
        </Anchor>
      ))}
    </Group>
  );
}

/**
 * Who runs the shop (E-Commerce Regulations 2002 reg. 6): the trader's name, geographic address,
 * e-mail address, and company and VAT numbers where they exist. In the footer of every page and
 * on the contact page.
 */
export function TraderDetails({ align = 'center' }: { align?: 'center' | 'left' }) {
  const { trader, contactEmail } = useStoreSettings();
  const t = texts.storefront.trader;
  return (
    <Text
      component="address"
      size="sm"
      c="dimmed"
      ta={align}
      fs="normal"
      data-testid="trader-details"
    >
      <Text component="span" inherit fw={600}>
        {t.heading}
      </Text>
      {': '}
      {[trader.name, trader.address].filter(Boolean).join(', ')}
      {(trader.name || trader.address) && ' · '}
      {t.email} {/* Whole on one line: an address broken at its hyphen reads as two. */}
      <Anchor href={`mailto:${contactEmail}`} inherit style={{ whiteSpace: 'nowrap' }}>
        {contactEmail}
      </Anchor>
      {trader.companyNumber && ` · ${t.companyNumber} ${trader.companyNumber}`}
      {trader.vatNumber && ` · ${t.vatNumber} ${trader.vatNumber}`}
    </Text>
  );
}
