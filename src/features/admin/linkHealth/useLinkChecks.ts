import { useEffect, useState } from 'react';
import { fetchLinkChecks, type LinkCheck } from './linkHealthApi';

/**
 * The last link checks of the products on screen, by product id; read again when `version`
 * changes (after a check). A failed read leaves the badges at "Not checked"; the table still works.
 */
export function useLinkChecks(productIds: string[], version: number): Map<string, LinkCheck[]> {
  const [byProduct, setByProduct] = useState(new Map<string, LinkCheck[]>());
  const key = productIds.join(',');
  useEffect(() => {
    const controller = new AbortController();
    fetchLinkChecks(key ? key.split(',') : [], controller.signal)
      .then((checks) => {
        const map = new Map<string, LinkCheck[]>();
        for (const c of checks) map.set(c.product_id, [...(map.get(c.product_id) ?? []), c]);
        setByProduct(map);
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.error('Loading link checks failed', error);
      });
    return () => controller.abort();
  }, [key, version]);
  return byProduct;
}
