/**
 * Draws the seed catalogue's product images: flat SVG illustrations made for this store, one per
 * product, written to public/products/<name>.svg (referenced by supabase/seed.sql as
 * /products/<name>.svg). Run `npx tsx scripts/make-product-images.ts`; output is deterministic, so
 * re-running it only changes files whose drawing changed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BALL_SPORTS } from './product-images/ball-sports.ts';
import { PALETTES, type Item, type Palette } from './product-images/drawing.ts';
import { ENDURANCE_SPORTS } from './product-images/endurance-sports.ts';

// In the palettes' category order (the order the images were always written and listed in).
const ITEMS: Item[] = Object.keys(PALETTES).flatMap((cat) =>
  [...BALL_SPORTS, ...ENDURANCE_SPORTS].filter((item) => item.cat === cat),
);

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function renderSvg(item: Item): string {
  const p = PALETTES[item.cat] as Palette;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300" width="400" height="300" role="img" aria-labelledby="title">`,
    `<title id="title">${escapeXml(item.title)}</title>`,
    `<rect width="400" height="300" fill="${p.bg}"/>`,
    `<circle cx="340" cy="50" r="90" fill="${p.accent}"/>`,
    `<circle cx="40" cy="280" r="70" fill="${p.accent}"/>`,
    item.draw(),
    `</svg>`,
    '',
  ].join('\n');
}

export const PRODUCT_IMAGES = ITEMS.map((i) => ({
  file: `${i.file}.svg`,
  title: i.title,
  cat: i.cat,
}));

function main(): void {
  const outDir = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'public', 'products');
  mkdirSync(outDir, { recursive: true });
  for (const item of ITEMS) writeFileSync(join(outDir, `${item.file}.svg`), renderSvg(item));
  console.log(`Wrote ${ITEMS.length} product images to ${outDir}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main();
}
