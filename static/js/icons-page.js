// The icon legend (static/icons.html): the abilities of the box with their icons and the catalog's
// words, then every icon at every size, with counts, colours and in text. Opened from a room's table
// (?room=CODE), it links back to that table.
import { icon, ICONS, iconLabel, colorName, colorShape } from '/static/js/icons.js';
import { effectIcons } from '/static/js/cards.js';
import { loadCatalog } from '/static/js/catalog.js';

const $ = (id) => document.getElementById(id);

const room = new URLSearchParams(window.location.search).get('room');
if (room && /^[A-Za-z0-9]+$/.test(room)) {
  $('back').href = `/room.html?code=${encodeURIComponent(room)}`;
  $('back').textContent = '← Back to the table';
}

// Effects drawn with an icon of their own and no number: the abilities, and Armada's lasting effects.
const ABILITY_TYPES = new Set(['ability', 'coin_loss_immunity', 'naval_defeat_immunity', 'naval_discount', 'science_most_common']);

function abilities(data) {
  const found = new Map(); // ability name -> {effect, where: [names]}
  const visit = (effects, where) => {
    for (const e of effects || []) {
      if (!ABILITY_TYPES.has(e.type)) continue;
      const key = e.type === 'ability' ? e.ability : e.type;
      if (!found.has(key)) found.set(key, { effect: e, where: [] });
      if (!found.get(key).where.includes(where)) found.get(key).where.push(where);
    }
  };
  for (const game of ['classic', 'armada', 'duel']) {
    const part = data[game];
    for (const card of Object.values(part.cards || {})) visit(card.effects, card.name);
    for (const wonder of Object.values(part.wonders || {})) {
      if (wonder.sides) for (const stages of Object.values(wonder.sides)) for (const s of stages) visit(s.effects, wonder.name);
      else visit(wonder.effects, wonder.name);
    }
    for (const token of Object.values(part.progress_tokens || {})) visit(token.effects, token.name);
    for (const island of Object.values(part.islands || {})) visit(island.effects, island.name);
  }
  return found;
}

loadCatalog().then((data) => {
  for (const { effect, where } of abilities(data).values()) {
    const li = el('li', 'ability');
    const words = el('span', 'ability-words', effect.text.charAt(0).toUpperCase() + effect.text.slice(1));
    li.append(effectIcons([effect]), words, el('span', 'ability-where', where.join(', ')));
    $('abilities').append(li);
  }
}).catch(() => {
  $('abilities').append(el('li', 'ability', 'The abilities could not be loaded.'));
});
const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };

function cell(nodes, label, name) {
  const c = el('div', 'cell');
  const row = el('div', 'sizes');
  row.append(...nodes);
  c.append(row, el('div', 'label', label), el('div', 'name', name));
  return c;
}

for (const name of ICONS) {
  $('all').append(cell([icon(name, { size: 'sm' }), icon(name), icon(name, { size: 'lg' })], iconLabel(name), name));
}
$('all').append(cell([icon('no_such_icon'), icon('no_such_icon', { label: 'mystery', size: 'lg' })], 'unknown name → question', 'no_such_icon'));

const counted = [
  ['coin', 0], ['coin', 1], ['coin', -2], ['coin', 3], ['coin', 12], ['points', 1], ['points', 7], ['points', 12],
  ['shield', 1], ['shield', 2], ['shield', 3], ['shield', 5], ['wood', 1], ['wood', 2], ['papyrus', 3],
  ['victory_token', 1], ['victory_token', 3], ['victory_token', 5], ['defeat_token', undefined],
  ['naval_victory', 7], ['naval_defeat', 2], ['naval_strength', 2], ['commercial_level', 3],
  ['compass', 2], ['ship', 3], ['card_back', 4], ['chain', 2],
];
for (const [name, count] of counted) {
  $('counts').append(cell([icon(name, { count, size: 'sm' }), icon(name, { count }), icon(name, { count, size: 'lg' })],
    iconLabel(name, count), count === undefined ? name : `${name}, ${count}`));
}

for (const color of ['brown', 'grey', 'blue', 'yellow', 'red', 'green', 'purple']) {
  const shape = colorShape(color, { size: 'lg' });
  $('colors').append(cell([colorShape(color), shape], shape.getAttribute('aria-label'), `colorName: ${colorName(color)}`));
}

for (const name of ICONS) $('dark').append(icon(name, { size: 'lg' }));

const line = (parts, cls) => { const p = el('p', cls); for (const x of parts) p.append(typeof x === 'string' ? x : x); return p; };
for (const cls of ['', 'big']) {
  $('inline').append(
    line(['Build for ', icon('wood', { count: 2 }), ' ', icon('ore'), ' ', icon('coin', { count: 1 }), ' — gives ', icon('points', { count: 3 }),
      ' and ', icon('shield', { count: 2 }), '; chains from ', icon('chain'), ' Baths.'], cls),
    line(['Buy ', icon('clay'), ' from ', icon('arrow_left'), ' or ', icon('arrow_right'), ' for ', icon('coin', { count: 2 }),
      '. ', icon('check'), ' Ana has chosen, ', icon('hourglass'), ' Bo is thinking. ', colorShape('green'), ' ', icon('gear'), ' ', icon('tablet'), ' ', icon('compass')], cls),
  );
}
