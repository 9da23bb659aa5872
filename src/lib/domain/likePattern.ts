/** Escapes LIKE wildcards so a title lookup with ILIKE matches the title literally. */
export function likeLiteral(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
