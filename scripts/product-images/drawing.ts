// The product images' drawing kit (scripts/make-product-images.ts): each category's card colours,
// the ink, what an image entry is, and the small shapes several products share.

export interface Palette {
  bg: string; // card background
  accent: string; // category accent (background blobs)
}

export const PALETTES: Record<string, Palette> = {
  Football: { bg: '#e6f4ea', accent: '#c3e6cb' },
  Running: { bg: '#fff1e6', accent: '#ffd8b8' },
  Tennis: { bg: '#f3f9dc', accent: '#e1f0a8' },
  Cricket: { bg: '#f7efe2', accent: '#ead8bb' },
  Cycling: { bg: '#e7f0fb', accent: '#c6dcf5' },
  Swimming: { bg: '#e2f6f8', accent: '#b6e8ee' },
  Fitness: { bg: '#f1ebfa', accent: '#dccdf3' },
  Golf: { bg: '#eaf6ef', accent: '#c9ead6' },
};

export const INK = '#1f2a37';

export interface Item {
  file: string;
  title: string;
  cat: keyof typeof PALETTES;
  draw: () => string;
}

export const shadow = (cx = 200, cy = 258, rx = 110) =>
  `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="12" fill="${INK}" opacity="0.12"/>`;

/** Star-like pentagon centred on (cx, cy). */
export function pentagon(cx: number, cy: number, r: number, rotateDeg = -90): string {
  const pts = Array.from({ length: 5 }, (_, i) => {
    const a = ((rotateDeg + i * 72) * Math.PI) / 180;
    return `${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`;
  });
  return `<polygon points="${pts.join(' ')}" fill="${INK}"/>`;
}

export function ball(cx: number, cy: number, r: number, fill: string, extra = ''): string {
  return (
    `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}"/>` +
    extra +
    // soft highlight and outline keep every ball readable on a pale card
    `<circle cx="${cx - r * 0.35}" cy="${cy - r * 0.4}" r="${r * 0.22}" fill="#fff" opacity="0.35"/>` +
    `<circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="${INK}" stroke-width="4"/>`
  );
}

export function tennisBall(cx: number, cy: number, r: number): string {
  const seam =
    `<path d="M${cx - r * 0.95},${cy - r * 0.3} C${cx - r * 0.3},${cy - r * 0.2} ${cx - r * 0.3},${cy + r * 0.6} ${cx - r * 0.6},${cy + r * 0.8}" fill="none" stroke="#fff" stroke-width="${r * 0.1}" stroke-linecap="round"/>` +
    `<path d="M${cx + r * 0.95},${cy + r * 0.3} C${cx + r * 0.3},${cy + r * 0.2} ${cx + r * 0.3},${cy - r * 0.6} ${cx + r * 0.6},${cy - r * 0.8}" fill="none" stroke="#fff" stroke-width="${r * 0.1}" stroke-linecap="round"/>`;
  return ball(cx, cy, r, '#c8e03c', seam);
}

export function golfBall(cx: number, cy: number, r: number): string {
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
export function glove(
  x: number,
  y: number,
  color: string,
  trim: string,
  fingerless = false,
): string {
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

export function helmet(color: string, vents: boolean): string {
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

export function shoe(color: string, sole: string, high: boolean): string {
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
