// The ball sports' product images: Football, Tennis, Cricket and Golf (file names and titles
// match supabase/seed.sql).
import {
  INK,
  shadow,
  pentagon,
  ball,
  tennisBall,
  golfBall,
  glove,
  helmet,
  shoe,
  type Item,
} from './drawing.ts';

export const BALL_SPORTS: Item[] = [
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
