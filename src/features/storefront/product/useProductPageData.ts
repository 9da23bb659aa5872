import { useCallback, useEffect, useState } from 'react';
import { catalogueDb } from '../../../lib/infra/catalogueDb';
import type { ProductPageAnswer } from '../../../lib/domain/productSeo';
import { PRODUCT_DATA_ID } from '../../../lib/domain/productPageData';

export type ProductPageState =
  { kind: 'loading' } | { kind: 'error' } | ({ kind: 'answer' } & ProductPageAnswer);

/** Whether the server's data block has been used (only the first page of a visit has one). */
let htmlAnswerUsed = false;

/**
 * The answer the server already put into the HTML for this slug: the first render then shows
 * the product at once, without a second request. Later visits (client-side navigation) ask the
 * database, so they never show stale data. Read-only (StrictMode may call it twice).
 */
function answerFromHtml(slug: string): ProductPageAnswer | null {
  const block = htmlAnswerUsed ? null : document.getElementById(PRODUCT_DATA_ID);
  if (!block) return null;
  try {
    const answer = JSON.parse(block.textContent ?? '') as ProductPageAnswer;
    return answer.status === 'found' && answer.product.slug === slug ? answer : null;
  } catch {
    return null;
  }
}

/** One product page's data by slug: found, moved (renamed) or missing, or a failed request. */
export function useProductPageData(slug: string): { state: ProductPageState; retry: () => void } {
  const [state, setState] = useState<ProductPageState & { forSlug?: string }>(() => {
    const answer = answerFromHtml(slug);
    return answer ? { kind: 'answer', ...answer, forSlug: slug } : { kind: 'loading' };
  });
  const [attempt, setAttempt] = useState(0);
  const loaded = state.kind === 'answer' && state.forSlug === slug;

  useEffect(() => {
    htmlAnswerUsed = true;
    document.getElementById(PRODUCT_DATA_ID)?.remove();
  }, []);

  useEffect(() => {
    if (loaded) return;
    const controller = new AbortController();
    setState({ kind: 'loading' });
    catalogueDb()
      .then((db) =>
        db.rpc('product_page', { p_slug: slug }, { get: true }).abortSignal(controller.signal),
      )
      .then(
        ({ data, error }) => {
          if (controller.signal.aborted) return;
          if (error || !data) setState({ kind: 'error' });
          else
            setState({ kind: 'answer', ...(data as unknown as ProductPageAnswer), forSlug: slug });
        },
        // The query builder's code could not be fetched (offline): the page's error state.
        () => {
          if (!controller.signal.aborted) setState({ kind: 'error' });
        },
      );
    return () => controller.abort();
    // `loaded` is left out on purpose: a loaded slug must not load again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [slug, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  // Another slug's answer (the render right after a navigation) is not shown for this one.
  return { state: state.kind === 'answer' && !loaded ? { kind: 'loading' } : state, retry };
}
