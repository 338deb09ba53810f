// The client's icon set: simple geometric drawings made here as inline SVG (no images, fonts or CDN).
//
//   icon(name, { label, count, size })  -> <span class="icon icon-NAME" role="img" aria-label=… title=… data-icon=NAME><svg aria-hidden="true">…</svg></span>
//   iconLabel(name, count)              -> the default accessible name ("stone", "2 wood", "5 coins", "3 shields")
//   ICONS                               -> every icon name
//   colorName(color) / colorShape(color) -> "brown"… / the matching color_* icon (colour shown as a shape too)
//
// Every drawing sits on a 24×24 grid (wider for repeated shields) and sizes from CSS (static/css/icons.css),
// so an icon follows the font size of the text around it. Colours are never the only cue: each resource,
// card colour and ship track has its own shape. Numbers drawn inside an icon are dark on light fills or
// white on dark fills (contrast 4.5:1 or more). Unknown names draw the "question" icon and never throw.

const NS = 'http://www.w3.org/2000/svg';
const INK = '#2b2a27';
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';

// ---- small drawing helpers: a drawing is a list of [tag, attrs, ...children] -------------------------

const P = (d, fill, stroke, sw = 1.5, extra = {}) =>
  ['path', { d, fill: fill ?? 'none', stroke: stroke ?? 'none', 'stroke-width': stroke ? sw : null, 'stroke-linejoin': 'round', 'stroke-linecap': 'round', ...extra }];
const C = (cx, cy, r, fill, stroke, sw = 1.5, extra = {}) =>
  ['circle', { cx, cy, r, fill: fill ?? 'none', stroke: stroke ?? 'none', 'stroke-width': stroke ? sw : null, ...extra }];
const R = (x, y, width, height, rx, fill, stroke, sw = 1.5, extra = {}) =>
  ['rect', { x, y, width, height, rx, fill: fill ?? 'none', stroke: stroke ?? 'none', 'stroke-width': stroke ? sw : null, 'stroke-linejoin': 'round', ...extra }];
const L = (x1, y1, x2, y2, stroke, sw = 2) =>
  ['line', { x1, y1, x2, y2, stroke, 'stroke-width': sw, 'stroke-linecap': 'round' }];
const G = (attrs, ...children) => ['g', attrs, ...children];
const T = (x, y, text, size, fill, extra = {}) =>
  ['text', { x, y, 'font-size': size, fill, 'font-family': FONT, 'font-weight': 800, 'text-anchor': 'middle',
    'dominant-baseline': 'central', ...extra }, shown(text)];
// numbers as drawn: a true minus sign for negative amounts
const shown = (n) => (typeof n === 'number' && n < 0 ? `\u2212${-n}` : String(n));

const f1 = (n) => Math.round(n * 100) / 100;
const rad = (deg) => (deg * Math.PI) / 180;

// a number's font size so that it fits a given width on the 24 grid
function numSize(text, big, width) {
  const s = shown(text);
  const chars = [...s].length;
  return Math.min(big, f1(width / (chars * 0.6)));
}

// a cog: n teeth between radii r1 (root) and r2 (tip), centred on (cx, cy), with a hole of radius hole
function gearPath(cx, cy, r1, r2, n, hole) {
  const pts = [];
  const step = 360 / n;
  for (let i = 0; i < n; i++) {
    const a = i * step - 90;
    const seq = [[a - step * 0.5, r1], [a - step * 0.22, r1], [a - step * 0.14, r2], [a + step * 0.14, r2], [a + step * 0.22, r1]];
    for (const [deg, r] of seq) pts.push(`${f1(cx + r * Math.cos(rad(deg)))} ${f1(cy + r * Math.sin(rad(deg)))}`);
  }
  let d = `M${pts.join(' L')} Z`;
  if (hole) d += ` M${cx + hole} ${cy} A${hole} ${hole} 0 1 0 ${cx - hole} ${cy} A${hole} ${hole} 0 1 0 ${cx + hole} ${cy} Z`;
  return d;
}

// a regular polygon / star path
function polyPath(cx, cy, r, n, rot = -90, inner = null) {
  const pts = [];
  const k = inner ? n * 2 : n;
  for (let i = 0; i < k; i++) {
    const rr = inner && i % 2 ? inner : r;
    const a = rad(rot + (i * 360) / k);
    pts.push(`${f1(cx + rr * Math.cos(a))} ${f1(cy + rr * Math.sin(a))}`);
  }
  return `M${pts.join(' L')} Z`;
}

// a laurel wreath: leaves along a circle of radius r around (cx, cy), open at the top
function laurel(cx, cy, r, { leaves = 5, from = 28, to = 160, leaf = 2.5, fill = '#3f8f2f', stroke = '#1d4a16', sw = 0.7 } = {}) {
  const out = [];
  for (const s of [-1, 1]) {
    // the stem
    const a0 = rad(from - 12), a1 = rad(to);
    const x0 = cx + s * r * Math.sin(a0), y0 = cy + r * Math.cos(a0);
    const x1 = cx + s * r * Math.sin(a1), y1 = cy + r * Math.cos(a1);
    out.push(P(`M${f1(x0)} ${f1(y0)} A${r} ${r} 0 0 ${s > 0 ? 0 : 1} ${f1(x1)} ${f1(y1)}`, null, stroke, 0.9));
    for (let i = 0; i < leaves; i++) {
      const phi = from + ((to - from) * i) / (leaves - 1);
      const a = rad(phi);
      const x = cx + s * r * Math.sin(a), y = cy + r * Math.cos(a);
      // tangent direction (going up the branch), tilted outwards
      const tang = (Math.atan2(-Math.sin(a), s * Math.cos(a)) * 180) / Math.PI;
      const rot = tang + s * 28;
      const ox = Math.cos(rad(rot)) * leaf * 0.55, oy = Math.sin(rad(rot)) * leaf * 0.55;
      out.push(['ellipse', { cx: f1(x + ox), cy: f1(y + oy), rx: leaf, ry: f1(leaf * 0.5), transform: `rotate(${f1(rot)} ${f1(x + ox)} ${f1(y + oy)})`,
        fill, stroke, 'stroke-width': sw }]);
    }
  }
  return out;
}

// ---- palettes ------------------------------------------------------------------------------------------

const COL = {
  brown: '#8d6e63', grey: '#9e9e9e', blue: '#1e88e5', yellow: '#f9a825', red: '#e53935', green: '#43a047', purple: '#8e24aa',
};
const GOLD = '#f5c542', GOLD_EDGE = '#8f6400', GOLD_INK = '#3a2800';
const SCI_BG = '#2e7d32', SCI_EDGE = '#1b4d1e', SCI_INK = '#ffffff';
const NAVY = '#1e3a5f';

// ---- the drawings ---------------------------------------------------------------------------------------

const shieldPath = 'M12 2.2 L20.2 5.2 V11 C20.2 16.2 16.6 19.8 12 21.8 C7.4 19.8 3.8 16.2 3.8 11 V5.2 Z';
const shieldRight = 'M12 2.2 L20.2 5.2 V11 C20.2 16.2 16.6 19.8 12 21.8 Z';

function shield(fill, dark, edge, rim = null) {
  const out = [P(shieldPath, fill), P(shieldRight, dark)];
  if (rim) out.push(G({ transform: 'translate(12 12) scale(.66) translate(-12 -12)' }, P(shieldPath, null, rim, 2)));
  out.push(P(shieldPath, null, edge, 1.6));
  return out;
}

function coinDisc(cx = 12, cy = 12, r = 10) {
  return [C(cx, cy, r, GOLD, GOLD_EDGE, 1.6), C(cx, cy, r * 0.74, null, '#c99a1e', 1.1)];
}

// "free": a coin struck through in red
function freeMark(cx = 12, cy = 12, r = 10) {
  const d = r * 0.68;
  return [...coinDisc(cx, cy, r), P(`M${f1(cx - d)} ${f1(cy + d)} L${f1(cx + d)} ${f1(cy - d)}`, null, '#ffffff', r * 0.46),
    P(`M${f1(cx - d)} ${f1(cy + d)} L${f1(cx + d)} ${f1(cy - d)}`, null, '#c62828', r * 0.26)];
}

// a small guarding shield with a tick (immunities), centred on (cx, cy)
function guard(cx, cy) {
  return [G({ transform: `translate(${f1(cx - 6.6)} ${f1(cy - 6.6)}) scale(.55)` },
    P(shieldPath, '#546e7a', '#1c2a30', 2.4), P('M7.6 12 L10.8 15.2 L16.6 8.6', null, '#ffffff', 3))];
}

// the science tile: a green rounded square; glyphs are drawn on it in white
const sciTile = () => R(1.2, 1.2, 21.6, 21.6, 5, SCI_BG, SCI_EDGE, 1.2);

// the card-colour shapes (also reused, smaller, by the ship tracks)
const COLOR_GLYPHS = {
  brown: () => [P(polyPath(12, 12, 10, 6, 0), COL.brown, '#3e2a22', 1.6), P(polyPath(12, 12, 5.2, 6, 0), null, '#c9ada3', 1.2)],
  grey: () => [P('M12 1.8 L21.5 12 L12 22.2 L2.5 12 Z', COL.grey, '#3a3a3a', 1.6), P('M12 6.8 L16.8 12 L12 17.2 L7.2 12 Z', null, '#e0e0e0', 1.2)],
  blue: () => [
    P('M2.5 8.6 L12 2.6 L21.5 8.6 Z', COL.blue, '#0b3d75', 1.4),
    R(3.4, 9.6, 17.2, 1.8, 0.4, COL.blue, '#0b3d75', 1.1),
    R(4.6, 12.2, 3, 6.6, 0.3, COL.blue, '#0b3d75', 1.1), R(10.5, 12.2, 3, 6.6, 0.3, COL.blue, '#0b3d75', 1.1), R(16.4, 12.2, 3, 6.6, 0.3, COL.blue, '#0b3d75', 1.1),
    R(2.4, 19.4, 19.2, 2.4, 0.4, COL.blue, '#0b3d75', 1.2),
  ],
  yellow: () => [
    // a coin bag: tied neck, round body
    P('M9 5.6 C6.5 3.5 8 2 9.6 2.6 C10.8 3 11.2 3.2 12 3.2 C12.8 3.2 13.2 3 14.4 2.6 C16 2 17.5 3.5 15 5.6 Z', COL.yellow, '#6d4c00', 1.3),
    P('M9.2 6.4 C4.6 9 2.6 13 3.2 17 C3.8 20.6 7.4 21.8 12 21.8 C16.6 21.8 20.2 20.6 20.8 17 C21.4 13 19.4 9 14.8 6.4 Z', COL.yellow, '#6d4c00', 1.5),
    R(8.6, 5, 6.8, 1.9, 0.9, '#c77c00', '#6d4c00', 1),
    C(12, 15, 3.3, null, '#8a5a00', 1.3),
  ],
  red: () => [
    // crossed swords
    G({ transform: 'rotate(45 12 12)' },
      P('M10.6 1.8 L12 0.4 L13.4 1.8 V15.2 H10.6 Z', '#f28b82', '#6d0f0f', 1.1),
      R(7.2, 15.2, 9.6, 2, 0.8, COL.red, '#6d0f0f', 1.1), R(11, 17.2, 2, 4, 0.6, '#7a2a1a', '#3d0a05', 1), C(12, 22.2, 1.3, COL.red, '#6d0f0f', 1)),
    G({ transform: 'rotate(-45 12 12)' },
      P('M10.6 1.8 L12 0.4 L13.4 1.8 V15.2 H10.6 Z', '#f28b82', '#6d0f0f', 1.1),
      R(7.2, 15.2, 9.6, 2, 0.8, COL.red, '#6d0f0f', 1.1), R(11, 17.2, 2, 4, 0.6, '#7a2a1a', '#3d0a05', 1), C(12, 22.2, 1.3, COL.red, '#6d0f0f', 1)),
  ],
  green: () => [
    // an Erlenmeyer flask
    P('M9.2 2.6 H14.8 M10.2 2.8 V8.6 L3.6 19.2 C2.9 20.4 3.6 21.6 5 21.6 H19 C20.4 21.6 21.1 20.4 20.4 19.2 L13.8 8.6 V2.8', '#e8f5e9', '#14461a', 1.6),
    P('M7 14.4 H17 L20.4 19.2 C21.1 20.4 20.4 21.6 19 21.6 H5 C3.6 21.6 2.9 20.4 3.6 19.2 Z', COL.green, '#14461a', 1.4),
    C(10, 18, 1.1, '#c8e6c9'), C(13.6, 16.6, 0.8, '#c8e6c9'),
  ],
  purple: () => [
    // a crown
    P('M3 8 L7.6 12.6 L12 4.8 L16.4 12.6 L21 8 L19.4 18.2 H4.6 Z', COL.purple, '#3b0a4d', 1.5),
    R(4.4, 18.4, 15.2, 3, 0.8, COL.purple, '#3b0a4d', 1.4),
    C(3, 7.6, 1.5, '#f3c969', '#3b0a4d', 0.9), C(12, 4.2, 1.5, '#f3c969', '#3b0a4d', 0.9), C(21, 7.6, 1.5, '#f3c969', '#3b0a4d', 0.9),
    C(12, 14.6, 1.5, '#f3c969'),
  ],
};

const TRACK = { red: 'red', yellow: 'yellow', blue: 'blue', green: 'green' };
const trackDrawing = (color) => () => [
  G({ transform: 'translate(3.4 -0.4) scale(0.72)' }, ...COLOR_GLYPHS[color]()),
  P('M2 19.8 q2.5 -2.2 5 0 t5 0 t5 0 t5 0', null, '#1e88e5', 2.2),
  P('M4.5 22.8 q2.5 -2.2 5 0 t5 0 t5 0', null, '#64b5f6', 1.6),
];

const minus = (n) => `\u2212${Math.abs(n)}`;

// name -> { label, noun: [singular, plural] | kind, draw(count) }
// kinds: 'mass' ("2 wood"), 'noun' (1 coin / 5 coins), 'token' (victory token, 3 points), 'defeat', 'level'
// show: how a count is drawn: 'inside' (in the drawing), 'prefix' ("2×" before, when >1), 'after' (the number after)
const DEFS = {
  // ---- resources: each its own shape and colour
  wood: { label: 'wood', kind: 'mass', show: 'prefix', draw: () => [
    P('M6.5 6.4 H17.5 A4.2 5.6 0 0 1 17.5 17.6 H6.5 A4.2 5.6 0 0 1 6.5 6.4 Z', '#8a5a2b', '#40260e', 1.5),
    P('M5 9.6 H12.5 M7.5 14.4 H14.5', null, '#5a3512', 1.3),
    ['ellipse', { cx: 17.5, cy: 12, rx: 4.2, ry: 5.6, fill: '#e2ac6b', stroke: '#40260e', 'stroke-width': 1.5 }],
    ['ellipse', { cx: 17.5, cy: 12, rx: 2.3, ry: 3.1, fill: 'none', stroke: '#a8692c', 'stroke-width': 1 }],
    C(17.5, 12, 0.8, '#a8692c'),
  ] },
  stone: { label: 'stone', kind: 'mass', show: 'prefix', draw: () => [
    R(1.8, 13, 9.8, 8.4, 1.4, '#b4b9be', '#3c4146', 1.5), R(12.4, 13, 9.8, 8.4, 1.4, '#b4b9be', '#3c4146', 1.5),
    R(6.8, 3.6, 10.4, 8.6, 1.4, '#c9cdd1', '#3c4146', 1.5),
    P('M3.6 15.4 H8 M14.2 15.4 H18 M8.6 6 H12.6', null, '#f4f5f6', 1.2),
  ] },
  clay: { label: 'clay', kind: 'mass', show: 'prefix', draw: () => [
    P('M2 10.2 L7 5.2 H22 L17 10.2 Z', '#e58a5f', '#5a1e0a', 1.4),
    P('M17 10.2 L22 5.2 V14 L17 19 Z', '#93391a', '#5a1e0a', 1.4),
    R(2, 10.2, 15, 8.8, 0.4, '#c8552d', '#5a1e0a', 1.4),
    C(6.5, 7.7, 1, '#93391a'), C(12, 7.7, 1, '#93391a'), C(17.3, 7.7, 1, '#93391a'),
  ] },
  ore: { label: 'ore', kind: 'mass', show: 'prefix', draw: () => [
    P('M3.4 15.2 L6.6 6.8 L13.6 3.4 L20.2 7.6 L21.2 15.8 L15.4 20.8 L7 20.4 Z', '#4e5863', '#161b20', 1.5),
    P('M3.4 15.2 L6.6 6.8 L13.6 3.4 L11.6 11.6 Z', '#7d8996'),
    P('M13.6 3.4 L20.2 7.6 L21.2 15.8 L11.6 11.6 Z', '#66717d'),
    P('M3.4 15.2 L6.6 6.8 L13.6 3.4 L20.2 7.6 L21.2 15.8 L15.4 20.8 L7 20.4 Z M11.6 11.6 L3.4 15.2 M11.6 11.6 L13.6 3.4 M11.6 11.6 L21.2 15.8 M11.6 11.6 L15.4 20.8', null, '#161b20', 1.2),
    C(8.2, 9.4, 0.9, '#dfe7ee'), C(16.4, 9.2, 0.8, '#dfe7ee'), C(13.5, 16.8, 0.8, '#c7d2dc'),
  ] },
  glass: { label: 'glass', kind: 'mass', show: 'prefix', draw: () => [
    P('M10 7.2 C10 9.2 5.6 10 5.6 13.8 V19.6 Q5.6 21.8 7.8 21.8 H16.2 Q18.4 21.8 18.4 19.6 V13.8 C18.4 10 14 9.2 14 7.2 V4 H10 Z', '#54c6ea', '#0a4f66', 1.5),
    R(9.2, 1.6, 5.6, 3, 0.8, '#b07a45', '#4a2c12', 1.2),
    P('M8.4 13.6 V19', null, '#effcff', 1.8),
    P('M5.8 15.2 H18.2', null, '#2a95bb', 1.1),
  ] },
  papyrus: { label: 'papyrus', kind: 'mass', show: 'prefix', draw: () => [
    R(5, 5.6, 14, 12.8, 0.4, '#f6e7b2', '#7a5a1e', 1.4),
    P('M8 9.4 H16 M8 12 H16 M8 14.6 H13.4', null, '#8a6a2a', 1.2),
    R(1.8, 3.6, 4.2, 16.8, 2.1, '#dcc073', '#6b4d14', 1.4), R(18, 3.6, 4.2, 16.8, 2.1, '#dcc073', '#6b4d14', 1.4),
    P('M3.9 6 V18 M20.1 6 V18', null, '#b39645', 1),
  ] },
  loom: { label: 'loom', kind: 'mass', show: 'prefix', draw: () => [
    P('M8 5.4 C12 3.2 15.6 7.6 21.6 5.2 V17.6 C15.6 20 12 15.6 8 17.8 Z', '#b277e0', '#3d1260', 1.4),
    P('M8 9.6 C12 7.4 15.6 11.8 21.6 9.4 M8 13.6 C12 11.4 15.6 15.8 21.6 13.4', null, '#6f2fa6', 1.1),
    P('M2.4 5 V19.2 A3.6 1.7 0 0 0 9.6 19.2 V5 Z', '#7e3bbf', '#3d1260', 1.4),
    ['ellipse', { cx: 6, cy: 5, rx: 3.6, ry: 1.7, fill: '#d7b8f3', stroke: '#3d1260', 'stroke-width': 1.2 }],
    P('M4.4 7.6 V18.4', null, '#b98be6', 1.2),
  ] },

  // ---- money, points, military
  coin: { label: 'coin', noun: ['coin', 'coins'], show: 'inside', draw: (n) => {
    if (n === null) return [...coinDisc(), C(12, 12, 2.4, '#c99a1e')];
    return [C(12, 12, 10, GOLD, GOLD_EDGE, 1.6), C(12, 12, 8.2, null, '#d8aa2a', 1), T(12, 12.4, n, numSize(n, 13, 15), GOLD_INK)];
  } },
  points: { label: 'victory points', noun: ['point', 'points'], show: 'inside', draw: (n) => [
    ...laurel(12, 12.2, 9.6, { leaves: 5, from: 26, to: 150, leaf: 2.3 }),
    C(12, 12.2, 7.9, '#fff6d6', '#b99a4a', 0.8),
    ...(n === null ? [P(polyPath(12, 12.2, 4.6, 5, -90, 2), '#c9a227', '#7a5d10', 0.8)] : [T(12, 12.7, n, numSize(n, 12.5, 13.5), '#1f1f1f')]),
  ] },
  shield: { label: 'shield', noun: ['shield', 'shields'], show: 'shields', draw: (n) => [
    ...shield('#c62828', '#a11d1d', '#5c0b0b', n === null ? '#ff9d94' : null),
    ...(n === null ? [] : [T(12, 11.6, n, numSize(n, 11, 12), '#ffffff')]),
  ] },

  // ---- classic science (white on a green tile)
  compass: { label: 'compass', noun: ['compass', 'compasses'], show: 'prefix', draw: () => [
    sciTile(),
    P('M12 6.4 L6.6 17.8 M12 6.4 L17.4 17.8', null, SCI_INK, 2.4),
    P('M5 19.8 Q12 22.8 19 19.8', null, SCI_INK, 1.4),
    L(12, 2.6, 12, 4.6, SCI_INK, 2), C(12, 6, 2.2, SCI_INK), C(12, 6, 0.8, SCI_BG),
  ] },
  gear: { label: 'gear', noun: ['gear', 'gears'], show: 'prefix', draw: () => [
    sciTile(), P(gearPath(12, 12, 6.4, 9, 8, 2.6), SCI_INK, null, 0, { 'fill-rule': 'evenodd' }),
  ] },
  tablet: { label: 'tablet', noun: ['tablet', 'tablets'], show: 'prefix', draw: () => [
    sciTile(),
    P('M6 20 V8.4 Q6 4 12 4 Q18 4 18 8.4 V20 Z', SCI_INK),
    P('M8.6 9.6 H15.4 M8.6 12.8 H15.4 M8.6 16 H13.4', null, SCI_BG, 1.6),
  ] },
  science_any: { label: 'any science symbol', noun: ['any science symbol', 'any science symbols'], show: 'prefix', draw: () => [
    sciTile(),
    // compass / gear / tablet in miniature around a centre
    G({ transform: 'translate(1.2 1) scale(.48)' }, P('M12 5 L6 20 M12 5 L18 20', null, SCI_INK, 3.4), C(12, 5, 2.6, SCI_INK)),
    G({ transform: 'translate(11.2 1) scale(.48)' }, P(gearPath(12, 12, 6, 9.6, 8, 3), SCI_INK, null, 0, { 'fill-rule': 'evenodd' })),
    G({ transform: 'translate(6.2 11) scale(.48)' }, P('M5.4 21 V8.4 Q5.4 3.4 12 3.4 Q18.6 3.4 18.6 8.4 V21 Z', SCI_INK), P('M8.4 10 H15.6 M8.4 14.4 H15.6', null, SCI_BG, 2.6)),
  ] },

  // ---- Duel science
  armillary_sphere: { label: 'armillary sphere', noun: ['armillary sphere', 'armillary spheres'], show: 'prefix', draw: () => [
    sciTile(),
    C(12, 10.4, 6.4, null, SCI_INK, 1.7),
    ['ellipse', { cx: 12, cy: 10.4, rx: 6.4, ry: 2.3, transform: 'rotate(-24 12 10.4)', fill: 'none', stroke: SCI_INK, 'stroke-width': 1.5 }],
    ['ellipse', { cx: 12, cy: 10.4, rx: 2.3, ry: 6.4, fill: 'none', stroke: SCI_INK, 'stroke-width': 1.3 }],
    C(12, 10.4, 1.3, SCI_INK),
    P('M12 16.8 V19.6 M8.4 20.2 H15.6', null, SCI_INK, 2),
  ] },
  wheel: { label: 'wheel', noun: ['wheel', 'wheels'], show: 'prefix', draw: () => [
    sciTile(),
    C(12, 12, 7.6, null, SCI_INK, 2.4),
    P([0, 60, 120].map((a) => `M${f1(12 + 7 * Math.cos(rad(a)))} ${f1(12 + 7 * Math.sin(rad(a)))} L${f1(12 - 7 * Math.cos(rad(a)))} ${f1(12 - 7 * Math.sin(rad(a)))}`).join(' '), null, SCI_INK, 1.6),
    C(12, 12, 2.3, SCI_INK),
  ] },
  sundial: { label: 'sundial', noun: ['sundial', 'sundials'], show: 'prefix', draw: () => [
    sciTile(),
    P('M3.8 16.4 A8.2 8.2 0 0 1 20.2 16.4 Z', SCI_INK),
    P([150, 120, 60, 30].map((a) => `M12 16.4 L${f1(12 + 6.8 * Math.cos(rad(-a)))} ${f1(16.4 + 6.8 * Math.sin(rad(-a)))}`).join(' '), null, SCI_BG, 1.2),
    P('M12 16.4 V7.2 L16.6 16.4 Z', SCI_BG, SCI_BG, 0.8),
    R(3.4, 17.4, 17.2, 2.6, 0.6, SCI_INK),
  ] },
  mortar: { label: 'mortar', noun: ['mortar', 'mortars'], show: 'prefix', draw: () => [
    sciTile(),
    L(11.6, 13, 18.4, 4, SCI_INK, 2.8), C(18.6, 3.8, 1.6, SCI_INK),
    P('M4.6 10.6 H19.4 Q19.4 17.6 13.6 18.2 H10.4 Q4.6 17.6 4.6 10.6 Z', SCI_INK),
    R(8.8, 18.6, 6.4, 2.2, 0.5, SCI_INK),
    P('M7.4 13.2 Q8.2 15.6 10.4 16.2', null, SCI_BG, 1.1),
  ] },
  plumb_line: { label: 'plumb line', noun: ['plumb line', 'plumb lines'], show: 'prefix', draw: () => [
    sciTile(),
    // an A-frame level: two legs, a crossbar, the bob hanging from the apex below the bar
    P('M12 3.4 L4.6 20.6 M12 3.4 L19.4 20.6 M6.2 14 H17.8', null, SCI_INK, 2.2),
    L(12, 4, 12, 16.4, SCI_INK, 1.1),
    P('M10.2 16.2 H13.8 L12 20.6 Z', SCI_INK, SCI_INK, 1),
    C(12, 3.4, 1.5, SCI_INK),
  ] },
  quill: { label: 'quill', noun: ['quill', 'quills'], show: 'prefix', draw: () => [
    sciTile(),
    P('M7.4 17.2 C7.6 11 11.6 5.6 19.6 3.6 C19 9.6 15 15.4 8.8 17.8 Z', SCI_INK),
    P('M5 20.2 L16.6 7', null, SCI_BG, 1.2),
    P('M4.2 21 L7.4 17.4', null, SCI_INK, 1.8),
  ] },
  law: { label: 'law', noun: ['law symbol', 'law symbols'], show: 'prefix', draw: () => [
    sciTile(),
    P('M12 4.6 V19.2 M8.2 19.8 H15.8 M4.8 7 H19.2', null, SCI_INK, 1.9),
    C(12, 4.4, 1.4, SCI_INK),
    P('M4.8 7.4 L2.9 13 M4.8 7.4 L6.7 13 M19.2 7.4 L17.3 13 M19.2 7.4 L21.1 13', null, SCI_INK, 1),
    P('M2.4 13 H7.2 Q7 16 4.8 16 Q2.6 16 2.4 13 Z', SCI_INK),
    P('M16.8 13 H21.6 Q21.4 16 19.2 16 Q17 16 16.8 13 Z', SCI_INK),
  ] },

  // ---- military tokens
  victory_token: { label: 'victory token', kind: 'token', show: 'inside', draw: (n) => [
    C(12, 12, 10.4, '#b71c1c', '#4d0808', 1.6), C(12, 12, 8.4, null, GOLD, 1.2),
    ...(n === null ? [P(polyPath(12, 12.4, 5.8, 5, -90, 2.5), GOLD, '#6d4c00', 0.8)] : [T(12, 12.2, n, numSize(n, 12, 12.5), '#ffffff')]),
  ] },
  // the classic defeat token is always -1: drawn and labelled so without a count
  defeat_token: { label: 'defeat token', kind: 'defeat', show: 'inside', defaultCount: 1, draw: (n) => [
    C(12, 12, 10.4, '#3f4a52', '#11161a', 1.6), C(12, 12, 8.4, null, '#9aa7b0', 1),
    T(12, 12.2, minus(n === null ? 1 : n), numSize(minus(n === null ? 1 : n), 11.5, 13), '#ffffff'),
  ] },

  // ---- card colours as shapes
  color_brown: { label: 'raw material (brown)', show: 'prefix', draw: COLOR_GLYPHS.brown },
  color_grey: { label: 'manufactured good (grey)', show: 'prefix', draw: COLOR_GLYPHS.grey },
  color_blue: { label: 'civilian (blue)', show: 'prefix', draw: COLOR_GLYPHS.blue },
  color_yellow: { label: 'commercial (yellow)', show: 'prefix', draw: COLOR_GLYPHS.yellow },
  color_red: { label: 'military (red)', show: 'prefix', draw: COLOR_GLYPHS.red },
  color_green: { label: 'scientific (green)', show: 'prefix', draw: COLOR_GLYPHS.green },
  color_purple: { label: 'guild (purple)', show: 'prefix', draw: COLOR_GLYPHS.purple },

  // ---- game things
  chain: { label: 'chain', noun: ['chain', 'chains'], show: 'prefix', draw: () => [
    R(1.6, 12.4, 13, 7.4, 3.7, null, '#37474f', 3.2, { transform: 'rotate(-45 8.1 16.1)' }),
    R(1.6, 12.4, 13, 7.4, 3.7, null, '#b0bec5', 1.1, { transform: 'rotate(-45 8.1 16.1)' }),
    R(9.4, 4.2, 13, 7.4, 3.7, null, '#37474f', 3.2, { transform: 'rotate(-45 15.9 7.9)' }),
    R(9.4, 4.2, 13, 7.4, 3.7, null, '#b0bec5', 1.1, { transform: 'rotate(-45 15.9 7.9)' }),
  ] },
  arrow_left: { label: 'left neighbour', show: 'prefix', draw: () => [P('M2.4 12 L10.4 4.4 V8.8 H21.4 V15.2 H10.4 V19.6 Z', 'currentColor')] },
  arrow_right: { label: 'right neighbour', show: 'prefix', draw: () => [P('M21.6 12 L13.6 4.4 V8.8 H2.6 V15.2 H13.6 V19.6 Z', 'currentColor')] },
  arrow_both: { label: 'both neighbours', show: 'prefix', draw: () => [P('M1.6 12 L8 5.6 V9.4 H16 V5.6 L22.4 12 L16 18.4 V14.6 H8 V18.4 Z', 'currentColor')] },
  wonder: { label: 'wonder stage', noun: ['wonder stage', 'wonder stages'], show: 'prefix', draw: () => [
    P('M12 2.6 L1.4 20.6 H15.4 Z', '#efc877'),
    P('M12 2.6 L15.4 20.6 H22.6 Z', '#b27d36'),
    P('M8.6 8.4 H13.1 M5.2 14.4 H14.2', null, '#9a6a26', 1.2),
    P('M12 2.6 L1.4 20.6 H22.6 Z M12 2.6 L15.4 20.6', null, '#5c3d10', 1.4),
    P('M1 21.6 H23', null, '#5c3d10', 1.4),
  ] },
  discard: { label: 'discard', show: 'prefix', draw: () => [
    R(2.8, 2.2, 9.6, 13, 1.4, '#fffaf0', '#5d5040', 1.4, { transform: 'rotate(-8 7.6 8.7)' }),
    P('M5.4 6 H9.4 M5.6 8.8 H9.6', null, '#b9a98a', 1.2, { transform: 'rotate(-8 7.6 8.7)' }),
    P('M15.6 2.6 H19.4 V9.6 H22 L17.5 14.4 L13 9.6 H15.6 Z', '#c62828', '#5c0b0b', 1.1),
    P('M2.4 16.4 V21.4 H21.6 V16.4', null, '#4a3f33', 2),
  ] },
  free: { label: 'free', show: 'prefix', draw: () => [
    ...coinDisc(),
    P('M5.2 18.8 L18.8 5.2', null, '#ffffff', 4.6),
    P('M5.2 18.8 L18.8 5.2', null, '#c62828', 2.6),
  ] },
  hand: { label: 'hand', show: 'prefix', draw: () => {
    const card = (deg) => G({ transform: `rotate(${deg} 12 21)` },
      R(7.4, 3.6, 9.2, 13.4, 1.4, '#b08d57', '#4a3418', 1.2), P('M12 7 L14.2 10.3 L12 13.6 L9.8 10.3 Z', '#f0dcb0'));
    return [card(-24), card(0), card(24)];
  } },
  check: { label: 'has chosen', show: 'prefix', draw: () => [C(12, 12, 10.2, '#2f7d32', '#15451a', 1.2), P('M6.8 12.4 L10.4 16 L17.2 8.4', null, '#ffffff', 2.8)] },
  hourglass: { label: 'waiting', show: 'prefix', draw: () => [
    P('M7 4.6 H17 C17 9.4 13 10.6 13 12 C13 13.4 17 14.6 17 19.4 H7 C7 14.6 11 13.4 11 12 C11 10.6 7 9.4 7 4.6 Z', '#e3f2fd', '#37474f', 1.3),
    P('M8.8 7.6 H15.2 C14.6 9.2 12.6 10 12 11 C11.4 10 9.4 9.2 8.8 7.6 Z', '#f2a900'),
    P('M8.2 19.2 C8.6 16.8 11 16 12 15.2 C13 16 15.4 16.8 15.8 19.2 Z', '#f2a900'),
    L(12, 12, 12, 15.4, '#f2a900', 0.9),
    R(4.8, 2.2, 14.4, 2.6, 1, '#8d6e63', '#3e2a22', 1.1), R(4.8, 19.2, 14.4, 2.6, 1, '#8d6e63', '#3e2a22', 1.1),
  ] },
  card_back: { label: 'card', noun: ['card', 'cards'], show: 'prefix', draw: () => [
    R(4.6, 2, 14.8, 20, 2, '#b08d57', '#4a3418', 1.4),
    R(6.8, 4.2, 10.4, 15.6, 1, null, '#f0dcb0', 1),
    P('M12 7.6 L15.2 12 L12 16.4 L8.8 12 Z', '#f0dcb0'),
  ] },

  // ---- Duel
  pawn: { label: 'conflict pawn', show: 'prefix', draw: () => [
    C(12, 6.2, 3.6, '#d32f2f', '#5c0b0b', 1.4),
    P('M8.6 10.6 H15.4 L14 12.6 C14.4 15.4 15.8 17.6 17.2 18.6 V21.2 H6.8 V18.6 C8.2 17.6 9.6 15.4 10 12.6 Z', '#d32f2f', '#5c0b0b', 1.4),
    P('M10.6 5 Q11 4 12 3.8', null, '#ff9e94', 1.1),
  ] },
  progress_token: { label: 'progress token', noun: ['progress token', 'progress tokens'], show: 'prefix', draw: () => [
    C(12, 12, 10.4, '#2e7d32', '#123d15', 1.4), C(12, 12, 7.6, '#43a047', '#a5d6a7', 1.3),
    P(polyPath(12, 12, 4.4, 4, -90, 1.6), '#e8f5e9'),
  ] },
  loot: { label: 'loot token', noun: ['loot token', 'loot tokens'], show: 'prefix', draw: () => [
    P('M3 10.2 V8.6 Q3 4.2 12 4.2 Q21 4.2 21 8.6 V10.2 Z', '#b0743a', '#3e220a', 1.4),
    R(3, 10.2, 18, 10.4, 1, '#8a5a2b', '#3e220a', 1.4),
    R(6, 4.8, 2.4, 15.8, 0.4, GOLD, '#6d4c00', 0.8), R(15.6, 4.8, 2.4, 15.8, 0.4, GOLD, '#6d4c00', 0.8),
    R(10.2, 9, 3.6, 4.4, 0.8, GOLD, '#6d4c00', 1), C(12, 11.4, 0.7, '#3e220a'),
  ] },

  // ---- Armada
  ship: { label: 'ship', noun: ['ship', 'ships'], show: 'prefix', draw: () => [
    L(11.4, 2.4, 11.4, 14.4, '#3b2716', 1.6),
    P('M12.2 3.4 Q19.4 7.6 18.8 13.2 H12.2 Z', '#f5f0e1', '#3b2716', 1.2),
    P('M10.6 4.8 V13.2 H4.8 Z', '#f5f0e1', '#3b2716', 1.2),
    P('M11.6 2.4 L15 3.4 L11.6 4.4', '#d32f2f'),
    P('M1.8 14.2 H22.2 L18.8 19.2 H5.2 Z', '#7a5230', '#3b2716', 1.4),
    P('M1.5 21.8 q2.6 -1.8 5.2 0 t5.2 0 t5.2 0 t5.2 0', null, '#1e88e5', 1.6),
  ] },
  naval_strength: { label: 'naval strength', kind: 'mass', show: 'prefix', draw: () => [
    ...shield('#1976d2', '#0d5bb0', '#082f5c'),
    P('M6.2 9.6 q1.45 -1.6 2.9 0 t2.9 0 t2.9 0 t2.9 0 M6.6 14 q1.35 -1.6 2.7 0 t2.7 0 t2.7 0 t2.7 0', null, '#ffffff', 1.6),
  ] },
  commercial_level: { label: 'commercial level', kind: 'level', show: 'after', draw: () => [
    R(2.6, 14.4, 5.4, 7.2, 0.6, GOLD, GOLD_EDGE, 1.3), R(9.3, 10, 5.4, 11.6, 0.6, GOLD, GOLD_EDGE, 1.3), R(16, 5.6, 5.4, 16, 0.6, GOLD, GOLD_EDGE, 1.3),
    P('M3 10.6 L10.8 4.6 M7.6 4 L11.2 4.4 L10.8 8', null, '#6d4c00', 1.6),
  ] },
  island: { label: 'island', noun: ['island', 'islands'], show: 'prefix', draw: () => [
    P('M1.4 18.6 H22.6 V21.8 H1.4 Z', '#4fa3e0'),
    P('M3.4 18.8 Q12 10.6 20.6 18.8 Z', '#f0cf72', '#8a6a1e', 1.2),
    P('M11.8 16 Q12.6 10 14.6 6', null, '#6d4c2f', 1.8),
    P('M14.6 6 Q10.6 3.6 7.2 6.4 Q10.8 5.6 14.6 6 Q12.2 8.6 11.4 11.6 Q14 8.6 14.6 6 Q18.6 4.6 21.2 7.8 Q17.8 6.6 14.6 6 Q17.6 8.2 18.6 11 Q16.4 7.8 14.6 6 Q15.6 3.6 17.8 2.6 Q15.2 3.4 14.6 6 Z', '#2e7d32', '#15451a', 0.8),
    P('M1.4 20.4 q2.6 -1.4 5.2 0 t5.2 0 t5.2 0 t5.2 0', null, '#d6ecfb', 1),
  ] },
  tax: { label: 'tax', show: 'prefix', draw: () => [
    ...coinDisc(10.4, 10.4, 8.8),
    C(17.6, 17.6, 5.2, '#c62828', '#ffffff', 1.3),
    R(14.6, 16.6, 6, 2, 0.6, '#ffffff'),
  ] },
  piracy: { label: 'piracy', show: 'prefix', draw: () => [
    L(3.6, 2, 3.6, 22.4, '#5d4037', 2),
    P('M4.6 2.8 H21.6 L19 9.4 L21.6 16 H4.6 Z', '#1f1f1f', '#000000', 1),
    C(12.2, 7.6, 3.4, '#ffffff'), R(10.4, 9.2, 3.6, 2.8, 0.6, '#ffffff'),
    C(10.9, 7.6, 0.95, '#1f1f1f'), C(13.5, 7.6, 0.95, '#1f1f1f'),
    P('M8.4 12.2 L16 14.8 M8.4 14.8 L16 12.2', null, '#ffffff', 1.4),
  ] },
  naval_victory: { label: 'naval victory', kind: 'token', show: 'inside', draw: (n) => [
    C(12, 12, 10.4, '#1565c0', '#082f5c', 1.6),
    ...(n === null ? [P(polyPath(12, 10.8, 5.4, 5, -90, 2.3), GOLD, '#6d4c00', 0.8)] : [T(12, 10.4, n, numSize(n, 11, 12), '#ffffff')]),
    P('M6.4 18.4 q1.4 -1.2 2.8 0 t2.8 0 t2.8 0 t2.8 0', null, '#ffffff', 1.3),
  ] },
  naval_defeat: { label: 'naval defeat', kind: 'defeat', show: 'inside', draw: (n) => [
    C(12, 12, 10.4, '#37474f', '#0f1417', 1.6),
    T(12, 10.4, n === null ? '\u2212' : minus(n), numSize(n === null ? '-' : minus(n), 11, 12), '#ffffff'),
    P('M6.4 18.4 q1.4 -1.2 2.8 0 t2.8 0 t2.8 0 t2.8 0', null, '#cfd8dc', 1.3),
  ] },
  explore: { label: 'explore', show: 'prefix', draw: () => [
    C(12, 12, 9.6, '#e3f2fd', NAVY, 1.4),
    P('M12 2 L14 10 L22 12 L14 14 L12 22 L10 14 L2 12 L10 10 Z', NAVY),
    P('M12 2 L14 10 L12 12 L10 10 Z', '#d32f2f'),
    C(12, 12, 1.3, '#e3f2fd'),
  ] },
  landing: { label: 'landing', show: 'prefix', draw: () => [
    C(12, 4.4, 2.2, null, 'currentColor', 2),
    P('M12 6.6 V20.6 M7.8 9.4 H16.2 M4.6 13.6 Q5.2 20.6 12 20.6 Q18.8 20.6 19.4 13.6', null, 'currentColor', 2.4),
    P('M2.8 15.4 L4.6 12 L6.6 15 Z M21.2 15.4 L19.4 12 L17.4 15 Z', 'currentColor', 'currentColor', 1),
  ] },
  track_red: { label: 'red ship track', show: 'prefix', draw: trackDrawing(TRACK.red) },
  track_yellow: { label: 'yellow ship track', show: 'prefix', draw: trackDrawing(TRACK.yellow) },
  track_blue: { label: 'blue ship track', show: 'prefix', draw: trackDrawing(TRACK.blue) },
  track_green: { label: 'green ship track', show: 'prefix', draw: trackDrawing(TRACK.green) },

  // ---- generic
  resource_any: { label: 'any resource', show: 'prefix', draw: () => {
    const cols = ['#8a5a2b', '#b4b9be', '#c8552d', '#4e5863', '#54c6ea', '#f6e7b2', '#b277e0'];
    const out = [];
    const r = 10;
    cols.forEach((c, i) => {
      const a0 = rad(-90 + (i * 360) / cols.length), a1 = rad(-90 + ((i + 1) * 360) / cols.length);
      out.push(P(`M12 12 L${f1(12 + r * Math.cos(a0))} ${f1(12 + r * Math.sin(a0))} A${r} ${r} 0 0 1 ${f1(12 + r * Math.cos(a1))} ${f1(12 + r * Math.sin(a1))} Z`, c, '#2b2a27', 0.8));
    });
    out.push(C(12, 12, r, null, INK, 1.5), C(12, 12, 3.6, '#ffffff', INK, 1.2));
    return out;
  } },

  // ---- abilities: one drawing each (their words are the engine's)
  build_from_discard: { label: 'build a card of the discard pile for free', show: 'prefix', draw: () => [
    R(4.4, 5.4, 9.2, 12.6, 1.4, '#fffaf0', '#5d5040', 1.4, { transform: 'rotate(-8 9 11.7)' }),
    P('M6.8 9 H11 M7 11.8 H11.2', null, '#b9a98a', 1.2, { transform: 'rotate(-8 9 11.7)' }),
    P('M17.4 15.6 V6 H14.8 L18.8 1.6 L22.8 6 H20.2 V15.6 Z', '#2e7d32', '#123d15', 1.1),
    P('M2.4 16.4 V21.4 H21.6 V16.4', null, '#4a3f33', 2),
  ] },
  play_again: { label: 'play again', show: 'prefix', draw: () => [
    P('M19.6 9.2 A8.2 8.2 0 1 0 20.2 14.6', null, '#1565c0', 2.8),
    P('M21.8 3.6 L20.6 10.8 L14 8.2 Z', '#1565c0', '#0b3d7a', 1),
    T(11.6, 12.4, '2', 9.5, '#0b3d7a'),
  ] },
  wonders_play_again: { label: 'every wonder built plays again', show: 'prefix', draw: () => [
    P('M19.6 9.2 A8.2 8.2 0 1 0 20.2 14.6', null, '#1565c0', 2.6),
    P('M21.8 3.6 L20.6 10.8 L14 8.2 Z', '#1565c0', '#0b3d7a', 1),
    P('M11.6 7 L6.6 16.4 H13.2 Z', '#efc877'), P('M11.6 7 L13.2 16.4 H16.6 Z', '#b27d36'),
    P('M11.6 7 L6.6 16.4 H16.6 Z', null, '#5c3d10', 1.1),
  ] },
  play_last_card_each_age: { label: 'play the last card of each Age', show: 'prefix', draw: () => [
    R(1.6, 3, 5.6, 8.6, 1, '#b08d57', '#4a3418', 1), R(9.2, 3, 5.6, 8.6, 1, '#b08d57', '#4a3418', 1),
    R(16.6, 2, 6, 10.4, 1, '#fff6d6', '#8f6400', 1.4),
    P('M14.2 14.6 L22.4 18.6 L14.2 22.6 Z', '#2e7d32', '#123d15', 1),
  ] },
  free_first_card_each_color: { label: 'the first card of each colour for free', show: 'prefix', draw: () => [
    R(1.6, 2, 6, 10.4, 1, COL.brown, '#3e2a22', 1.1), R(9, 2, 6, 10.4, 1, COL.blue, '#0b3d7a', 1.1), R(16.4, 2, 6, 10.4, 1, COL.green, '#1b4d1e', 1.1),
    ...freeMark(12, 18.2, 5),
  ] },
  free_first_card_each_age: { label: 'the first card of each Age for free', show: 'prefix', draw: () => [
    R(1.6, 2, 6, 10.4, 1, '#fff6d6', '#8f6400', 1.4), R(9.2, 3, 5.6, 8.6, 1, '#b08d57', '#4a3418', 1), R(16.8, 3, 5.6, 8.6, 1, '#b08d57', '#4a3418', 1),
    ...freeMark(4.6, 18.2, 5),
  ] },
  free_last_card_each_age: { label: 'the last card of each Age for free', show: 'prefix', draw: () => [
    R(1.6, 3, 5.6, 8.6, 1, '#b08d57', '#4a3418', 1), R(9.2, 3, 5.6, 8.6, 1, '#b08d57', '#4a3418', 1), R(16.4, 2, 6, 10.4, 1, '#fff6d6', '#8f6400', 1.4),
    ...freeMark(19.4, 18.2, 5),
  ] },
  receive_trade_payments: { label: 'the coins your opponent pays for resources come to you', show: 'prefix', draw: () => [
    ...coinDisc(6.8, 6.8, 5.4),
    P('M10.6 10.6 L15.8 15.8', null, '#2b2a27', 2.2), P('M17.8 17.8 L17.2 12.2 L12.2 17.2 Z', '#2b2a27', '#2b2a27', 1),
    P('M13.4 21.8 H22.2 V13.4', null, '#4a3f33', 2.2),
  ] },
  coin_loss_immunity: { label: 'no coin loss', show: 'prefix', draw: () => [
    ...coinDisc(9.6, 9.6, 8.2),
    ...guard(17, 16.4),
  ] },
  naval_defeat_immunity: { label: 'no naval defeat token', show: 'prefix', draw: () => [
    C(9.6, 9.6, 8.2, '#37474f', '#0f1417', 1.4), T(9.6, 8.6, '\u2212', 9, '#ffffff'),
    P('M4.4 14.2 q1.3 -1 2.6 0 t2.6 0 t2.6 0 t2.6 0', null, '#cfd8dc', 1.1),
    ...guard(17, 16.4),
  ] },
  naval_discount: { label: 'cheaper naval steps', show: 'prefix', draw: () => [
    G({ transform: 'translate(0 -1) scale(.72)' },
      L(11.4, 2.4, 11.4, 14.4, '#3b2716', 1.6), P('M12.2 3.4 Q19.4 7.6 18.8 13.2 H12.2 Z', '#f5f0e1', '#3b2716', 1.2),
      P('M10.6 4.8 V13.2 H4.8 Z', '#f5f0e1', '#3b2716', 1.2), P('M1.8 14.2 H22.2 L18.8 19.2 H5.2 Z', '#7a5230', '#3b2716', 1.4)),
    P('M12.6 13.2 H20.4 L23 17.6 L20.4 22 H12.6 Z', '#c62828', '#5c0b0b', 1.1),
    R(14.4, 16.8, 5.4, 1.8, 0.5, '#ffffff'),
  ] },
  science_most_common: { label: 'one more of your most common science symbol', show: 'prefix', draw: () => [
    sciTile(),
    P('M5 19 V14 H8.6 V19 Z M10.2 19 V9.6 H13.8 V19 Z M15.4 19 V5.2 H19 V19 Z', SCI_INK),
    P('M15.2 4.4 L17.2 1.6 L19.2 4.4', null, '#ffe082', 1.4),
  ] },
  question: { label: 'unknown', show: 'prefix', draw: () => [C(12, 12, 10.2, '#5f6368', '#2b2d30', 1.2), T(12, 12.8, '?', 15, '#ffffff')] },
};

/** Every icon name, in drawing order. */
export const ICONS = Object.freeze(Object.keys(DEFS));

const isIcon = (name) => typeof name === 'string' && Object.prototype.hasOwnProperty.call(DEFS, name);

function normCount(count) {
  if (count === undefined || count === null || count === '') return null;
  if (typeof count === 'number') return Number.isFinite(count) ? count : null;
  const n = Number(count);
  return Number.isFinite(n) ? n : String(count);
}

function words(name) {
  return String(name ?? '').replace(/[_-]+/g, ' ').trim();
}

const plural = (n, one, many) => (Math.abs(Number(n)) === 1 ? one : many);

/** The default accessible label of an icon, e.g. iconLabel("coin", 5) -> "5 coins". */
export function iconLabel(name, count) {
  const def = isIcon(name) ? DEFS[name] : null;
  let n = normCount(count);
  if (!def) {
    const w = words(name) || 'unknown';
    return n === null ? w : `${n} \u00d7 ${w}`;
  }
  if (n === null && def.defaultCount !== undefined) n = def.defaultCount;
  if (n === null) return def.label;
  if (def.noun) return `${n} ${plural(n, def.noun[0], def.noun[1])}`;
  switch (def.kind) {
    case 'mass': return `${n} ${def.label}`;
    case 'level': return `${def.label} ${n}`;
    case 'token': return `${def.label}, ${n} ${plural(n, 'point', 'points')}`;
    case 'defeat': {
      const v = typeof n === 'number' ? -Math.abs(n) : n;
      return `${def.label}, ${v} ${plural(v, 'point', 'points')}`;
    }
    default: return `${n} \u00d7 ${def.label}`;
  }
}

// ---- building ---------------------------------------------------------------------------------------------

function build(spec) {
  if (typeof spec === 'string') return document.createTextNode(spec);
  const [tag, attrs, ...children] = spec;
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  for (const child of children) if (child !== null && child !== undefined) node.appendChild(build(child));
  return node;
}

function svgOf(children, width = 24) {
  const svg = build(['svg', { viewBox: `0 0 ${width} 24`, 'aria-hidden': 'true', focusable: 'false' }, ...children]);
  if (width !== 24) svg.style.width = `calc(var(--icon-size, 1.25em) * ${f1(width / 24)})`;
  return svg;
}

// built SVGs are kept (by name and count) and cloned: a board redraw builds the same icons many times
const cache = new Map();
const CACHE_MAX = 600;

function drawSvg(name, def, n) {
  const key = `${name}|${n === null ? '' : n}`;
  let svg = cache.get(key);
  if (!svg) {
    if (def.show === 'shields' && typeof n === 'number' && n >= 1 && n <= 3 && Number.isInteger(n)) {
      // 1 to 3 shields side by side (overlapping), more as one shield with the number
      const one = def.draw(null);
      const kids = [];
      for (let i = 0; i < n; i++) kids.push(G(i ? { transform: `translate(${i * 13} 0)` } : {}, ...one));
      svg = svgOf(kids, 24 + 13 * (n - 1));
    } else {
      svg = svgOf(def.draw(def.show === 'inside' || def.show === 'shields' ? n : null));
    }
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value);
    cache.set(key, svg);
  }
  return svg.cloneNode(true);
}

/**
 * An icon element: <span class="icon icon-NAME" role="img" aria-label title data-icon><svg aria-hidden="true"></span>.
 * options: label (the accessible name; default iconLabel(name, count)), count (drawn on or beside the icon),
 * size ("sm" | "lg"). Unknown names draw the question mark with the label given (or the name in words).
 */
export function icon(name, { label, count, size } = {}) {
  const known = isIcon(name);
  const key = known ? name : 'question';
  const def = DEFS[key];
  const n = normCount(count);
  const text = (label !== undefined && label !== null && String(label).trim() !== '') ? String(label)
    : iconLabel(name, n);

  const span = document.createElement('span');
  span.className = `icon icon-${key}`;
  if (size === 'sm' || size === 'lg') span.classList.add(size);
  span.setAttribute('role', 'img');
  span.setAttribute('aria-label', text);
  span.title = text;
  span.dataset.icon = key;
  if (!known) span.dataset.unknown = String(name);

  const svg = drawSvg(key, def, n);
  if (svg.style.width) span.classList.add('wide');

  // counts that are not drawn inside: "2×" before (when more than one), or the number after (levels)
  let countText = null, after = false;
  if (n !== null) {
    if (def.show === 'after') { countText = shown(n); after = true; }
    else if (def.show === 'prefix' && !(typeof n === 'number' && n <= 1)) countText = `${shown(n)}\u00d7`;
  }
  if (countText !== null) {
    const c = document.createElement('span');
    c.className = 'count';
    c.setAttribute('aria-hidden', 'true');
    c.textContent = countText;
    span.classList.add('counted');
    if (after) span.append(svg, c); else span.append(c, svg);
  } else {
    span.append(svg);
  }
  return span;
}

// ---- card colours ---------------------------------------------------------------------------------------

const COLOR_ALIASES = { gray: 'grey', raw: 'brown', manufactured: 'grey', civilian: 'blue', commercial: 'yellow', military: 'red', scientific: 'green', science: 'green', guild: 'purple' };

function colorKey(color) {
  let c = String(color ?? '').trim().toLowerCase();
  if (c.startsWith('color_')) c = c.slice(6);
  return COLOR_ALIASES[c] || c;
}

/** The colour's name in words: colorName("grey") -> "grey", colorName("gray") -> "grey". */
export function colorName(color) {
  const c = colorKey(color);
  return c || 'unknown';
}

/** The card colour as a shape icon (hexagon, diamond, temple, coin bag, swords, flask, crown), labelled in words. */
export function colorShape(color, options = {}) {
  const c = colorKey(color);
  const name = `color_${c}`;
  if (isIcon(name)) return icon(name, options);
  return icon('question', { ...options, label: options.label || `${colorName(color)} card` });
}
