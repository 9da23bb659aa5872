/**
 * The search path's help (REQ-PATH-2): src/texts.ts plus what only a search, an empty listing or
 * the header's opened search field shows, in its own chunk like src/pageTexts.ts, so the first
 * load of the home page and the product page does not carry them (bench/budget.json). Same rule
 * as src/texts.ts (tests/unit/texts-rule.test.ts checks every texts module).
 */
import { texts as storeTexts } from './texts';

export const texts = {
  ...storeTexts,
  storeSearch: {
    ...storeTexts.storeSearch,
    /** What a search looked for and where (REQ-PATH-2), above its results. */
    resultsFor: (q: string, cat: string | null) =>
      cat ? `Results for “${q}” in ${cat}` : `Results for “${q}”`,
    searchAll: 'Search all categories',
    /** Next to "No Products" (REQ-PATH-2): what was searched and how to widen it. */
    nothingFor: (q: string, cat: string | null) =>
      cat ? `Nothing matches “${q}” in ${cat}.` : `Nothing matches “${q}”.`,
    widen: 'Check the spelling, try fewer or other words, or search all categories.',
    widenAll: 'Check the spelling or try fewer or other words.',
    emptyCategory: (cat: string) => `There are no products in ${cat} yet.`,
    clear: 'Clear the search',
    showAll: 'Show all products',
    /** A `?cat=` no category has or had (REQ-PATH-2). */
    unknownCategory: (cat: string) => `The category “${cat}” does not exist.`,
    /** The header's search field's button. */
    submit: 'Search',
  },
};
