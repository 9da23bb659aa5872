// The rule at the top of src/texts.ts, enforced: every key is used somewhere in src, no two keys
// hold the same text unless listed below on purpose, and no aria-label is written inline.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { texts as adminTexts } from '../../src/adminFeedTexts';
import { texts as csvTexts } from '../../src/adminCsvTexts';
import { texts as offerTexts } from '../../src/offerTexts';
import { texts as pageTexts } from '../../src/pageTexts';
import { texts as searchTexts } from '../../src/searchTexts';
import { texts as twoFactorTexts } from '../../src/adminTwoFactorTexts';
import { texts as ownerTexts } from '../../src/adminOwnerTexts';

/** Two texts objects as one, sections merged key by key (each module extends src/texts.ts). */
function merged(a: object, b: object): object {
  const out: Record<string, unknown> = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key];
    const plain = (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v);
    out[key] = plain(mine) && plain(value) ? merged(mine as object, value as object) : value;
  }
  return out;
}

/**
 * Every texts module: src/texts.ts and the lazily loaded parts' own (admin area with its sellers,
 * offers and feeds, the CSV import's preview, the storefront's offers, pages, the search's help,
 * two-factor sign-in, the inbox and link summary).
 */
const texts = [offerTexts, pageTexts, searchTexts, twoFactorTexts, ownerTexts, csvTexts].reduce(
  merged,
  adminTexts,
);

const srcDir = path.resolve(import.meta.dirname, '../../src');
const TEXTS_FILE = path.join(srcDir, 'texts.ts');

/**
 * Keys that deliberately hold the same text as another key: the same words in two places that
 * may change separately (a tab and its form's button, a nav link and the page heading, two forms
 * with the same field labels).
 */
const SAME_TEXT_ON_PURPOSE = new Set<string>([
  // The Admins tab and the heading of its list of admins.
  'texts.team.adminsHeading',
  // The Activity tab names each kind of entry the way the Admins tab names the outcome.
  'texts.activity.kind.admin_removed',
  'texts.activity.kind.invite_withdrawn',
  // Insights heads its table's product column as the Activity tab names its product filter.
  'texts.insights.product',
  // Insights heads its category column as the shopper's product page labels the category.
  'texts.insights.category',
  // The admin table's category filter offers "all" as the Catagories list is headed.
  'texts.productTable.allCategories',
  // The Products and Catagories forms: the same buttons and title label, one set per form.
  'texts.categoryForm.title',
  'texts.categoryForm.add',
  'texts.categoryForm.update',
  'texts.categoryForm.delete',
  'texts.categoryForm.clear',
  'texts.categoryForm.editing',
  // Login, SignUP and Contact Us: forms with the same field labels and messages.
  'texts.signup.name',
  'texts.signup.email',
  'texts.signup.password',
  'texts.signup.emailRequired',
  'texts.signup.emailInvalid',
  'texts.contact.email',
  // A navigation link and the heading or button of the page it leads to.
  'texts.login.submit',
  'texts.admin.heading',
  'texts.contact.heading',
  'texts.pages.policyHeading',
  // An admin tab and what it holds.
  'texts.categoryForm.products',
  'texts.signup.submit',
  'texts.messages.message',
  // "Try again": on the storefront and in the admin area.
  'texts.admin.retry',
  // The Sellers tab and the offers panel: the same buttons as the product form, a seller's name
  // labelled as the contact form's, and the Offers column as the panel's heading (REQ-OFF-1).
  'texts.sellers.delete',
  // A product row's Edit (REQ-PATH-10), worded as the Sellers tab's.
  'texts.productTable.edit',
  'texts.offerPanel.delete',
  'texts.offerPanel.edit',
  'texts.sellers.name',
  'texts.sellers.offers',
  // The offers panel names availability and the price history as the shopper's product page does.
  'texts.offerPanel.availabilityLabel.in_stock',
  'texts.offerPanel.availabilityLabel.out_of_stock',
  'texts.offerPanel.availabilityLabel.preorder',
  'texts.offerPanel.availabilityLabel.backorder',
  'texts.offerPanel.history',
  // The Feeds tab's column mapping names a feed's fields as the product form and the offers panel
  // name them, its CSV format as the CSV menu, and its held changes' product column as the
  // Activity tab's filter (REQ-FEED-1, REQ-FEED-5).
  'texts.feedForm.field.title',
  'texts.feedForm.field.link',
  'texts.feedForm.field.price',
  'texts.feedForm.field.availability',
  'texts.feeds.formatLabel.csv',
  'texts.feedHeld.product',
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && full !== TEXTS_FILE ? [full] : [];
  });
}

/** Every key path of a texts object that holds a text (string, function or list), e.g. texts.a.b. */
function leafPaths(value: unknown, prefix = 'texts'): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) {
      for (const [p, v] of leafPaths(child, `${prefix}.${key}`)) out.set(p, v);
    }
  } else {
    out.set(prefix, value);
  }
  return out;
}

/**
 * The `texts.…` paths a source file reads, with local aliases (`const f = texts.productForm`)
 * resolved. A path read as a whole (passed on, spread, mapped over) counts for all keys below it.
 */
function pathsRead(source: string, fileName: string): Set<string> {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const aliases = new Map<string, string>([['texts', 'texts']]);
  const chain = (node: ts.Expression): string | null => {
    if (ts.isIdentifier(node)) return aliases.get(node.text) ?? null;
    if (ts.isPropertyAccessExpression(node)) {
      const base = chain(node.expression);
      return base && `${base}.${node.name.text}`;
    }
    if (ts.isNonNullExpression(node) || ts.isParenthesizedExpression(node))
      return chain(node.expression);
    return null;
  };
  const read = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const target = chain(node.initializer);
      if (target) aliases.set(node.name.text, target);
    }
    if (ts.isPropertyAccessExpression(node) || ts.isIdentifier(node)) {
      const parent = node.parent;
      // Only the outermost chain: texts.a.b is read, not texts.a.
      const inner = ts.isPropertyAccessExpression(parent) && parent.expression === node;
      const declared = ts.isVariableDeclaration(parent) && parent.name === node;
      const p = chain(node);
      if (p && !inner && !declared && p !== 'texts') read.add(p);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return read;
}

const files = sourceFiles(srcDir).map((file) => ({
  name: path.relative(srcDir, file),
  source: readFileSync(file, 'utf8'),
}));

describe('src/texts.ts rule', () => {
  it('has no key that nothing in src reads', () => {
    const read = new Set(files.flatMap((f) => [...pathsRead(f.source, f.name)]));
    const used = (key: string) => [...read].some((p) => key === p || key.startsWith(`${p}.`));
    const unused = [...leafPaths(texts).keys()].filter((key) => !used(key));
    expect(unused).toEqual([]);
  });

  it('has no two keys with the same text, except those listed on purpose', () => {
    const byText = new Map<string, string[]>();
    for (const [key, value] of leafPaths(texts)) {
      if (typeof value !== 'string' || SAME_TEXT_ON_PURPOSE.has(key)) continue;
      byText.set(value, [...(byText.get(value) ?? []), key]);
    }
    const repeated = [...byText].filter(([, keys]) => keys.length > 1);
    expect(Object.fromEntries(repeated)).toEqual({});
  });

  it('lists no key on purpose that is not actually repeated', () => {
    const all = leafPaths(texts);
    const values = [...all.values()];
    const stale = [...SAME_TEXT_ON_PURPOSE].filter(
      (key) => !all.has(key) || values.filter((v) => v === all.get(key)).length < 2,
    );
    expect(stale).toEqual([]);
  });

  it('has no aria-label written as a literal in src', () => {
    // A quoted string, or a template that starts with words rather than a texts value.
    const inline =
      /aria-label=(["']|\{\s*["']|\{\s*`(?!\$\{))|['"]aria-label['"]\s*:\s*(["']|`(?!\$\{))/;
    const offenders = files.filter((f) => inline.test(f.source)).map((f) => f.name);
    expect(offenders).toEqual([]);
  });
});
