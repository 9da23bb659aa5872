// Placeholder until `npm run db:types` generates the real types from the local database.
export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Database = any;
