/**
 * The admin tabs' texts for link health, settings, storefront content and insights: part of
 * src/adminTexts.ts (which spreads them in; admin code imports `texts` from there), kept in a
 * file of its own so that neither file passes 500 lines.
 */
export const adminToolTexts = {
  linkHealth: {
    column: 'Link health',
    filter: 'Show link health',
    filterAll: 'Any link health',
    status: {
      ok: 'OK',
      redirected: 'Redirected',
      broken: 'Broken',
      // REQ-OFF-6: one failed check is not "broken" yet; a bot wall is not broken at all.
      failing: 'Failed once, checking again',
      blocked: 'Blocked our checker',
      unreachable: 'Unreachable',
      timed_out: 'Timed out',
      unchecked: 'Not checked',
    },
    /** Filter choices besides the statuses themselves. */
    filterAttention: 'Needs attention',
    filterUnreachable: 'Unreachable or timed out',
    checkAll: 'Check all links',
    checking: (n: number) =>
      `Checking… ${n.toLocaleString('en-GB')} ${n === 1 ? 'product' : 'products'} so far`,
    checkFailed: 'The links could not be checked. Try again later.',
    recheck: 'Re-check',
    rechecked: 'Links checked again',
    lastChecked: (when: string) => `Checked ${when}`,
    notChecked: 'Links not checked yet',
    httpCode: (code: number) => `HTTP ${code}`,
    hideBroken: 'Hide products with broken seller links from the storefront until fixed',
    hideBrokenHint: 'Shoppers do not see them; admins still do.',
    settingFailed: 'The setting could not be saved.',
    insightsHeading: 'Links that need a look',
    insightsEmpty: 'No broken, failing, blocked or redirected links found.',
    insightsFailed: 'Could not load the link checks.',
    goesTo: 'Goes to',
    /** Evidence and redirect acceptance (REQ-OFF-6, docs/decisions/0234). */
    offerLink: 'Offer link',
    chain: 'Status chain',
    hop: (code: number | null, host: string) => `${code ?? 'no answer'} ${host}`,
    finalHost: (host: string) => `Final host: ${host}`,
    botWall: (why: string) => `Evidence: ${why}`,
    redirectAccepted: 'Redirect accepted as expected',
    acceptRedirect: 'Accept redirect',
    acceptRedirectHint:
      'Shows this link as OK while it redirects there; forgotten when the link changes.',
    acceptHostPair: (from: string, to: string) => `Accept every redirect from ${from} to ${to}`,
    acceptFailed: 'The redirect could not be accepted. Try again.',
  },
  /** The Settings tab: the store's own details (public.store_settings, docs/decisions/0211). */
  settings: {
    tab: 'Settings',
    intro:
      "The store's details as shoppers see them. A change shows on the next page a shopper opens, with no new build.",
    loading: 'Loading the settings',
    loadFailed: 'Could not load the settings.',
    storeHeading: 'Store',
    storeName: 'Store name',
    contactEmail: 'Contact e-mail',
    siteUrl: 'Site address',
    siteUrlHint: 'The public address, e.g. https://www.example.co.uk (empty: where the page runs)',
    socialHint: 'Any of them; empty ones are not shown. Full addresses starting with https://',
    instagram: 'Instagram page',
    facebook: 'Facebook page',
    x: 'X page',
    tiktok: 'TikTok page',
    youtube: 'YouTube page',
    disclosure: 'Disclosure text (shown beside Buy Now)',
    traderHeading: 'Who runs the shop',
    traderHint:
      "The law (E-Commerce Regulations 2002) asks for the trader's name, geographic address and e-mail, and the company and VAT numbers where they exist.",
    traderName: "Trader's name",
    traderAddress: 'Geographic address',
    companyNumber: 'Company number',
    vatNumber: 'VAT number',
    save: 'Save settings',
    saved: 'Settings saved',
    failed: 'The settings could not be saved. Please try again.',
    changedElsewhere:
      'Another admin changed the settings meanwhile. Their values are shown now: check them and save again.',
    // The database's rules (migration …2600), checked first here for a clear message.
    nameInvalid: "The store's name must be 1 to 80 characters",
    emailInvalid: 'The contact e-mail must be an e-mail address such as shop@example.co.uk',
    urlInvalid: 'Enter a web address starting with https:// or http://',
    disclosureInvalid: 'The disclosure text must be 1 to 300 characters',
    traderNameTooLong: "The trader's name must be at most 120 characters",
    traderAddressTooLong: "The trader's address must be at most 300 characters",
    companyNumberInvalid:
      'The company number must be the 8 characters Companies House gives (for example 01234567 or SC123456)',
    vatNumberInvalid: 'The VAT number must be a UK VAT number such as GB123456789',
  },
  /** The Storefront tab: the banner's slides and the About text (docs/decisions/0212). */
  storefrontContent: {
    tab: 'Storefront',
    intro:
      'The home banner and the About page as shoppers see them. A change shows on the next page a shopper opens.',
    loading: 'Loading the storefront content',
    loadFailed: 'Could not load the storefront content.',
    slideHeading: (n: number) => `Banner slide ${n}`,
    picture: 'Picture',
    pictureAlt: (n: number) => `Slide ${n} picture`,
    uploadLabel: (n: number) => `Upload a picture for slide ${n}`,
    uploaded: 'Picture uploaded: save to use it',
    alt: 'Picture description (for screen readers)',
    heading: 'Headline',
    text: 'Text',
    link: 'Link (optional)',
    linkHint:
      'A page of this store, e.g. /about or /?cat=Football, or a web address (https://…); empty: no link',
    aboutHeading: 'About page',
    about: 'About text',
    aboutHint:
      'Plain text. A blank line starts a new paragraph, "- " a list item, "## " a subheading. "Privacy Policy" and "Contact Us" link to those pages.',
    save: 'Save storefront',
    saved: 'Storefront saved',
    failed: 'The storefront could not be saved. Please try again.',
    changedElsewhere:
      'Another admin changed the storefront meanwhile. Their version is shown now: check it and save again.',
    // The database's rules (migration …2610), checked first here with the same words.
    imageInvalid: (n: number) =>
      `Slide ${n}'s picture must be uploaded here (or one of the store's own pictures)`,
    altInvalid: (n: number) =>
      `Slide ${n}'s picture description must be 1 to 150 characters on one line`,
    headingInvalid: (n: number) => `Slide ${n}'s headline must be 1 to 60 characters on one line`,
    textInvalid: (n: number) => `Slide ${n}'s text must be 1 to 140 characters on one line`,
    linkInvalid: (n: number) =>
      `Slide ${n}'s link must be a page of this store starting with / (for example /about or /?cat=Football) or a web address starting with https:// or http://, with no spaces`,
    aboutInvalid: 'The About text must be 1 to 6000 characters',
  },
  insights: {
    /** The tab's label and the heading of its panel. */
    tab: 'Insights',
    intro:
      'Buy Now clicks on the store, counted without cookies or personal data. Bots are not counted, and a product clicked again from the same connection within 30 minutes (after a reload too) counts once.',
    /** Decision 0200: what the counting cannot stop. */
    bestEffort:
      'Counts are best effort: someone with many connections or addresses can still add clicks, so read them as a trend rather than an exact figure.',
    period: 'Period',
    periods: { 7: 'Last 7 days', 30: 'Last 30 days', 90: 'Last 90 days' },
    loading: 'Loading insights',
    loadFailed: 'Could not load the insights.',
    totalClicks: (n: number, shown: string) =>
      `${shown} Buy Now ${n === 1 ? 'click' : 'clicks'} in this period`,
    chartTitle: 'Clicks per day',
    chartLabel: (days: number, total: string) =>
      `Chart of Buy Now clicks per day over the last ${days} days, ${total} in all`,
    topProducts: 'Top products',
    topCategories: 'Top catagories',
    product: 'Product',
    category: 'Catagory',
    clicks: 'Clicks',
    noClicks: 'No clicks in this period.',
    withoutClicks: 'Products with no clicks',
    withoutClicksCount: (n: string) => `${n} products had no clicks in this period.`,
    allClicked: 'Every product was clicked in this period.',
    andMore: (n: string) => `and ${n} more`,
    exportFailed: 'Could not export the clicks.',
    csvHeader: ['product', 'catagory', 'clicks'],
    csvFileName: (days: number, date: string) => `buy-now-clicks-${days}-days-${date}.csv`,
  },
} as const;
