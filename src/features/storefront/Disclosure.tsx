import { Link } from 'react-router-dom';
import { paths } from '../../routing/paths';
import { disclosureParts } from '../../lib/domain/disclosure';
import { useStoreSetting } from '../../lib/infra/storeSettings';
import { texts } from '../../texts';
import classes from './Disclosure.module.css';

/**
 * The affiliate disclosure (docs/decisions/0210): every Buy Now is an ad, so it says so before a
 * shopper engages with it. Plain elements and a CSS module, no Mantine component: the same
 * markup is rendered by React, pre-rendered at build time and copied by the early cards
 * (earlyFirstPage.ts), and it must stay small for the home page's JS budget.
 */

/** Above the first products of every listing and on every product page: what "Ad" means. */
export function DisclosureLine() {
  const { label, line } = disclosureParts(useStoreSetting('disclosure'));
  return (
    <p className={classes.line} data-testid="ad-disclosure">
      <strong>{label}:</strong> {line}{' '}
      <Link to={paths.howWeEarn} className={classes.more}>
        {texts.disclosure.more}
      </Link>
    </p>
  );
}

/**
 * "Ad" and the seller's site, right before a Buy Now. Hidden from screen readers: the link's own
 * name says the same (texts.storefront.buyNowHint), so it is not read twice.
 */
export function SellerTag({ site, className }: { site: string | null; className?: string }) {
  return (
    <p
      className={className ? `${classes.seller} ${className}` : classes.seller}
      aria-hidden="true"
      data-testid="ad-label"
    >
      <span className={classes.ad}>{texts.disclosure.label}</span>
      {site && <span className={classes.site}>{site}</span>}
    </p>
  );
}
