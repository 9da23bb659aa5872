// The contact function imports zod the Deno way (`npm:zod@4.6.7`). Tests that load its schema
// map that specifier to the same zod version in node_modules (vi.mock) and type it the same way.
declare module 'npm:zod@4.6.7' {
  export * from 'zod';
}
