/**
 * The rule: every user-visible text of the app and every aria-label lives here, and nowhere else
 * in src (no inline aria-label strings in components). The texts docs/requirements.md quotes are
 * word for word (spellings such as "Catagory", "Foound" and "SignUP" are requirements). UI and
 * tests import from here so a text is written exactly once. No dead keys (every key is read
 * somewhere in src) and no two keys with the same text, unless the repetition is listed on purpose
 * in tests/unit/texts-rule.test.ts, which enforces all of this.
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
    privacyEmail: 'privacy@mar-online-store.co.uk',
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
  admin: {
    heading: 'Admin',
    tabs: {
      products: 'Products',
      signup: 'SignUP',
      categories: 'Catagories',
      messages: 'Messages',
    },
    loading: 'Loading admin area',
    loadingProducts: 'Loading products',
    loadingCategories: 'Loading catagories',
    loadingMessages: 'Loading messages',
    /** The delete confirmation's way out (both editors). */
    cancel: 'Cancel',
    notAdmin: 'This account is not a store admin, so it cannot use the admin area.',
    statusFailed: 'Could not check admin access.',
    retry: 'Try again',
  },
  signup: {
    verificationSent: 'Verification Email Sent',
    success: 'SignUp Successful',
    emailTaken: 'Email already registered',
    // Labels and validation texts the spec does not quote (it leaves them to the browser).
    intro: 'Create another admin account. The new admin must confirm the e-mail before signing in.',
    name: 'Name',
    email: 'Email',
    password: 'Password',
    submit: 'SignUP',
    nameRequired: 'Name is Required',
    emailRequired: 'Email is Required',
    emailInvalid: 'Enter a valid Email',
    passwordTooShort: 'Password should be at least 6 characters',
  },
  productForm: {
    title: 'Title',
    category: 'Category',
    categoryPlaceholder: 'Choose a category',
    price: 'Price',
    comment: 'Comment',
    image: 'Image link',
    imagePreview: 'Image preview',
    link: 'Link',
    add: 'Add',
    get: 'Get Product',
    update: 'Update',
    delete: 'Delete',
    clear: 'Clear',
    editing: 'Editing',
    // Format rules the database also enforces; the spec gives no text for them.
    imageInvalid: 'Image link must be an http(s) address or a site path like /products/ball.svg',
    linkInvalid: 'Link must be an http(s) address',
    titleTooLong: 'Title must be at most 120 characters',
    priceTooLong: 'Price must be at most 40 characters',
    commentTooLong: 'Comment must be at most 2000 characters',
    confirmTitle: 'Delete product?',
    confirmText: 'This permanently deletes the product',
    listHeading: 'All products',
    search: 'Search by title',
    noMatch: 'No products match',
    created: 'Added',
  },
  categoryForm: {
    title: 'Title',
    add: 'Add',
    get: 'Get',
    update: 'Update',
    delete: 'Delete',
    clear: 'Clear',
    editing: 'Editing',
    titleTooLong: 'Title must be at most 80 characters',
    confirmTitle: 'Delete catagory?',
    confirmText: 'This permanently deletes the catagory',
    listHeading: 'All catagories',
    products: 'Products',
    none: 'No catagories yet',
    stillHasProducts: (n: number) =>
      `it still has ${n} ${n === 1 ? 'product' : 'products'}; move or delete ${n === 1 ? 'it' : 'them'} first`,
  },
  validation: {
    titleRequired: 'Title is Required',
    categoryRequired: 'Catagory is Required',
    priceRequired: 'Price is Required',
    commentRequired: 'Comment is Required',
    imageRequired: 'Image link is Required',
    linkRequired: 'Link is required',
    titleInUse: 'Title Already in Use',
    enterTitleAndGetProduct: 'Please Enter Title and Click on Get Product',
    clickGetProduct: 'Click on Get Product',
    clickGetCategory: 'Click on Get Catagory',
  },
  product: {
    added: 'Product Added',
    addFailed: 'Error in Adding New Product',
    loaded: 'Product Details Loaded',
    getFailed: 'Error Getting Product',
    notFound: 'Product Not Foound',
    updated: 'Product Updated Successfully',
    updateFailed: 'Error in Updating Product',
    changedSinceGet:
      'This product was changed by someone else after you clicked Get Product. Click Get Product to load the latest version, then update again.',
    deleted: 'Product Deleted Successfully',
    deleteFailed: 'Product not Deleted',
  },
  category: {
    added: 'Catagory Added',
    addFailed: 'Error in Adding New Catagory',
    found: 'Catagory Founded',
    getFailed: 'Error Getting Catagory',
    notFound: 'Catagory Not Foound',
    updated: 'Catagory Updated Successfully',
    updateFailed: 'Error in Updating Catagory',
    deleted: 'Catagory Deleted Successfully',
    deleteFailed: 'Catagory not Deleted',
  },
  /** CSV export and import on the Products tab (issue 14; the format: README). */
  catalogueCsv: {
    menu: 'CSV',
    menuLabel: 'CSV export and import',
    export: 'Export CSV',
    exported: (n: number) => `Exported ${n} ${n === 1 ? 'product' : 'products'}`,
    exportFailed: 'The export failed. Please try again.',
    import: 'Import CSV',
    dialogTitle: 'Import products from a CSV file',
    file: 'CSV file',
    filePlaceholder: 'Choose a .csv file',
    formatHint:
      'Columns: title, category, price, comment, image, link, with a header row; UTF-8; at most 20 MB and 50,000 rows.',
    checking: 'Checking the file…',
    refusals: {
      notCsv: 'This is not a CSV file.',
      tooBig: 'The file is over 20 MB.',
      tooManyRows: 'The file has over 50,000 rows.',
      missingColumns: (columns: string[]) => `Missing columns: ${columns.join(', ')}`,
      unknownColumns: (columns: string[]) => `Unknown or repeated columns: ${columns.join(', ')}`,
    },
    mode: 'Products whose title is already in use',
    modeAdd: 'Add new products only',
    modeUpsert: 'Add and update by title',
    createCategories: 'Create missing catagories',
    preview: (r: CsvCounts) =>
      `${r.added} to add, ${r.updated} to update, ${r.unchanged} unchanged, ${r.refused} refused`,
    report: (r: CsvCounts) =>
      `${r.added} added, ${r.updated} updated, ${r.unchanged} unchanged, ${r.refused} refused`,
    newCategories: (titles: string[]) => `New catagories: ${titles.join(', ')}`,
    refusedCaption: 'Refused rows (fix them in the file and import again)',
    row: 'Row',
    problems: 'Problems',
    moreRefused: (n: number) => `… and ${n} more`,
    apply: 'Apply import',
    applied: 'Import applied',
    checkFailed: 'Could not check the file against the catalogue. Please try again.',
    applyFailed: 'The import failed; nothing was changed. Please try again.',
    codes: {
      unknownCategory: 'Unknown catagory',
      categoryTooLong: 'Catagory must be at most 80 characters',
      duplicateInFile: 'Same title as an earlier row of this file',
    },
  },
  /** The admin's Messages tab (not quoted by the spec). */
  messages: {
    heading: 'Contact messages',
    refresh: 'Refresh',
    empty: 'No messages yet.',
    loadFailed: 'Could not load the messages.',
    received: 'Received',
    from: 'From',
    message: 'Message',
    status: 'Delivery',
    attempts: (n: number) => (n === 1 ? '1 attempt' : `${n} attempts`),
    limitNote: (n: number) => `Showing the newest ${n} messages.`,
    statusLabel: {
      pending: 'pending',
      sending: 'sending',
      sent: 'sent',
      failed: 'failed',
    },
  },
  unexpected: 'Something went Wrong',
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

/** Counts of a CSV import (catalogueCsv.preview and .report). */
interface CsvCounts {
  added: number;
  updated: number;
  unchanged: number;
  refused: number;
}
