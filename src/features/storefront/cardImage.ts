// A catalogue card's picture, shared by ProductCard and the home page's early cards
// (earlyFirstPage.ts), which draw the same markup before the app has loaded. Free of React and
// Mantine: the early script is bundled from it.
import { safeUrl } from '../../lib/domain/format';
import { IMAGE_WIDTHS, uploadedImage } from '../../lib/domain/productImages';

/** Shown when a product has no usable image or the image fails to load. */
export const PLACEHOLDER_IMAGE = '/product-placeholder.svg';

/**
 * How wide a card's picture is drawn (ProductCard.module.css, ProductGrid's columns): two
 * columns on phones and tablets, then three and four. The browser picks the file from srcset.
 */
export const CARD_IMAGE_SIZES = '(min-width: 75em) 300px, (min-width: 62em) 33vw, 50vw';

export interface CardImage {
  src: string;
  /** Both widths of an uploaded picture; a pasted link has none. */
  srcSet?: string;
  sizes?: string;
  /** True when the placeholder is shown (then the alt text says so, not the title). */
  placeholder: boolean;
}

/** The card's picture for a product's image URL (`failed`: the picture did not load). */
export function cardImage(
  image: string | null | undefined,
  failed = false,
  supabaseUrl?: string,
): CardImage {
  const url = failed ? null : safeUrl(image);
  if (!url) return { src: PLACEHOLDER_IMAGE, placeholder: true };
  // An uploaded picture comes in two widths; a pasted link is used as it is.
  const upload = supabaseUrl === undefined ? uploadedImage(url) : uploadedImage(url, supabaseUrl);
  if (!upload) return { src: url, placeholder: false };
  return {
    src: upload.small,
    srcSet: `${upload.small} ${IMAGE_WIDTHS.small}w, ${upload.large} ${IMAGE_WIDTHS.large}w`,
    sizes: CARD_IMAGE_SIZES,
    placeholder: false,
  };
}
