/**
 * Narrow row shapes the storefront reads (see notes on the data interface). Kept here rather
 * than in the generated database types so the storefront only depends on the columns it shows.
 */
export interface Product {
  id: string;
  title: string;
  cat: string;
  image: string;
  price: string;
  com: string;
  link: string;
}

export interface Category {
  id: string;
  title: string;
}
