/** Id of the data block the server puts into a product page's HTML, read on first render. */
export const PRODUCT_DATA_ID = 'product-page-data';
