import { Link } from 'react-router-dom';
import { paths } from '../../../routing/paths';
import { texts } from '../../../texts';
import { CATEGORY_PARAM } from '../storeView';
import { rememberedListing, returnToListing } from '../listingReturn';
import classes from './ProductPage.module.css';

/** The listing of one catagory (the home page filtered by it). */
export const categoryListing = (cat: string) =>
  `${paths.home}?${new URLSearchParams({ [CATEGORY_PARAM]: cat })}`;

/** Home › Catagory › Product, the catagory a link to its listing (REQ-PATH-1). */
export function Breadcrumb({ cat, title }: { cat: string; title: string }) {
  return (
    <nav aria-label={texts.productPage.breadcrumb} className={classes.trail}>
      <ol>
        <li>
          <Link to={paths.home}>{texts.nav.home}</Link>
        </li>
        <li>
          <Link to={categoryListing(cat)}>{cat}</Link>
        </li>
        <li aria-current="page">{title}</li>
      </ol>
    </nav>
  );
}

/**
 * Back to the listing the shopper opened the product from, with its search, catagory, sort and
 * scroll position (listingReturn.ts); from elsewhere (a shared link, a search engine) to the
 * product's catagory.
 */
export function BackToListing({ cat }: { cat: string }) {
  const listing = rememberedListing();
  return (
    <Link
      to={listing ? `${paths.home}${listing.search}` : categoryListing(cat)}
      onClick={returnToListing}
      className={classes.back}
      data-testid="back-to-listing"
    >
      {texts.productPage.back}
    </Link>
  );
}
