/**
 * Draws the seed catalogue's product images: flat SVG illustrations made for this store, one per
 * product, written to public/products/<name>.svg (referenced by supabase/seed.sql as
 * /products/<name>.svg). Run `npx tsx scripts/make-product-images.ts`; output is deterministic, so
 * re-running it only changes files whose drawing changed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Palette {
  bg: string; // card background
  accent: string; // category accent (background blobs)
}

const PALETTES: Record<string, Palette> = {
  Football: { bg: '#e6f4ea', accent: '#c3e6cb' },
  Running: { bg: '#fff1e6', accent: '#ffd8b8' },
  Tennis: { bg: '#f3f9dc', accent: '#e1f0a8' },
  Cricket: { bg: '#f7efe2', accent: '#ead8bb' },
  Cycling: { bg: '#e7f0fb', accent: '#c6dcf5' },
  Swimming: { bg: '#e2f6f8', accent: '#b6e8ee' },
  Fitness: { bg: '#f1ebfa', accent: '#dccdf3' },
  Golf: { bg: '#eaf6ef', accent: '#c9ead6' },
};

const INK = '#1f2a37';

interface Item {
  file: string;
  title: string;
  cat: keyof typeof PALETTES;
  draw: () => string;
}

// ---------------------------------------------------------------------------------------------
// Small drawing helpers
// ---------------------------------------------------------------------------------------------

const shadow = (cx = 200, cy = 258, rx = 110) =>
  `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="12" fill="${INK}" opacity="0.12"/>`;

/** Star-like pentagon centred on (cx, cy). */
function pentagon(cx: number, cy: number, r: number, rotateDeg = -90): string {
  const pts = Array.from({ length: 5 }, (_, i) => {
    const a = ((rotateDeg + i * 72) * Math.PI) / 180;
    return `${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`;
  });
  return `<polygon points="${pts.join(' ')}" fill="${INK}"/>`;
}

function ball(cx: number, cy: number, r: number, fill: string, extra = ''): string {
  return (
    `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}"/>` +
    extra +
    // soft highlight and outline keep every ball readable on a pale card
    `<circle cx="${cx - r * 0.35}" cy="${cy - r * 0.4}" r="${r * 0.22}" fill="#fff" opacity="0.35"/>` +
    `<circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="${INK}" stroke-width="4"/>`
  );
}

function tennisBall(cx: number, cy: number, r: number): string {
  const seam =
    `<path d="M${cx - r * 0.95},${cy - r * 0.3} C${cx - r * 0.3},${cy - r * 0.2} ${cx - r * 0.3},${cy + r * 0.6} ${cx - r * 0.6},${cy + r * 0.8}" fill="none" stroke="#fff" stroke-width="${r * 0.1}" stroke-linecap="round"/>` +
    `<path d="M${cx + r * 0.95},${cy + r * 0.3} C${cx + r * 0.3},${cy + r * 0.2} ${cx + r * 0.3},${cy - r * 0.6} ${cx + r * 0.6},${cy - r * 0.8}" fill="none" stroke="#fff" stroke-width="${r * 0.1}" stroke-linecap="round"/>`;
  return ball(cx, cy, r, '#c8e03c', seam);
}

function golfBall(cx: number, cy: number, r: number): string {
  const dimples: string[] = [];
  for (let y = -2; y <= 2; y++) {
    for (let x = -2; x <= 2; x++) {
      const dx = x * r * 0.36 + (y % 2 ? r * 0.18 : 0);
      const dy = y * r * 0.34;
      if (dx * dx + dy * dy < r * r * 0.7) {
        dimples.push(
          `<circle cx="${(cx + dx).toFixed(1)}" cy="${(cy + dy).toFixed(1)}" r="${(r * 0.07).toFixed(1)}" fill="#cfd6de"/>`,
        );
      }
    }
  }
  return ball(cx, cy, r, '#ffffff', dimples.join(''));
}

/** A glove: palm, four fingers and a thumb; `fingerless` cuts the fingers short. */
function glove(x: number, y: number, color: string, trim: string, fingerless = false): string {
  const fingerH = fingerless ? 28 : 70;
  const fingers = [0, 1, 2, 3]
    .map((i) => {
      const fx = x + 6 + i * 27;
      const fy = y - fingerH + (i === 0 || i === 3 ? 14 : 0);
      return `<rect x="${fx}" y="${fy}" width="24" height="${fingerH + 20}" rx="12" fill="${color}" stroke="${INK}" stroke-width="4"/>`;
    })
    .join('');
  return (
    fingers +
    `<path d="M${x},${y} h114 v70 q0,34 -34,34 h-46 q-34,0 -34,-34 z" fill="${color}" stroke="${INK}" stroke-width="4"/>` +
    `<rect x="${x - 36}" y="${y + 12}" width="46" height="26" rx="13" transform="rotate(-35 ${x - 13} ${y + 25})" fill="${color}" stroke="${INK}" stroke-width="4"/>` +
    `<rect x="${x + 10}" y="${y + 96}" width="94" height="30" rx="8" fill="${trim}" stroke="${INK}" stroke-width="4"/>`
  );
}

function helmet(color: string, vents: boolean): string {
  const ventPaths = vents
    ? [0, 1, 2, 3]
        .map(
          (i) =>
            `<path d="M${150 + i * 30},${118 + Math.abs(1.5 - i) * 10} q15,-22 30,0" fill="none" stroke="${INK}" stroke-width="6" stroke-linecap="round"/>`,
        )
        .join('')
    : '';
  return (
    `<path d="M108,200 q0,-120 98,-124 q90,4 96,108 l-20,16 z" fill="${color}" stroke="${INK}" stroke-width="5" stroke-linejoin="round"/>` +
    `<path d="M108,200 h174" stroke="${INK}" stroke-width="10" stroke-linecap="round"/>` +
    ventPaths
  );
}

function shoe(color: string, sole: string, high: boolean): string {
  const top = high ? 104 : 128;
  return (
    `<path d="M92,${top} q4,-14 22,-14 q28,0 42,22 q34,26 94,30 q52,4 62,40 v18 h-220 z" fill="${color}" stroke="${INK}" stroke-width="5" stroke-linejoin="round"/>` +
    `<rect x="88" y="206" width="230" height="20" rx="10" fill="${sole}" stroke="${INK}" stroke-width="5"/>` +
    [0, 1, 2]
      .map(
        (i) =>
          `<path d="M${150 + i * 16},${148 + i * 6} l22,-14" stroke="#fff" stroke-width="6" stroke-linecap="round"/>`,
      )
      .join('')
  );
}

// ---------------------------------------------------------------------------------------------
// The catalogue (file names and titles match supabase/seed.sql)
// ---------------------------------------------------------------------------------------------

const ITEMS: Item[] = [
  // Football
  {
    file: 'match-football',
    title: 'Match Football Size 5',
    cat: 'Football',
    draw: () =>
      shadow(200, 258, 80) +
      ball(
        200,
        150,
        92,
        '#ffffff',
        pentagon(200, 150, 30) +
          pentagon(200, 78, 20, 90) +
          pentagon(268, 128, 20, 162) +
          pentagon(242, 212, 20, 234) +
          pentagon(158, 212, 20, 306) +
          pentagon(132, 128, 20, 18) +
          [0, 1, 2, 3, 4]
            .map((i) => {
              const a = ((-90 + i * 72) * Math.PI) / 180;
              return `<line x1="${200 + 30 * Math.cos(a)}" y1="${150 + 30 * Math.sin(a)}" x2="${200 + 58 * Math.cos(a)}" y2="${150 + 58 * Math.sin(a)}" stroke="${INK}" stroke-width="3"/>`;
            })
            .join(''),
      ),
  },
  {
    file: 'football-boots',
    title: 'Firm Ground Football Boots',
    cat: 'Football',
    draw: () =>
      shadow() +
      shoe('#e63946', INK, true) +
      [0, 1, 2, 3, 4]
        .map(
          (i) => `<rect x="${104 + i * 46}" y="224" width="14" height="16" rx="3" fill="${INK}"/>`,
        )
        .join(''),
  },
  {
    file: 'goalkeeper-gloves',
    title: 'Goalkeeper Gloves',
    cat: 'Football',
    draw: () => shadow(200, 262, 90) + glove(143, 110, '#2ec4b6', '#ff9f1c'),
  },
  {
    file: 'shin-guards',
    title: 'Shin Guards',
    cat: 'Football',
    draw: () =>
      shadow() +
      [130, 230]
        .map(
          (x) =>
            `<path d="M${x},70 h60 q18,0 18,20 v110 q0,44 -48,50 q-48,-6 -48,-50 v-110 q0,-20 18,-20 z" fill="#3a86ff" stroke="${INK}" stroke-width="5"/>` +
            `<path d="M${x + 30},92 v130" stroke="#fff" stroke-width="8" stroke-linecap="round" opacity="0.8"/>` +
            `<rect x="${x - 10}" y="108" width="88" height="16" rx="6" fill="${INK}"/>`,
        )
        .join(''),
  },
  // Running
  {
    file: 'running-shoes',
    title: 'Road Running Shoes',
    cat: 'Running',
    draw: () =>
      shadow() +
      shoe('#ff7b00', '#fff', false) +
      `<path d="M180,196 q50,-4 96,-34" fill="none" stroke="#fff" stroke-width="8" stroke-linecap="round"/>`,
  },
  {
    file: 'running-jacket',
    title: 'Lightweight Running Jacket',
    cat: 'Running',
    draw: () =>
      shadow(200, 262, 100) +
      `<path d="M150,60 q50,24 100,0 l56,24 l34,104 l-38,14 l-22,-62 v110 h-160 v-110 l-22,62 l-38,-14 l34,-104 z" fill="#5e60ce" stroke="${INK}" stroke-width="5" stroke-linejoin="round"/>` +
      `<path d="M200,72 v178" stroke="${INK}" stroke-width="4"/>` +
      `<path d="M150,60 q50,40 100,0" fill="#4ea8de" stroke="${INK}" stroke-width="5"/>` +
      `<path d="M110,176 l30,-8 M290,176 l-30,-8" stroke="#f4f4f4" stroke-width="8" stroke-linecap="round"/>`,
  },
  {
    file: 'water-bottle',
    title: 'Insulated Water Bottle 750ml',
    cat: 'Running',
    draw: () =>
      shadow(200, 260, 60) +
      `<rect x="160" y="88" width="80" height="168" rx="24" fill="#00b4d8" stroke="${INK}" stroke-width="5"/>` +
      `<rect x="174" y="52" width="52" height="40" rx="8" fill="${INK}"/>` +
      `<path d="M186,52 q14,-22 28,0" fill="none" stroke="${INK}" stroke-width="6"/>` +
      `<rect x="160" y="150" width="80" height="30" fill="#fff" opacity="0.85"/>` +
      `<rect x="172" y="104" width="10" height="38" rx="5" fill="#fff" opacity="0.5"/>`,
  },
  {
    file: 'sports-watch',
    title: 'GPS Sports Watch',
    cat: 'Running',
    draw: () =>
      shadow(200, 262, 70) +
      `<rect x="170" y="34" width="60" height="232" rx="20" fill="#ef476f" stroke="${INK}" stroke-width="5"/>` +
      `<circle cx="200" cy="150" r="66" fill="${INK}"/>` +
      `<circle cx="200" cy="150" r="54" fill="#073b4c"/>` +
      `<path d="M200,150 v-34 M200,150 l24,14" stroke="#fff" stroke-width="6" stroke-linecap="round"/>` +
      `<path d="M158,176 q42,20 84,0" fill="none" stroke="#06d6a0" stroke-width="6" stroke-linecap="round"/>` +
      `<rect x="264" y="138" width="12" height="24" rx="4" fill="${INK}"/>`,
  },
  // Tennis
  {
    file: 'tennis-racket',
    title: 'Graphite Tennis Racket',
    cat: 'Tennis',
    draw: () => {
      const strings: string[] = [];
      for (let i = -3; i <= 3; i++) {
        strings.push(
          `<line x1="${200 + i * 14}" y1="40" x2="${200 + i * 14}" y2="180" stroke="#fff" stroke-width="2"/>`,
        );
        strings.push(
          `<line x1="140" y1="${110 + i * 14}" x2="260" y2="${110 + i * 14}" stroke="#fff" stroke-width="2"/>`,
        );
      }
      return (
        shadow(200, 266, 70) +
        `<g transform="rotate(-25 200 150)">` +
        `<defs><clipPath id="head"><ellipse cx="200" cy="110" rx="56" ry="70"/></clipPath></defs>` +
        `<ellipse cx="200" cy="110" rx="56" ry="70" fill="#8ecae6"/>` +
        `<g clip-path="url(#head)">${strings.join('')}</g>` +
        `<ellipse cx="200" cy="110" rx="56" ry="70" fill="none" stroke="#023047" stroke-width="12"/>` +
        `<path d="M186,176 l8,40 h12 l8,-40" fill="#023047"/>` +
        `<rect x="190" y="212" width="20" height="70" rx="8" fill="#fb8500" stroke="${INK}" stroke-width="4"/>` +
        `</g>`
      );
    },
  },
  {
    file: 'tennis-balls',
    title: 'Tennis Balls (Tube of 4)',
    cat: 'Tennis',
    draw: () =>
      shadow(200, 258, 130) +
      `<rect x="70" y="60" width="92" height="196" rx="18" fill="#ffffff" opacity="0.7" stroke="${INK}" stroke-width="5"/>` +
      `<rect x="66" y="48" width="100" height="22" rx="8" fill="#e63946" stroke="${INK}" stroke-width="4"/>` +
      tennisBall(116, 112, 38) +
      tennisBall(116, 200, 38) +
      tennisBall(236, 212, 40) +
      tennisBall(300, 150, 40),
  },
  {
    file: 'tennis-cap',
    title: 'Tennis Cap',
    cat: 'Tennis',
    draw: () =>
      shadow(200, 240, 120) +
      `<path d="M90,190 q10,-120 120,-120 q100,0 110,120 z" fill="#ffffff" stroke="${INK}" stroke-width="5"/>` +
      `<path d="M210,70 q-20,60 -10,120" fill="none" stroke="${INK}" stroke-width="3"/>` +
      `<circle cx="210" cy="70" r="8" fill="#80b918"/>` +
      `<path d="M200,190 h130 q40,6 20,28 q-60,12 -150,0 z" fill="#80b918" stroke="${INK}" stroke-width="5" stroke-linejoin="round"/>` +
      `<rect x="90" y="178" width="120" height="14" fill="#80b918"/>`,
  },
  {
    file: 'tennis-bag',
    title: 'Tennis Kit Bag',
    cat: 'Tennis',
    draw: () =>
      shadow(200, 256, 150) +
      `<path d="M110,110 q0,-40 40,-40 h100 q40,0 40,40" fill="none" stroke="${INK}" stroke-width="10"/>` +
      `<rect x="56" y="104" width="288" height="144" rx="56" fill="#2a9d8f" stroke="${INK}" stroke-width="5"/>` +
      `<path d="M70,150 h260" stroke="#e9c46a" stroke-width="10"/>` +
      `<rect x="120" y="170" width="160" height="56" rx="20" fill="#264653" stroke="${INK}" stroke-width="4"/>` +
      tennisBall(200, 198, 20),
  },
  // Cricket
  {
    file: 'cricket-bat',
    title: 'English Willow Cricket Bat',
    cat: 'Cricket',
    draw: () =>
      shadow(200, 264, 120) +
      `<g transform="rotate(-40 200 150)">` +
      `<rect x="188" y="10" width="24" height="90" rx="10" fill="#bc4749" stroke="${INK}" stroke-width="4"/>` +
      [0, 1, 2, 3, 4, 5]
        .map(
          (i) =>
            `<line x1="188" y1="${20 + i * 13}" x2="212" y2="${26 + i * 13}" stroke="${INK}" stroke-width="2"/>`,
        )
        .join('') +
      `<path d="M176,96 h48 v170 q0,16 -24,18 q-24,-2 -24,-18 z" fill="#f2d8a7" stroke="${INK}" stroke-width="5"/>` +
      `<path d="M200,110 v160" stroke="#d4a373" stroke-width="6"/>` +
      `<rect x="180" y="150" width="40" height="20" fill="#386641"/>` +
      `</g>`,
  },
  {
    file: 'cricket-ball',
    title: 'Leather Cricket Ball',
    cat: 'Cricket',
    draw: () =>
      shadow(200, 258, 80) +
      ball(
        200,
        150,
        90,
        '#b5179e',
        `<circle cx="200" cy="150" r="90" fill="#c1121f"/>` +
          `<path d="M150,75 q50,75 0,150 M250,75 q-50,75 0,150" fill="none" stroke="#fdf0d5" stroke-width="5"/>` +
          Array.from({ length: 9 }, (_, i) => {
            const t = i / 8;
            const y = 82 + t * 136;
            const x = 150 + 50 * 2 * t * (1 - t) * 2 * 0.5;
            return `<path d="M${(x - 8).toFixed(1)},${y.toFixed(1)} h10 M${(400 - x - 2).toFixed(1)},${y.toFixed(1)} h10" stroke="#fdf0d5" stroke-width="3"/>`;
          }).join(''),
      ),
  },
  {
    file: 'batting-helmet',
    title: 'Batting Helmet',
    cat: 'Cricket',
    draw: () =>
      shadow(200, 256, 110) +
      helmet('#1d3557', false) +
      `<path d="M108,200 q60,-20 174,-8" fill="none" stroke="#1d3557" stroke-width="14"/>` +
      `<rect x="130" y="204" width="150" height="44" rx="12" fill="none" stroke="#adb5bd" stroke-width="6"/>` +
      [0, 1, 2, 3]
        .map(
          (i) =>
            `<line x1="${160 + i * 30}" y1="204" x2="${160 + i * 30}" y2="248" stroke="#adb5bd" stroke-width="6"/>`,
        )
        .join('') +
      `<path d="M178,86 q40,-6 74,20" fill="none" stroke="#fff" stroke-width="6" opacity="0.4" stroke-linecap="round"/>`,
  },
  {
    file: 'batting-pads',
    title: 'Batting Pads',
    cat: 'Cricket',
    draw: () =>
      shadow() +
      [120, 220]
        .map(
          (x) =>
            `<rect x="${x}" y="40" width="72" height="210" rx="30" fill="#ffffff" stroke="${INK}" stroke-width="5"/>` +
            [0, 1, 2]
              .map(
                (i) =>
                  `<line x1="${x + 18 + i * 18}" y1="62" x2="${x + 18 + i * 18}" y2="228" stroke="#ced4da" stroke-width="6"/>`,
              )
              .join('') +
            [0, 1]
              .map(
                (i) =>
                  `<rect x="${x - 8}" y="${90 + i * 90}" width="88" height="14" rx="5" fill="#457b9d"/>`,
              )
              .join(''),
        )
        .join(''),
  },
  // Cycling
  {
    file: 'cycling-helmet',
    title: 'Road Bike Helmet',
    cat: 'Cycling',
    draw: () =>
      shadow(200, 256, 110) +
      helmet('#f94144', true) +
      `<path d="M130,200 q20,40 40,40 M270,196 q-10,40 -40,44" fill="none" stroke="${INK}" stroke-width="5"/>`,
  },
  {
    file: 'bike-lights',
    title: 'Rechargeable Bike Light Set',
    cat: 'Cycling',
    draw: () =>
      shadow(200, 256, 130) +
      `<path d="M150,110 l110,-50 v120 z" fill="#ffe066" opacity="0.6"/>` +
      `<rect x="80" y="90" width="80" height="60" rx="18" fill="${INK}"/>` +
      `<circle cx="148" cy="120" r="22" fill="#ffe066" stroke="#fff" stroke-width="4"/>` +
      `<rect x="230" y="180" width="90" height="44" rx="16" fill="${INK}"/>` +
      `<rect x="242" y="190" width="66" height="24" rx="10" fill="#ef233c"/>` +
      `<path d="M230,202 l-70,-20 v44 z" fill="#ef233c" opacity="0.4"/>`,
  },
  {
    file: 'road-bike',
    title: 'Aluminium Road Bike',
    cat: 'Cycling',
    draw: () =>
      shadow(200, 262, 150) +
      [110, 290]
        .map(
          (cx) =>
            `<circle cx="${cx}" cy="196" r="58" fill="none" stroke="${INK}" stroke-width="10"/>` +
            `<circle cx="${cx}" cy="196" r="46" fill="none" stroke="#adb5bd" stroke-width="2"/>` +
            `<circle cx="${cx}" cy="196" r="6" fill="${INK}"/>`,
        )
        .join('') +
      `<path d="M110,196 l62,-86 h100 l18,86 M172,110 l30,86 l70,-86 M202,196 h-92" fill="none" stroke="#0077b6" stroke-width="10" stroke-linejoin="round" stroke-linecap="round"/>` +
      `<path d="M272,110 l-6,-30 h26 q12,0 8,14" fill="none" stroke="${INK}" stroke-width="7" stroke-linecap="round"/>` +
      `<path d="M172,110 l-6,-22 M150,86 h36" stroke="${INK}" stroke-width="8" stroke-linecap="round"/>` +
      `<circle cx="202" cy="196" r="14" fill="none" stroke="${INK}" stroke-width="5"/>`,
  },
  {
    file: 'cycling-gloves',
    title: 'Padded Cycling Gloves',
    cat: 'Cycling',
    draw: () => shadow(200, 262, 90) + glove(143, 120, '#4361ee', INK, true),
  },
  // Swimming
  {
    file: 'swim-goggles',
    title: 'Anti-Fog Swimming Goggles',
    cat: 'Swimming',
    draw: () =>
      shadow(200, 236, 140) +
      `<path d="M40,150 q160,-70 320,0" fill="none" stroke="${INK}" stroke-width="10"/>` +
      [140, 260]
        .map(
          (cx) =>
            `<ellipse cx="${cx}" cy="158" rx="54" ry="40" fill="#48cae4" stroke="${INK}" stroke-width="6"/>` +
            `<path d="M${cx - 30},142 q14,-14 34,-10" fill="none" stroke="#fff" stroke-width="7" stroke-linecap="round"/>`,
        )
        .join('') +
      `<path d="M194,156 q6,-10 12,0" fill="none" stroke="${INK}" stroke-width="8"/>`,
  },
  {
    file: 'swim-cap',
    title: 'Silicone Swim Cap',
    cat: 'Swimming',
    draw: () =>
      shadow(200, 236, 120) +
      `<path d="M84,214 q-6,-160 116,-160 q122,0 116,160 q-116,22 -232,0 z" fill="#ff006e" stroke="${INK}" stroke-width="5"/>` +
      `<path d="M120,110 q80,-50 160,0" fill="none" stroke="#fff" stroke-width="8" opacity="0.5" stroke-linecap="round"/>` +
      `<path d="M170,160 q30,-26 60,0 q-30,26 -60,0 z" fill="#fff" opacity="0.85"/>`,
  },
  {
    file: 'kickboard',
    title: 'Swimming Kickboard',
    cat: 'Swimming',
    draw: () =>
      shadow(200, 262, 90) +
      `<path d="M120,120 q0,-70 80,-70 q80,0 80,70 v110 q0,24 -24,24 h-112 q-24,0 -24,-24 z" fill="#ffbe0b" stroke="${INK}" stroke-width="5"/>` +
      `<path d="M120,170 h160" stroke="#3a86ff" stroke-width="22"/>` +
      `<rect x="166" y="92" width="68" height="22" rx="11" fill="#fff" opacity="0.8"/>`,
  },
  {
    file: 'swim-towel',
    title: 'Microfibre Swim Towel',
    cat: 'Swimming',
    draw: () =>
      shadow(200, 256, 140) +
      [0, 1, 2]
        .map((i) => {
          const y = 196 - i * 50;
          const color = ['#0096c7', '#90e0ef', '#ffb703'][i];
          return (
            `<rect x="${70 + i * 10}" y="${y}" width="${260 - i * 20}" height="52" rx="14" fill="${color}" stroke="${INK}" stroke-width="5"/>` +
            `<path d="M${100 + i * 10},${y + 26} h${200 - i * 20}" stroke="#fff" stroke-width="6" stroke-dasharray="16 10" opacity="0.7"/>`
          );
        })
        .join(''),
  },
  // Fitness
  {
    file: 'dumbbells',
    title: 'Adjustable Dumbbell Pair',
    cat: 'Fitness',
    draw: () =>
      shadow(200, 258, 150) +
      [110, 190]
        .map(
          (y) =>
            `<rect x="110" y="${y - 6}" width="180" height="12" rx="6" fill="#adb5bd" stroke="${INK}" stroke-width="3"/>` +
            [80, 104, 272, 296]
              .map(
                (x, i) =>
                  `<rect x="${x - 12}" y="${y - (i === 0 || i === 3 ? 30 : 40)}" width="24" height="${i === 0 || i === 3 ? 60 : 80}" rx="6" fill="#7209b7" stroke="${INK}" stroke-width="4"/>`,
              )
              .join(''),
        )
        .join(''),
  },
  {
    file: 'yoga-mat',
    title: 'Yoga Mat 6mm',
    cat: 'Fitness',
    draw: () =>
      shadow(200, 250, 160) +
      `<path d="M120,240 l220,-30 l-40,-40 l-200,30 z" fill="#9d4edd" stroke="${INK}" stroke-width="5" stroke-linejoin="round"/>` +
      `<circle cx="110" cy="180" r="62" fill="#c77dff" stroke="${INK}" stroke-width="5"/>` +
      `<path d="M110,180 m-42,0 a42,42 0 1 1 84,0 a34,34 0 1 1 -68,0 a26,26 0 1 1 52,0 a16,16 0 1 1 -32,0" fill="none" stroke="${INK}" stroke-width="4"/>`,
  },
  {
    file: 'kettlebell',
    title: 'Cast Iron Kettlebell 16kg',
    cat: 'Fitness',
    draw: () =>
      shadow(200, 258, 90) +
      `<path d="M150,130 v-36 q0,-40 50,-40 q50,0 50,40 v36" fill="none" stroke="${INK}" stroke-width="22" stroke-linecap="round"/>` +
      `<path d="M200,110 q92,0 92,80 q0,48 -30,66 h-124 q-30,-18 -30,-66 q0,-80 92,-80 z" fill="#343a40" stroke="${INK}" stroke-width="5"/>` +
      `<rect x="170" y="170" width="60" height="40" rx="8" fill="#ffd166"/>` +
      `<text x="200" y="198" font-family="Arial, Helvetica, sans-serif" font-size="22" font-weight="700" text-anchor="middle" fill="${INK}">16</text>`,
  },
  {
    file: 'skipping-rope',
    title: 'Speed Skipping Rope',
    cat: 'Fitness',
    draw: () =>
      shadow(200, 256, 120) +
      `<path d="M120,110 q-30,150 80,140 q120,-10 80,-140" fill="none" stroke="#ef476f" stroke-width="6"/>` +
      [
        [120, 110, -15],
        [280, 110, 15],
      ]
        .map(
          ([x, y, r]) =>
            `<rect x="${(x ?? 0) - 14}" y="${(y ?? 0) - 80}" width="28" height="84" rx="14" transform="rotate(${r} ${x} ${y})" fill="#118ab2" stroke="${INK}" stroke-width="4"/>`,
        )
        .join(''),
  },
  // Golf
  {
    file: 'golf-balls',
    title: 'Golf Balls (Dozen)',
    cat: 'Golf',
    draw: () =>
      shadow(200, 258, 140) +
      `<rect x="70" y="170" width="260" height="80" rx="10" fill="#2d6a4f" stroke="${INK}" stroke-width="5"/>` +
      golfBall(140, 150, 44) +
      golfBall(260, 150, 44) +
      golfBall(200, 110, 46),
  },
  {
    file: 'golf-driver',
    title: 'Titanium Golf Driver',
    cat: 'Golf',
    draw: () =>
      shadow(210, 262, 100) +
      `<line x1="280" y1="30" x2="190" y2="214" stroke="#adb5bd" stroke-width="10" stroke-linecap="round"/>` +
      `<line x1="280" y1="30" x2="258" y2="76" stroke="${INK}" stroke-width="16" stroke-linecap="round"/>` +
      `<path d="M196,200 q-80,-6 -96,30 q0,26 80,22 q40,-4 30,-44 z" fill="#343a40" stroke="${INK}" stroke-width="5"/>` +
      `<path d="M116,230 q40,-18 84,-14" fill="none" stroke="#95d5b2" stroke-width="5"/>` +
      golfBall(300, 236, 18),
  },
  {
    file: 'golf-glove',
    title: 'Leather Golf Glove',
    cat: 'Golf',
    draw: () => shadow(200, 262, 90) + glove(143, 110, '#ffffff', '#2d6a4f'),
  },
  {
    file: 'golf-umbrella',
    title: 'Golf Umbrella',
    cat: 'Golf',
    draw: () =>
      shadow(200, 262, 120) +
      `<path d="M60,150 q140,-150 280,0 z" fill="#d00000"/>` +
      [0, 1, 2, 3]
        .map(
          (i) =>
            `<path d="M${60 + i * 70},150 q35,-30 70,0" fill="#ffffff" stroke="${INK}" stroke-width="4"/>`,
        )
        .join('') +
      `<path d="M60,150 q140,-150 280,0" fill="none" stroke="${INK}" stroke-width="5"/>` +
      `<path d="M130,150 q70,-150 70,-120 M270,150 q-70,-150 -70,-120" fill="none" stroke="#ffffff" stroke-width="4" opacity="0.7"/>` +
      `<line x1="200" y1="30" x2="200" y2="236" stroke="${INK}" stroke-width="7"/>` +
      `<path d="M200,236 q0,22 -20,22 q-16,0 -16,-16" fill="none" stroke="${INK}" stroke-width="9" stroke-linecap="round"/>`,
  },
];

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
