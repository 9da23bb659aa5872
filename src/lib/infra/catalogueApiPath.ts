/** The store's own cacheable catalogue reads (src/host/catalogueApi.ts, decision 0255). */
export const CATALOGUE_API = '/api/catalogue';
