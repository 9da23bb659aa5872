// The endurance and fitness product images: Running, Cycling, Swimming and Fitness (file names
// and titles match supabase/seed.sql).
import { INK, shadow, glove, helmet, shoe, type Item } from './drawing.ts';

export const ENDURANCE_SPORTS: Item[] = [
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
];
