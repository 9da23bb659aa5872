/**
 * Products per request. Hosted Supabase caps a request at 1000 rows, so the catalogue is read
 * page by page ("Load more"). Kept free of imports so the browser tests can share it.
 */
export const PAGE_SIZE = 24;

/** Card-shaped placeholders while the first page loads (ProductGrid's skeleton). */
export const SKELETON_CARDS = 8;
