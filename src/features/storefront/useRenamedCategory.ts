import { useEffect, useState } from 'react';
import { catalogueGet } from '../../lib/infra/catalogueRest';
import type { StoreCategory } from '../../lib/domain/tables';

/**
 * The name a category has today for a title from a link: itself, or the new name of a renamed
 * category (the database keeps old names: public.catagory_current_title). Null when no category
 * has or had that title.
 */
export async function currentCategoryTitle(
  title: string,
  signal?: AbortSignal,
): Promise<string | null> {
  // The function answers null for a name nobody has or had.
  return catalogueGet<string | null>('rpc/catagory_current_title', { p_title: title }, signal);
}

/**
 * A shared `/?cat=Hockey` from before Hockey became "Ice Hockey" (or `/?cat=hockey`): once the
 * category buttons have loaded and none is called that, asks the database for the current name
 * and calls `moveTo` with it. Answers true once the database says no category has or had that
 * name (the page says so, REQ-PATH-2); a failed lookup answers false, since the page still works.
 */
export function useRenamedCategory(
  category: string | null,
  categories: { status: string; categories: StoreCategory[] },
  moveTo: (title: string) => void,
): boolean {
  const known =
    category === null ||
    categories.status !== 'ready' ||
    categories.categories.some((c) => c.title === category);
  // The name the database said nobody has or had.
  const [missing, setMissing] = useState<string | null>(null);
  useEffect(() => {
    if (known || category === null) return;
    const ac = new AbortController();
    currentCategoryTitle(category, ac.signal).then(
      (current) => {
        if (ac.signal.aborted) return;
        if (current === null) setMissing(category);
        else if (current !== category) moveTo(current);
      },
      (error: unknown) => {
        if (!ac.signal.aborted) console.error('Looking up the category name failed', error);
      },
    );
    return () => ac.abort();
    // moveTo is a fresh function each render; the lookup depends on the name alone.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [known, category]);
  return !known && missing === category;
}
