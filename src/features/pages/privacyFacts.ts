/**
 * What the store keeps about people, what it does not, for how long and on which lawful basis,
 * in ONE place: the Privacy Policy renders these facts, and tests tie each one to the code that
 * makes it true (docs/decisions/0214):
 * - the retention numbers equal the named retentions the database enforces
 *   (supabase/migrations/…2620_privacy_facts.sql; tests/integration/privacy-facts.test.ts);
 * - the fields kept equal the tables' columns (same test);
 * - the device storage is what a browser really holds after browsing, Buy Now and the colour
 *   scheme switch (e2e/privacy-facts.spec.ts).
 * Host logs are the one fact the code cannot enforce: they are the hosts' own, as stated.
 */

/** Retention periods, as the database enforces them. */
export const retention = {
  /** A contact message is deleted this many months after it was sent. */
  contactMessageMonths: 12,
  /** The sender's IP address is cleared from a contact message after this many days. */
  contactAddressDays: 7,
  /** A source's salted per-minute Buy Now counter (the 60-a-minute limit). */
  clickSourceCounterMinutes: 2,
  /** A source's salted (source, product) pair: one count per product in this time. */
  clickRepeatMinutes: 30,
  /** A page view's random id with the product it counted. */
  clickPageViewHours: 24,
} as const;

/** The columns of public.contact_messages, grouped by why they are there. */
export const contactMessageColumns = {
  /** What the sender typed, and when it arrived. */
  message: ['name', 'email', 'message', 'created_at'],
  /** Only for the form's limits; cleared after contactAddressDays. */
  address: ['ip'],
  /** Whether the store's copy by e-mail went out. */
  delivery: ['id', 'delivery_status', 'attempts', 'last_error', 'claimed_at', 'sent_at', 'digest'],
  /** The admins' inbox: whether the message was read or archived (REQ-PATH-16). */
  inbox: ['is_read', 'archived'],
} as const;

/** The columns of the Buy Now count tables: counts, never who clicked. */
export const clickCountColumns = {
  buy_now_clicks_by_product: ['day', 'product_id', 'clicks'],
  buy_now_clicks_by_page: ['day', 'category', 'page', 'clicks'],
} as const;

/** What the storefront stores on the visitor's device (localStorage; no cookies, no sessionStorage). */
export const deviceStorage = {
  /** Browsing, searching, product pages, Buy Now, the contact form: nothing at all. */
  visitor: [] as string[],
  /** Written only when the visitor presses the light/dark switch (Mantine's key). */
  colourScheme: 'mantine-color-scheme-value',
  /** An admin's sign-in session (supabase-js), removed on logout. */
  adminSession: /^sb-.+-auth-token$/,
} as const;

export interface PrivacyFact {
  id: string;
  title: string;
  kept: string;
  notKept: string;
  howLong: string;
  basis: string;
}

const months = (n: number) => `${n} months`;
const days = (n: number) => `${n} days`;
const minutes = (n: number) => `${n} minutes`;

/** The Privacy Policy's "what we keep" list, in the order it shows them. */
export function privacyFacts(storeName: string): PrivacyFact[] {
  return [
    {
      id: 'contact',
      title: 'Messages you send through Contact Us',
      kept: 'your name, your e-mail address, your message and when you sent it; the IP address the message came from; whether our copy of it by e-mail was delivered; whether we have read or archived it.',
      notKept:
        'no cookie, browser details or device identifier. When the form asks you to prove you are not a robot, Cloudflare Turnstile runs that check in a frame of its own; we keep only whether it passed, and only for that request.',
      howLong: `the message is deleted ${months(retention.contactMessageMonths)} after you sent it (sooner if you ask us to delete it); the IP address is removed after ${days(retention.contactAddressDays)}, as it only serves to stop the form being flooded.`,
      basis:
        'our legitimate interests (UK GDPR Article 6(1)(f)) in answering you and in protecting the form from abuse.',
    },
    {
      id: 'buy-now',
      title: 'Buy Now counts',
      kept: `how many times Buy Now was pressed per product and day, and per catagory, store page and day. ${storeName} uses them to see which products interest shoppers.`,
      notKept:
        'your IP address, browser, a cookie, a visitor or session id, the exact time, your search words or any advertising id. The counts cannot be tied to you.',
      howLong: `the counts are kept while the store runs. To refuse robots, repeats and floods, the database briefly keeps your address only as a hash mixed with a secret that changes every day: for ${minutes(retention.clickSourceCounterMinutes)} (clicks per minute) and for ${minutes(retention.clickRepeatMinutes)} together with the product (one count per product in that time); the page’s random id (held only in the page’s memory) with the product for ${retention.clickPageViewHours} hours. The day’s secret is deleted when the day ends.`,
      basis:
        'the counts are not personal data; the short-lived hashes rest on our legitimate interests in honest counts. Nothing is stored on or read from your device, so no consent is needed under PECR.',
    },
    {
      id: 'device',
      title: 'What is stored on your device',
      kept: 'nothing while you browse, search, open products, press Buy Now or send a message: no cookies, no local or session storage. If you press the light/dark switch, your choice is remembered in your browser’s local storage. Admins who sign in keep their sign-in session in local storage until they log out.',
      notKept: 'no advertising, analytics or tracking cookies, and no identifier for visitors.',
      howLong:
        'the colour choice until you clear your browser’s storage; an admin’s session until logout.',
      basis:
        'PECR regulation 6 as amended by the Data (Use and Access) Act 2025: storage that adapts the site’s appearance to your choice, and storage strictly necessary for the admin sign-in you ask for, need no consent.',
    },
    {
      id: 'logs',
      title: 'Server logs of our hosts',
      kept: 'our hosting providers (Supabase, and the host that serves the website) record each request: IP address, browser, page and time.',
      notKept: `${storeName} does not copy these logs into its own records.`,
      howLong:
        'for the short period the host’s terms set (on Supabase, 1 day on the Free plan, 7 days on Pro, 28 days on Team), longer only to investigate a security incident.',
      basis: 'our legitimate interests in a secure, working service.',
    },
  ];
}
