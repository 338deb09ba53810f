// The 7 Wonders table (with Armada): your left and right neighbours on your left and right, every
// city by colour, wonder boards with each stage's cost and effect, what neighbours sell and your
// price, coins, shields, military tokens, science, who has chosen; compact other players.
import { cardTile, colorWords, detailAttrs, effectIcons, stageTile } from "./cards.js";
import { clockChip } from "./clock.js";
import { cardInfo, colorOrder, islandInfo, shipSpace, wonderInfo } from "./catalog.js";
import { icon } from "./icons.js";
import { h, listWords, plural, remembered, words } from "./ui.js";

const RESOURCE_ORDER = ["wood", "stone", "clay", "ore", "glass", "papyrus", "loom"];
const TRACKS = ["red", "yellow", "blue", "green"];

export function militaryPoints(tokens) {
  return (tokens || []).reduce((a, b) => a + b, 0);
}

function statLine(p, ctx) {
  const victory = (p.military_tokens || []).filter((t) => t > 0);
  const defeats = (p.military_tokens || []).filter((t) => t < 0);
  const sci = p.science || {};
  const chosen = ctx.view.phase === "pick" ? (p.has_chosen ? icon("check", { label: "has chosen" }) : icon("hourglass", { label: "still choosing" })) : null;
  return h("ul", { class: "stats", "aria-label": `${ctx.name(p.seat)}: coins, shields and tokens` }, [
    h("li", {}, [icon("coin", { count: p.coins, label: plural(p.coins, "coin") })]),
    h("li", {}, [icon("shield", { count: p.shields, label: plural(p.shields, "shield") })]),
    victory.length ? h("li", { class: "tokens" }, victory.map((t) => icon("victory_token", { count: t, label: `victory token, ${plural(t, "point")}` }))) : null,
    defeats.length ? h("li", { class: "tokens" }, [icon("defeat_token", { count: defeats.length, label: `${plural(defeats.length, "defeat token")} (${defeats.length === 1 ? "−1 point" : `${defeats.length} × −1 point`})` })]) : null,
    ...["compass", "gear", "tablet", "any"].filter((s) => sci[s]).map((s) =>
      h("li", {}, [icon(s === "any" ? "science_any" : s, { count: sci[s], label: `${sci[s]} × ${s === "any" ? "any science symbol" : s}` })])),
    chosen ? h("li", { class: "chosen" }, [chosen]) : null,
    ctx.clock ? h("li", { class: "clock" }, [clockChip(ctx.clock, p.seat, p.seat === ctx.me ? "You" : ctx.name(p.seat))]) : null,
  ]);
}

function productionLine(p, label) {
  const prod = p.production || { resources: {}, choices: [] };
  const items = [
    ...Object.entries(prod.resources).map(([r, n]) => icon(r, { count: n })),
    ...prod.choices.map((c) => h("span", { class: "choice", role: "img", "aria-label": `${c.join(" or ")}`, title: `${c.join(" or ")}` },
      c.flatMap((r, i) => (i ? [h("span", { class: "or", "aria-hidden": "true" }, ["/"]), icon(r)] : [icon(r)])))),
  ];
  return h("div", { class: "production" }, [h("span", { class: "label" }, [label]), items.length ? items : h("span", { class: "muted" }, ["nothing yet"])]);
}

// What this neighbour sells and what you pay them for each resource.
function marketLine(p, ctx, side) {
  const me = ctx.view.players[ctx.me];
  const prices = me.prices ? me.prices[side] : null;
  const sells = p.sells || { resources: {}, choices: [] };
  const offered = new Set([...Object.keys(sells.resources), ...sells.choices.flat()]);
  const items = RESOURCE_ORDER.filter((r) => offered.has(r)).map((r) => {
    const price = prices ? prices[r] : 2;
    const label = `${r} for ${plural(price, "coin")}`;
    return h("span", { class: `price${price < 2 ? " cheap" : ""}`, role: "img", "aria-label": label, title: label }, [icon(r), h("span", { class: "n", "aria-hidden": "true" }, [price])]);
  });
  return h("div", { class: "market" }, [
    h("span", { class: "label" }, [`You buy from ${ctx.name(p.seat)}:`]),
    items.length ? items : h("span", { class: "muted" }, ["nothing to sell"]),
  ]);
}

function wonderBoard(p, ctx) {
  const info = wonderInfo("classic", p.wonder);
  const start = info ? info.starting_resource : null;
  const stages = [];
  const built = new Set(p.built_stages || []);
  const total = p.stages_total;
  const anyOrder = (p.built_stages || []).some((s, i) => s !== i + 1);
  for (let n = 1; n <= total; n++) {
    const isBuilt = built.size ? built.has(n) : n <= p.stages_built;
    const next = !isBuilt && !anyOrder && n === p.stages_built + 1;
    stages.push(stageTile(p.wonder, p.side, n, { built: isBuilt, next }));
  }
  return h("div", { class: "wonder-board" }, [
    h("div", { class: "wonder-name" }, [
      icon("wonder", { label: "wonder" }), `${p.wonder} (${p.side})`,
      start ? h("span", { class: "starts", title: `starts with 1 ${start}` }, ["· starts with ", icon(start)]) : null,
      h("span", { class: "muted" }, [`· ${p.stages_built} of ${total} stages built`]),
    ]),
    h("ol", { class: "stages", "aria-label": `Stages of ${p.wonder}` }, stages),
  ]);
}

function cityByColour(p, ctx, compact) {
  const groups = new Map();
  for (const name of p.city) {
    const info = cardInfo("classic", name);
    const color = info ? info.color : "unknown";
    if (!groups.has(color)) groups.set(color, []);
    groups.get(color).push(name);
  }
  const fresh = ctx.lastMoves && ctx.lastMoves[p.seat];
  const ordered = [...groups.entries()].sort((a, b) => colorOrder(a[0]) - colorOrder(b[0]));
  if (!ordered.length) return h("p", { class: "muted city-empty" }, ["No buildings yet."]);
  return h("div", { class: "city" }, ordered.map(([color, names]) =>
    h("div", { class: `color-group g-${color}`, role: "group", "aria-label": `${colorWords(color)}: ${plural(names.length, "card")}` }, [
      h("ul", { class: "cards-row" }, names.map((name) => h("li", {}, [cardTile("classic", name, {
        compact: true, ...(fresh && fresh.card === name && fresh.type === "build" ? { class: "fresh", note: "new" } : {}),
      })]))),
    ])));
}

function shipyard(p, ctx) {
  const yard = p.shipyard;
  if (!yard) return null;
  const mine = ctx.me === p.seat;
  const rows = TRACKS.map((track) => {
    const at = yard.ships[track];
    const cells = [];
    for (let i = 1; i <= 6; i++) {
      const space = shipSpace(track, i);
      const here = i === at;
      const label = `${track} track space ${i}${here ? " (ship here)" : i < at ? " (passed)" : ""}: ${space ? space.text : ""}`;
      cells.push(h("li", { class: `space${here ? " ship" : ""}${i < at ? " passed" : ""}` }, [
        h("span", { class: "space-tile", title: label, "aria-label": label, ...detailAttrs({ kind: "space", track, space: i, board: yard.board, at }) }, [
          here ? icon("ship", { label: "ship" }) : h("span", { "aria-hidden": "true" }, [i]),
          // what the space gives, printed on the board (not only in its tooltip and panel)
          h("span", { class: "space-gives", "aria-hidden": "true" }, [space && space.effects.length ? effectIcons(space.effects) : "–"]),
        ]),
      ]));
    }
    const next = yard.next_costs ? yard.next_costs[track] : null;
    const nextText = next === null ? "at the top" : next ? `next step costs ${listWords(Object.entries(next).map(([r, n]) => (r === "coins" ? plural(n, "coin") : `${n} ${r}`))) || "nothing"}` : "";
    return h("div", { class: `track t-${track}`, dataset: { track, position: String(at) } }, [
      h("span", { class: "tname" }, [icon(`track_${track}`), words(track), yard.wonder_track === track ? icon("wonder", { label: "wonder stages move this ship" }) : null]),
      h("ol", { class: "spaces", "aria-label": `${track} ship at space ${at} of 6` }, cells),
      mine ? h("span", { class: "next muted" }, [nextText]) : null,
    ]);
  });
  const tokens = yard.naval_tokens || [];
  return h("div", { class: "shipyard", role: "group", "aria-label": `${ctx.name(p.seat)}'s shipyard (${yard.board})` }, [
    h("div", { class: "shipyard-head" }, [
      h("strong", {}, [yard.board]),
      icon("naval_strength", { count: yard.naval_strength, label: `naval strength ${yard.naval_strength}` }),
      icon("commercial_level", { count: yard.commercial_level, label: `commercial level ${yard.commercial_level}` }),
      ...tokens.map((t) => icon(t > 0 ? "naval_victory" : "naval_defeat", { count: t, label: `naval token ${t > 0 ? "+" : ""}${t}` })),
    ]),
    ...rows,
    h("div", { class: "islands" }, yard.islands.length ? yard.islands.map((name) => {
      const info = islandInfo(name);
      const text = `${name}${info ? `: ${info.text}` : ""}`;
      return h("span", { class: "island", title: text, "aria-label": text, ...detailAttrs({ kind: "island", name }) }, [icon("island", { label: "island" }), name, info ? effectIcons(info.effects) : null]);
    }) : [h("span", { class: "muted" }, ["no islands"])]),
  ]);
}

function relationWords(seat, ctx) {
  const me = ctx.view.players[ctx.me];
  if (ctx.me === null || ctx.me === undefined) return "";
  if (seat === ctx.me) return "you";
  if (me && seat === me.left) return "your left neighbour";
  if (me && seat === me.right) return "your right neighbour";
  return "";
}

// One player's region, named with the player's name.
export function playerPanel(p, ctx, { compact = false } = {}) {
  const relation = relationWords(p.seat, ctx);
  const title = `${ctx.name(p.seat)}${relation ? ` (${relation})` : ""}`;
  const me = ctx.view.players[ctx.me];
  const side = me && p.seat !== ctx.me ? (p.seat === me.left ? "left" : p.seat === me.right ? "right" : null) : null;
  const city = [wonderBoard(p, ctx), cityByColour(p, ctx, compact), productionLine(p, "Produces:")];
  const body = [
    statLine(p, ctx),
    // your own wonder, buildings and production form the region "Your city"
    p.seat === ctx.me ? h("section", { class: "your-city", "aria-label": "Your city" }, city) : city,
    side ? marketLine(p, ctx, side) : null,
    shipyard(p, ctx),
  ];
  const classes = `player${p.seat === ctx.me ? " me" : ""}${side ? ` neighbour ${side}` : ""}${p.has_chosen ? " chosen" : ""}`;
  const heading = h("h3", { class: "player-name" }, [
    h("span", {}, [ctx.name(p.seat)]),
    relation ? h("span", { class: "relation" }, [relation]) : null,
    h("span", { class: "wonder-chip" }, [`${p.wonder} · ${p.side}`]),
  ]);
  if (!compact) return h("section", { class: classes, "aria-label": title, dataset: { seat: String(p.seat) } }, [heading, ...body]);
  // folded, its summary still says what the player has: coins, shields, tokens, what the city
  // produces and how many buildings it has (opened, the whole city shows it)
  const built = (p.city || []).length;
  const folded = h("div", { class: "folded-summary" }, [
    productionLine(p, "Produces:"),
    built ? h("span", { class: "muted built-count" }, [plural(built, "building")]) : null,
  ]);
  const details = h("details", { class: "player-details" }, [
    h("summary", {}, [heading, statLine(p, ctx), folded]),
    ...body.slice(1),
  ]);
  remembered(details, `player-${p.seat}`);
  return h("section", { class: `${classes} compact`, "aria-label": title, dataset: { seat: String(p.seat) } }, [details]);
}

// Seats around the table starting from `from`, going right (the order cards pass in Age I is left).
function around(view, from) {
  const out = [];
  let seat = from;
  for (let i = 0; i < view.players.length; i++) {
    out.push(seat);
    seat = view.players[seat].right;
  }
  return out;
}

export function renderClassicBoard(ctx) {
  const view = ctx.view;
  const players = view.players;
  const many = players.length >= 6;
  if (ctx.me === null || ctx.me === undefined) {
    return h("div", { class: `players spectator${many ? " many" : ""}` }, players.map((p) => playerPanel(p, ctx, { compact: many })));
  }
  const me = players[ctx.me];
  const others = around(view, me.right).slice(1).filter((s) => s !== me.left && s !== ctx.me);
  const narrow = window.matchMedia("(max-width: 640px)").matches;
  const row = h("div", { class: "neighbours" }, [
    playerPanel(players[me.left], ctx, { compact: narrow }),
    playerPanel(me, ctx),
    playerPanel(players[me.right], ctx, { compact: narrow }),
  ]);
  const rest = others.length
    ? h("div", { class: "others" }, [
      h("h2", { class: "section-title" }, [`Other players (${others.length})`]),
      h("div", { class: "players" }, others.reverse().map((s) => playerPanel(players[s], ctx, { compact: true }))),
    ])
    : null;
  return h("div", { class: "classic-board" }, [row, rest]);
}

export function tableFacts(view) {
  const facts = [];
  if (view.age) facts.push(`Age ${["", "I", "II", "III"][view.age]}`);
  if (view.turn) facts.push(`turn ${view.turn} of ${view.turns_per_age}`);
  if (view.direction) facts.push(`cards pass to the ${view.direction}`);
  if (view.discard_pile_size !== undefined) facts.push(`discard pile: ${plural(view.discard_pile_size, "card")}`);
  return facts;
}

export { listWords };
