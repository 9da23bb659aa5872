/**
 * The rule: every user-visible text of the app and every aria-label lives here, and nowhere else
 * in src (no inline aria-label strings in components). The texts docs/requirements.md quotes are
 * word for word (spellings such as "Catagory", "Foound" and "SignUP" are requirements). UI and
 * tests import from here so a text is written exactly once. No dead keys (every key is read
 * somewhere in src) and no two keys with the same text, unless the repetition is listed on purpose
 * in tests/unit/texts-rule.test.ts, which enforces all of this. Texts only the admin area shows
 * live in src/adminTexts.ts, the forms' (Contact Us, Admin Login, password reset) in
 * src/formTexts.ts, both extending this object, so that the storefront's first load does not
 * carry them (the home page's JS budget, REQ-WEIGHT-5).
 */
export const texts = {
  brand: {
    title: 'MAR Online.Store UK',
    footer: 'All Right Reserved © MAR Online Store 2023',
    followUs: 'Follow us',
  },
  nav: {
    home: 'Home',
    login: 'Login',
    admin: 'Admin',
    contact: 'Contact Us',
    logout: 'Logout',
    about: 'About',
    policy: 'Privacy Policy',
  },
  home: {
    all: 'All',
    noProducts: 'No Products',
    buyNow: 'Buy Now',
  },
  /** Visitor-side texts that the spec does not quote (written for this store). */
  storefront: {
    categoriesLabel: 'Product categories',
    loadMore: 'Load more',
    loading: 'Loading products…',
    loadFailed: 'We could not load the products. Please check your connection and try again.',
    categoriesFailed: 'We could not load the categories.',
    retry: 'Try again',
    imageFallbackAlt: 'No image available',
    opensInNewTab: '(opens in a new tab)',
    /** A Buy Now link's full name for screen readers: it is an ad and where it goes (0210). */
    buyNowHint: (site: string | null) =>
      site ? `(Ad, ${site}, opens in a new tab)` : '(Ad, opens in a new tab)',
    /** "Follow us": each configured social page by its network's name (docs/decisions/0211). */
    social: {
      instagram: 'Instagram',
      facebook: 'Facebook',
      x: 'X',
      tiktok: 'TikTok',
      youtube: 'YouTube',
    },
    /** Who runs the shop (E-Commerce Regulations 2002 reg. 6), from the store settings. */
    trader: {
      heading: 'Who runs this shop',
      email: 'E-mail:',
      companyNumber: 'Company number:',
      vatNumber: 'VAT number:',
    },
    banner: {
      label: 'Featured offers',
      pause: 'Pause slideshow',
      play: 'Play slideshow',
      showSlide: (n: number) => `Show slide ${n}`,
      slideOf: (n: number, total: number) => `${n} of ${total}`,
      slides: [
        {
          image: '/banners/banner-1.svg',
          alt: 'Football on a floodlit pitch',
          heading: 'Kit out your team',
          text: 'Footballs, boots and training gear from trusted UK sellers.',
          link: '/?cat=Football',
        },
        {
          image: '/banners/banner-2.svg',
          alt: 'Tennis racket and ball on a grass court',
          heading: 'Game, set and match',
          text: 'Rackets, balls and court shoes for every level of play.',
          link: '/?cat=Tennis',
        },
        {
          image: '/banners/banner-3.svg',
          alt: 'Running shoes on a track',
          heading: 'Run further',
          text: 'Running shoes, fitness trackers and gym essentials.',
          link: '/?cat=Running',
        },
      ],
    },
    menu: { open: 'Open navigation', close: 'Close navigation', title: 'Menu' },
  },
  pages: {
    aboutHeading: 'About Us',
    policyHeading: 'Privacy Policy',
    policyUpdated: 'Last updated: June 2023',
    errorHeading: 'Sorry, something unexpected happened.',
    errorText: 'The page could not be shown. Please go back to the shop and try again.',
    errorBack: 'Back to the shop',
    /** Where privacy requests go (also reachable through the contact page). */
  },
  /** Names for icon-only controls (screen readers) and the colour-scheme toggle. */
  a11y: {
    closeNotification: 'Close notification',
    closeDialog: 'Close',
    colorScheme: { toDark: 'Switch to dark colours', toLight: 'Switch to light colours' },
    mainNav: 'Main',
    footerNav: 'Footer',
    /** The first Tab stop of every page: past the header to the page's content (REQ-PATH-4). */
    skipToContent: 'Skip to content',
  },
  /** Per-route document titles (store name appended) and meta descriptions. */
  meta: {
    home: 'Sports goods for UK shoppers: footballs, rackets, running shoes and more from trusted sellers.',
    contact: 'Send MAR Online Store UK a message: questions about products, sellers or this site.',
    about: 'About MAR Online Store UK, a small sports-goods storefront for UK shoppers.',
    policy: 'How MAR Online Store UK collects, uses, keeps and protects your personal data.',
    login: 'Sign in to the MAR Online Store UK admin area (store admins only).',
    admin: 'Manage the MAR Online Store UK catalogue: products, categories and admin accounts.',
    notFound: 'The page you were looking for is not on MAR Online Store UK.',
  },
  notFound: {
    title: 'Oops! Page Not Found',
    goBack: 'Go Back',
  },
  /** The login page's heading (the route's title); its other texts: src/formTexts.ts. */
  login: {
    heading: 'Admin Login',
  },
  logout: {
    success: 'Logout Successfully',
  },
  /** The reset pages' titles (their routes'); their other texts: src/formTexts.ts and src/adminTexts.ts. */
  passwordReset: {
    requestHeading: 'Reset your password',
    setHeading: 'Set a new password',
    metaRequest: 'Ask for a link to set a new password for a MAR Online Store UK admin account.',
    metaSet: 'Set a new password for a MAR Online Store UK admin account.',
  },
  /** The admin area's heading (the route's title) and the login page's refusal; the rest: src/adminTexts.ts. */
  admin: {
    heading: 'Admin',
    notAdmin: 'This account is not a store admin, so it cannot use the admin area.',
  },
  /** Storefront search and sort (REQ-FIND-1, REQ-FIND-2): texts the spec does not quote. */
  storeSearch: {
    label: 'Search products',
    placeholder: 'Name, category or description',
    sortLabel: 'Sort by',
    sorts: {
      'price-asc': 'Price: low to high',
      'price-desc': 'Price: high to low',
      newest: 'Newest first',
    },
    /** Announced when a search's results arrive (keyset paging: the total is not counted). */
    found: (shown: number, more: boolean) =>
      more
        ? `More than ${shown} products found`
        : `${shown} ${shown === 1 ? 'product' : 'products'} found`,
    /** The header's search (REQ-PATH-2): reachable from every page. */
    open: 'Search the shop',
  },
  /** The Admins tab (the admin team): texts the spec does not quote. */
  /** Admin product table (REQ-SCALE-1, REQ-SCALE-2): search, filter, sort, pages, bulk actions. */
  /** CSV export and import on the Products tab (REQ-SCALE-3, REQ-SCALE-4; format: docs/csv.md). */
  /** The admin's Messages tab (not quoted by the spec). */
  /** The admin's Activity tab: the database's append-only log (not quoted by the spec). */
  unexpected: 'Something went Wrong',
  /**
   * Affiliate disclosure (docs/decisions/0210; not quoted by the spec): every Buy Now is an ad.
   * The line reads `${label}: ${line}` above the products of every listing and product page.
   */
  disclosure: {
    label: 'Ad',
    line: 'we earn a commission from the seller when you buy through our links. It does not change the price you pay.',
    more: 'How we earn and sort',
  },
  /** The page the disclosure links to (/how-we-earn); its body is in src/pageTexts.ts. */
  howWeEarn: {
    heading: 'How we earn money and sort products',
    meta: 'How MAR Online Store UK earns money (commission from sellers) and how it orders products (by price, never by commission).',
  },
  /**
   * Several sellers and old prices on a card (REQ-OFF-2, REQ-OFF-3). The product page's offer list
   * and price history have their own texts in src/offerTexts.ts (loaded with them).
   */
  offers: {
    from: (price: string) => `from ${price}`,
    sellers: (n: number | string) => `${n} sellers`,
    stale: 'price may have changed — check with the seller',
    hidden: 'check the price with the seller',
  },
  /** A product's own page at /p/<slug> (REQ-FIND-3; not quoted by the spec). */
  productPage: {
    loadFailed: 'We could not load this product. Please try again.',
    categoryLabel: 'Catagory',
    /** REQ-PATH-1: the listing the shopper came from (or the product's catagory's). */
    back: 'Back to the products',
    /** The trail's name for screen readers: Home › Catagory › Product (REQ-PATH-1). */
    breadcrumb: 'Breadcrumb',
    related: (cat: string) => `More in ${cat}`,
  },
} as const;

/** Store constants (REQ-CONST-1 to REQ-CONST-6 in docs/requirements.md). */
export const constants = {
  bannerIntervalMs: 4000,
  bannerSlides: 3,
  toastSuccessMs: 2000,
  toastErrorMs: 4000,
  toastLimit: 20,
  minPasswordLength: 6,
  privacyAgeThreshold: 13,
} as const;
