import { texts } from '../../../adminOfferTexts';
import { z } from '../../../lib/domain/zod';
import { isHttpUrl, isImageRef } from '../products/productSchema';

const t = texts.sellers;

// As sellers_affiliate_check: characters a query string carries without escaping.
const PARAM = /^[A-Za-z0-9_.~-]{1,40}$/;
const VALUE = /^[A-Za-z0-9_.~%-]{1,200}$/;

/** A site's origin ("https://www.sportsdirect.com/football" → "https://www.sportsdirect.com"). */
export function siteOrigin(site: string): string {
  try {
    return new URL(site.trim()).origin;
  } catch {
    return site.trim();
  }
}

/**
 * The seller form (REQ-OFF-1): the database's rules for public.sellers, checked first here so the
 * admin reads why before the write; the database's own refusal shows under the field too.
 */
export const sellerSchema = z
  .object({
    name: z.string().trim().min(1, t.nameInvalid).max(80, t.nameInvalid),
    site: z
      .string()
      .trim()
      .refine((v) => v.length <= 300 && isHttpUrl(v), { message: t.siteInvalid }),
    logo: z
      .string()
      .trim()
      .refine((v) => v === '' || (v.length <= 2048 && isImageRef(v)), { message: t.logoInvalid }),
    network: z.string().trim().max(80, t.networkInvalid),
    affiliate_param: z
      .string()
      .trim()
      .refine((v) => v === '' || PARAM.test(v), { message: t.paramInvalid }),
    affiliate_value: z
      .string()
      .trim()
      .refine((v) => v === '' || VALUE.test(v), { message: t.valueInvalid }),
  })
  .superRefine((v, ctx) => {
    if ((v.affiliate_param === '') !== (v.affiliate_value === '')) {
      const path = v.affiliate_param === '' ? 'affiliate_param' : 'affiliate_value';
      ctx.addIssue({ code: 'custom', path: [path], message: t.bothOrNeither });
    }
  });

export type SellerValues = z.infer<typeof sellerSchema>;
export type SellerField = keyof SellerValues;
export const SELLER_FIELDS = Object.keys(sellerSchema.shape) as SellerField[];

export const emptySeller: SellerValues = {
  name: '',
  site: '',
  logo: '',
  network: '',
  affiliate_param: '',
  affiliate_value: '',
};

/**
 * An example of this seller's tagged link: the site with ?param=value added, as the database adds
 * it to the seller's links (null while the site or the rule is incomplete).
 */
export function taggedExample(site: string, param: string, value: string): string | null {
  if (!isHttpUrl(site.trim()) || !PARAM.test(param.trim()) || !VALUE.test(value.trim())) {
    return null;
  }
  const url = new URL('/product', siteOrigin(site));
  url.searchParams.set(param.trim(), value.trim());
  return url.href;
}
