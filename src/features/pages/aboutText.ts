// The About page's text (docs/decisions/0212): plain text the owner writes on the Storefront tab,
// stored in public.storefront_content.about_text and rendered as text, never as HTML. The format:
// blank lines part blocks; a block of lines that each start with "- " is a list; a one-line block
// starting with "## " is a subheading; any other block is a paragraph (its line breaks kept).

/** Today's About text: the database's default (migration …2610) and the pre-rendered page. */
export const DEFAULT_ABOUT_TEXT = `MAR Online Store UK is a small, independent sports-goods storefront for shoppers across the United Kingdom. We bring together kit for the sports people actually play on weekday evenings and Sunday mornings: football, cricket, tennis, running, cycling, swimming, gym training and more.

We do not run a warehouse. Instead we search out good products from trusted UK sellers, check the details and list each one with an honest comment about what it is good for. When you find something you like, the Buy Now button takes you straight to the seller's own page, where you buy it with the seller's prices, delivery and returns.

## What we care about

- Clear prices in pounds sterling and plain descriptions, with no pushy extras.
- Kit for every level, from a first pair of running shoes to match-day gear.
- Sellers with fair delivery and returns, so buying outside our site stays simple.
- Your privacy: we collect as little as we can (see our Privacy Policy).

Have a question, a product we should list, or a seller you would recommend? We would love to hear from you on our Contact Us page.`;

export type AboutBlock =
  | { kind: 'paragraph'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'list'; items: string[] };

/** The text's blocks, in order; empty blocks are dropped. */
export function aboutBlocks(raw: string): AboutBlock[] {
  return raw
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((block) => block.trim())
    .filter((block) => block !== '')
    .map((block): AboutBlock => {
      const lines = block.split('\n').map((line) => line.trim());
      if (lines.every((line) => line.startsWith('- '))) {
        return { kind: 'list', items: lines.map((line) => line.slice(2).trim()) };
      }
      const [first = ''] = lines;
      if (lines.length === 1 && first.startsWith('## ')) {
        return { kind: 'heading', text: first.slice(3).trim() };
      }
      return { kind: 'paragraph', text: lines.join('\n') };
    });
}

/**
 * A line cut where it names one of the store's pages: those names become links to the page
 * (the only links the text can make, and only to fixed pages of this store).
 */
export function splitPageNames(
  line: string,
  names: readonly string[],
): { text: string; page?: string }[] {
  const wanted = names.filter((name) => name !== '');
  if (wanted.length === 0) return [{ text: line }];
  const escaped = wanted.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const parts = line.split(new RegExp(`(${escaped.join('|')})`));
  return parts
    .filter((part) => part !== '')
    .map((part) => (wanted.includes(part) ? { text: part, page: part } : { text: part }));
}
