import { texts } from '../../../adminTexts';

// The edit rules of the Products and Catagories tabs (REQ-PROD-5, REQ-CAT-4): what Update and Delete need
// first, and when a title must be checked for uniqueness. Pure functions, no data access.

/** A record loaded by Get: its id and the title it had, so an unchanged title is not "in use". */
export interface Loaded {
  id: string;
  originalTitle: string;
  /** Products: the updated_at Get loaded, so Update cannot overwrite a newer version. */
  updatedAt?: string;
}

/**
 * REQ-PROD-5: Update and Delete of a product need a title and a prior successful Get Product.
 * Returns the message to show, or null when the action may go on.
 */
export function productEditBlocker(title: string, loaded: Loaded | null): string | null {
  if (!title.trim()) return texts.validation.enterTitleAndGetProduct;
  if (!loaded) return texts.validation.clickGetProduct;
  return null;
}

/** REQ-CAT-4: Update and Delete of a catagory need a title and a prior Get. */
export function categoryEditBlocker(title: string, loaded: Loaded | null): string | null {
  if (!title.trim() || !loaded) return texts.validation.clickGetCategory;
  return null;
}

/**
 * Whether a new title has to be checked for uniqueness. Titles are unique ignoring case, so a
 * change of case only is still the same record's own title and needs no check.
 */
export function titleNeedsCheck(newTitle: string, loaded: Loaded | null): boolean {
  return !loaded || newTitle.trim().toLowerCase() !== loaded.originalTitle.trim().toLowerCase();
}
