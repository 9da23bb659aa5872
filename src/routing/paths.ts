/** The app's routes (REQ-NAV-1..11): links, redirects and the router use these, never a typed path. */
export const paths = {
  home: '/',
  contact: '/contact',
  about: '/about',
  policy: '/policy',
  /** How the store earns money and sorts products (the affiliate disclosure's page, 0210). */
  howWeEarn: '/how-we-earn',
  login: '/login',
  admin: '/admin',
  /** Asks for a password reset e-mail. */
  forgotPassword: '/forgot-password',
  /** Where the reset e-mail's link lands (must be in Auth's redirect URL allow-list). */
  resetPassword: '/reset-password',
  /** A product's own page (its slug is made by the database from the title). */
  product: '/p/:slug',
} as const;

/** The address of one product's page. */
export function productPath(slug: string): string {
  return `/p/${encodeURIComponent(slug)}`;
}

/** A product's price-drop feed (REQ-OFF-5, docs/decisions/0232). */
export function priceFeedPath(slug: string): string {
  return `${productPath(slug)}/prices.atom`;
}
