/**
 * The rule: every user-visible text of the app and every aria-label lives here, and nowhere else
 * in src (no inline aria-label strings in components). The texts docs/requirements.md quotes are
 * word for word (spellings such as "Catagory", "Foound" and "SignUP" are requirements). UI and
 * tests import from here so a text is written exactly once. No dead keys (every key is read
 * somewhere in src) and no two keys with the same text, unless the repetition is listed on purpose
 * in tests/unit/texts-rule.test.ts, which enforces all of this. Texts only the admin area shows
 * live in src/adminTexts.ts, which extends this object, so that the storefront's first load does
 * not carry them (the home page's JS budget).
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
        },
        {
          image: '/banners/banner-2.svg',
          alt: 'Tennis racket and ball on a grass court',
          heading: 'Game, set and match',
          text: 'Rackets, balls and court shoes for every level of play.',
        },
        {
          image: '/banners/banner-3.svg',
          alt: 'Running shoes on a track',
          heading: 'Run further',
          text: 'Running shoes, fitness trackers and gym essentials.',
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
    pagination: 'Product pages',
    page: (n: number) => `Page ${n}`,
    previousPage: 'Previous page',
    nextPage: 'Next page',
    firstPage: 'First page',
    lastPage: 'Last page',
    colorScheme: { toDark: 'Switch to dark colours', toLight: 'Switch to light colours' },
    mainNav: 'Main',
    footerNav: 'Footer',
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
  contact: {
    heading: 'Contact Us',
    fillAll: 'Please fill all fields!',
    sent: 'Email Sent Successfully',
    failed: 'Something went wrong! Try again.',
    // Not quoted by the spec.
    intro:
      'Thank you for visiting MAR Online Store! Have a question about our sports goods? ' +
      'Send us a message and we will reply by e-mail as soon as we can.',
    name: 'Name',
    email: 'Email',
    message: 'Message',
    send: 'Send',
    invalidEmail: 'Please enter a valid email address',
    tooLong: 'This field is too long',
    /** Label of the hidden honeypot field (read only by bots and screen readers never reach it). */
    honeypot: 'Website',
    /** Shown when the human check (docs/decisions/0203) is not passed; not quoted by the spec. */
    humanCheck: 'Please complete the check that you are not a robot, then send your message again.',
  },
  login: {
    heading: 'Admin Login',
    verifyFirst: 'Verify your Email first',
    success: 'Login Successful',
    failed: 'Something went wrong',
    // Not quoted by the spec (it only says such a note exists); worded for this store.
    note: 'Login is only for the store admin.',
    email: 'Email',
    password: 'Password',
    submit: 'Login',
    emailRequired: 'Email is Required',
    emailInvalid: 'Enter a valid Email',
    passwordRequired: 'Password is Required',
    signedInAs: 'You are signed in as',
    goToAdmin: 'Go to Admin',
    linkFailed: 'This email link is invalid or has expired.',
  },
  logout: {
    success: 'Logout Successfully',
  },
  /** The reset pages' texts the first load needs; the new-password form's: src/adminTexts.ts. */
  passwordReset: {
    forgotLink: 'Forgot password?',
    requestHeading: 'Reset your password',
    requestIntro:
      'Enter the e-mail address of your admin account. We will send you a link to set a new password.',
    send: 'Send reset link',
    // One answer whether or not the address has an account (nothing to learn from it).
    sent: 'If an account exists for this address, an e-mail with a reset link is on its way. The link works once.',
    sendFailed: 'The reset link could not be sent. Please try again in a moment.',
    backToLogin: 'Back to Admin Login',
    setHeading: 'Set a new password',
    mismatch: 'The passwords do not match',
    metaRequest: 'Ask for a link to set a new password for a MAR Online Store UK admin account.',
    metaSet: 'Set a new password for a MAR Online Store UK admin account.',
  },
  /** The admin area's heading (the route's title) and the login page's refusal; the rest: src/adminTexts.ts. */
  admin: {
    heading: 'Admin',
    notAdmin: 'This account is not a store admin, so it cannot use the admin area.',
  },
  /** Shared with the password reset page; SignUP's other texts: src/adminTexts.ts. */
  signup: {
    passwordTooShort: 'Password should be at least 6 characters',
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
    backToShop: 'Back to all products',
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
