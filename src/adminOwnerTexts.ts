/**
 * The admin area's texts for the Messages inbox and the "Check all links" summary (REQ-PATH-15,
 * REQ-PATH-16): src/adminTexts.ts plus what only those lazily loaded chunks show. Same rule as
 * src/texts.ts (one place, no dead keys, no repeats); kept apart so that the admin chunk does not
 * carry them. Code in those chunks imports `texts` from here.
 */
import { texts as adminTexts } from './adminTexts.ts';

const count = (n: number) => n.toLocaleString('en-GB');
const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

export const texts = {
  ...adminTexts,
  /** REQ-PATH-16: the owner's inbox of contact messages. */
  inbox: {
    unread: (n: number) => `${count(n)} unread`,
    views: { inbox: 'Inbox', archived: 'Archived' },
    viewLabel: 'Which messages',
    search: 'Search messages',
    searchHint: 'Name, e-mail address or words of the message',
    noMatch: 'No messages match the search.',
    emptyArchive: 'No archived messages.',
    newBadge: 'New',
    markRead: 'Mark as read',
    markUnread: 'Mark as unread',
    archive: 'Archive',
    unarchive: 'Move to inbox',
    reply: 'Reply',
    replyHint: (email: string) => `Opens your mail program with a reply to ${email}`,
    replySubject: (about: string) => `Re: ${about}`,
    replyQuote: (when: string, name: string) => `On ${when}, ${name} wrote:`,
    changeFailed: 'The message could not be changed. Please try again.',
  },
  /** REQ-PATH-15: the "Check all links" summary, in counts, with why and what to do. */
  linkSummary: {
    checked: (products: number) => `Checked ${plural(products, 'product', 'products')}`,
    allFine: 'every link works',
    part: {
      broken: (n: number) => plural(n, 'broken link', 'broken links'),
      redirected: (n: number) => plural(n, 'redirected link', 'redirected links'),
      failing: (n: number) => `${plural(n, 'link', 'links')} failed once (checking again)`,
      blocked: (n: number) => `${plural(n, 'link', 'links')} blocked our checker`,
      unreachable: (n: number) => plural(n, 'unreachable link', 'unreachable links'),
      timed_out: (n: number) => plural(n, 'timed-out link', 'timed-out links'),
    },
    adviceLabel: 'What the results mean',
    /** Why, then what to do, for each kind the summary counted. */
    advice: {
      broken:
        'Broken: the page answered with an error twice in a row (such as 404 Not Found). Open the product, correct or replace its link, then press Re-check.',
      redirected:
        'Redirected: the link leads on to another address. Open the product and accept the redirect if the new page is right, or change the link to the new address.',
      failing:
        'Failed once: one check got an error. Nothing to do yet; the next check tells whether the link is broken.',
      blocked:
        "Blocked our checker: the shop's site turns away automatic visitors, so the link may well work for shoppers. Open it in your browser to be sure.",
      unreachable:
        'Unreachable: no answer came from the site (its name could not be found, it refused the connection, or the address is not allowed). Open the link in your browser; if the shop has moved or closed, change or remove the link.',
      timed_out:
        'Timed out: the site did not answer in time; it may be slow or down for a while. Check again later; if it stays so, open the link in your browser.',
    },
  },
} as const;
