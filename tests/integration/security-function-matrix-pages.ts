// The product page RPCs' rows of the function matrix (REQ-FIND-3, REQ-CDN-12): readers for all,
// through definer reads in schema listing that apply the products read policy's rule
// (docs/decisions/0202); public.product_page_whole adds the product's offers and the public
// store settings, which every role may read too.
import { expect } from 'vitest';
import { serviceClient } from '../support/stack.ts';
import type { FunctionSpec } from './security-function-matrix-mfa.ts';

const service = serviceClient();

async function seedSlug(): Promise<{ p_slug: string }> {
  const { data, error } = await service.from('products').select('slug').limit(1).single();
  if (error) throw new Error(error.message);
  return { p_slug: (data as { slug: string }).slug };
}

export const PAGE_FUNCTIONS: Record<string, FunctionSpec> = {
  'product_page(text)': {
    allowed: ['anon', 'user', 'admin', 'service_role'],
    args: seedSlug,
    expected: () => expect.objectContaining({ status: 'found', product: expect.any(Object) }),
  },
  'product_page_whole(text)': {
    allowed: ['anon', 'user', 'admin', 'service_role'],
    args: seedSlug,
    expected: () =>
      expect.objectContaining({
        status: 'found',
        product: expect.any(Object),
        offers: expect.arrayContaining([expect.objectContaining({ is_primary: true })]),
        history: expect.any(Array),
        settings: expect.objectContaining({ store_name: expect.any(String) }),
      }),
  },
};
