// Cards, wonder stages, tokens and islands drawn as tiles: colour (with its shape and name), cost as
// icons, effects as icons, chains; the engine's sentence on hover (title) and in the accessible name.
// A tile that is not itself a button opens its detail panel (details.js) by click, tap, Enter or
// Space (`detailAttrs`); a tile that is a button (a card to choose) gets a Details button beside it.
import { cardInfo, stageInfo } from "./catalog.js";
import { colorName, colorShape, icon } from "./icons.js";
import { ageName, h, listWords, plural } from "./ui.js";

const COLOR_KIND = {
  brown: "raw material", grey: "manufactured good", blue: "civilian", yellow: "commercial",
  red: "military", green: "scientific", purple: "guild",
};

export function colorWords(color) {
  return `${COLOR_KIND[color] || color} (${colorName(color)})`;
}

// ----- costs --------------------------------------------------------------------------------------

// Why a build is free (the engine's `free` field of an action or move).
const FREE = {
  chain: "by chain",
  first_of_color: "Olympia: the first card of its colour",
  first_of_age: "Olympia: the first card of the Age",
  last_of_age: "Olympia: the last card of the Age",
};

export function freeWords(reason) {
  return FREE[reason] || String(reason).replaceAll("_", " ");
}

export function costWords(cost) {
  if (!cost) return "free";
  const parts = Object.entries(cost.resources || {}).map(([r, n]) => `${n} ${r}`);
  if (cost.coins) parts.push(plural(cost.coins, "coin"));
  return parts.length ? listWords(parts) : "free";
}

export function costIcons(cost, { free = null } = {}) {
  const label = free ? `free (${free})` : `cost: ${costWords(cost)}`;
  const box = h("span", { class: "cost", role: "img", "aria-label": label, title: label });
  if (free) {
    box.append(icon("free", { label: `free (${free})` }));
    return box;
  }
  const resources = Object.entries((cost && cost.resources) || {});
  if (cost && cost.coins) box.append(icon("coin", { count: cost.coins }));
  for (const [r, n] of resources) box.append(icon(r, { count: n }));
  if (!box.children.length) box.append(h("span", { class: "free-text" }, ["free"]));
  return box;
}

// ----- effects ------------------------------------------------------------------------------------

const SIDE_ICON = { left: "arrow_left", right: "arrow_right" };

function sidesIcons(sides) {
  const set = new Set(sides);
  if (set.has("left") && set.has("right")) return [icon("arrow_both")];
  return [...set].filter((s) => SIDE_ICON[s]).map((s) => icon(SIDE_ICON[s]));
}

function whoseIcons(whose) {
  const out = [];
  if ((whose || []).includes("self")) out.push(h("span", { class: "whose", "aria-hidden": "true" }, ["you"]));
  out.push(...sidesIcons((whose || []).filter((w) => w !== "self")));
  return out;
}

function countedIcons(what, colors) {
  if (what === "card" || what === "cards") return (colors || []).map((c) => colorShape(c));
  if (what === "wonder_stage" || what === "wonder") return [icon("wonder")];
  if (what === "military_defeat_token") return [icon("defeat_token")];
  if (what === "coin_sets") return [icon("coin", { count: 3 })];
  return [icon("question", { label: what })];
}

const per = () => h("span", { class: "per", "aria-hidden": "true" }, ["/"]);
const or = () => h("span", { class: "or", "aria-hidden": "true" }, ["/"]);

// The icons of one effect of the engine's vocabulary (its words are the catalog's `text`).
function effectParts(e) {
  switch (e.type) {
    case "produce":
      return Object.entries(e.resources).map(([r, n]) => icon(r, { count: n }));
    case "produce_one_of":
      return e.options.flatMap((r, i) => (i ? [or(), icon(r)] : [icon(r)]));
    case "vp":
      return [icon("points", { count: e.amount })];
    case "shields":
      return [icon("shield", { count: e.amount })];
    case "science":
      return [icon(e.symbol === "any" ? "science_any" : e.symbol)];
    case "coins":
      return [icon("coin", { count: e.amount })];
    case "trade_discount":
      return [...sidesIcons(e.sides), ...e.resources.map((r) => icon(r)), icon("coin", { count: e.price })];
    case "coins_per":
      return [icon("coin", { count: e.amount }), per(), ...countedIcons(e.what, e.colors), ...whoseIcons(e.whose)];
    case "vp_per":
      return [icon("points", { count: e.amount }), per(), ...countedIcons(e.what, e.colors), ...whoseIcons(e.whose)];
    case "vp_if_wonder_complete":
      return [icon("points", { count: e.amount }), icon("wonder")];
    // Armada
    case "naval_strength":
      return [icon("naval_strength", { count: e.amount })];
    case "commercial_level":
      return [icon("commercial_level", { count: e.amount })];
    case "tax":
      return [icon("tax"), icon("coin", { count: e.amount })];
    case "explore":
      return [icon("explore"), h("span", { class: "lvl", "aria-hidden": "true" }, [e.level])];
    case "take_island":
      return [icon("island"), h("span", { class: "lvl", "aria-hidden": "true" }, [e.level])];
    case "ship_move":
      return [icon("ship", { count: e.count })];
    case "piracy":
      return [icon("piracy")];
    case "landing":
      return [icon("landing")];
    case "far_trade":
      return [icon(SIDE_ICON[e.side] || "arrow_both"), icon(SIDE_ICON[e.side] || "arrow_both"), icon("resource_any"), icon("coin", { count: e.price })];
    case "vp_per_commercial_level":
      return [icon("points", { count: e.amount }), per(), icon("commercial_level")];
    case "vp_per_island":
      return [icon("points", { count: e.amount }), per(), icon("island")];
    case "vp_per_best_color":
      return [icon("points", { count: e.amount }), per(), icon("card_back")];
    case "coins_per_ship_move":
      return [icon("coin", { count: e.amount }), per(), icon("ship")];
    // Duel
    case "fixed_price":
      return [...e.resources.map((r) => icon(r)), icon("coin", { count: e.price })];
    case "guild": {
      const out = [];
      if (e.coins_per) out.push(icon("coin", { count: e.coins_per }));
      if (e.vp_per) out.push(icon("points", { count: e.vp_per }));
      return [...out, per(), ...countedIcons(e.what, e.colors)];
    }
    case "destroy":
      return [icon("discard"), colorShape(e.color)];
    case "opponent_loses_coins":
      return [icon("coin", { count: -e.amount })];
    case "progress_from_box":
      return [icon("progress_token")];
    case "cost_reduction":
      return [e.applies_to === "wonder" ? icon("wonder") : colorShape(e.applies_to), h("span", { class: "lvl", "aria-hidden": "true" }, [`−${e.amount}`]), icon("resource_any")];
    case "vp_per_progress_token":
      return [icon("points", { count: e.amount }), per(), icon("progress_token")];
    case "extra_shields":
      return [icon("shield", { count: e.amount }), per(), ...e.colors.map((c) => colorShape(c))];
    case "coins_on_chain":
      return [icon("coin", { count: e.amount }), per(), icon("chain")];
    // abilities and Armada's lasting effects: one icon each, named as the engine names them
    case "ability":
      return [icon(e.ability, { label: e.text || e.ability })];
    default:
      return [icon(e.type, { label: e.text || e.type })];
  }
}

export function effectIcons(effects) {
  return h("span", { class: "effects" }, (effects || []).map((e) =>
    h("span", { class: `effect fx-${e.type}`, role: "img", "aria-label": e.text || e.type, title: e.text || e.type }, effectParts(e))));
}

// ----- detail panels ------------------------------------------------------------------------------

// What a detail panel shows, as the element's data-detail: {kind: "card", game, name} | {kind: "stage",
// wonder, side, n} | {kind: "wonder", game, name} | {kind: "token", name} | {kind: "island", name} |
// {kind: "space", track, space, board?, at?}.
export function detailAttrs(detail) {
  return { "data-detail": JSON.stringify(detail), tabindex: "0", role: "button", "aria-haspopup": "dialog" };
}

// A small button that opens the detail panel of a tile that is itself a button.
export function detailButton(detail, name) {
  return h("button", {
    type: "button", class: "detail-open", "data-detail": JSON.stringify(detail), "aria-haspopup": "dialog",
    "aria-label": `Details of ${name}`, title: `Details of ${name}`,
  }, [h("span", { "aria-hidden": "true" }, ["i"])]);
}

// ----- tiles ----------------------------------------------------------------------------------------

function chainLine(info) {
  const parts = [];
  if (info.chain_from && info.chain_from.length) parts.push(`free with ${listWords(info.chain_from)}`);
  if (info.chain_to && info.chain_to.length) parts.push(`makes ${listWords(info.chain_to)} free`);
  return parts;
}

// The Ages a card is dealt in (Loom, Press, Glassworks at 4 players: I and II).
function cardAges(info) {
  return info.ages && info.ages.length ? info.ages : [info.age];
}

// The Age a card shows: the current one (`age`, when the card is held in it) if the card is dealt
// in that Age, else every Age it is dealt in.
function shownAges(info, age) {
  const ages = cardAges(info);
  return age && ages.includes(age) ? [age] : ages;
}

// A card's whole description in words: name first (its accessible name starts with it).
export function cardWords(name, info, age = null) {
  if (!info) return name;
  const chain = chainLine(info);
  const ages = listWords(shownAges(info, age).map(ageName));
  return `${name}: ${colorWords(info.color)} card of ${ages}, costs ${costWords(info.cost)}. ${info.text}` +
    `${chain.length ? ` Chain: ${chain.join("; ")}.` : ""}`;
}

// A card tile. opts: {game, compact, tag ("div" | "button" | "li"), extra classes, extra attributes,
// age: the Age the card is held in (a card dealt in two Ages shows that one)}
export function cardTile(game, name, opts = {}) {
  const info = cardInfo(game, name);
  const color = info ? info.color : "unknown";
  const words = cardWords(name, info, opts.age);
  const tag = opts.tag || "div";
  const attrs = {
    class: `card c-${color}${opts.compact ? " compact" : ""}${opts.class ? ` ${opts.class}` : ""}`,
    "aria-label": opts.label || (opts.note ? words.replace(`${name}:`, `${name} (${opts.note}):`) : words),
    title: words,
    dataset: { card: name },
    ...(opts.attrs || {}),
  };
  if (tag === "div") Object.assign(attrs, detailAttrs({ kind: "card", game, name }));
  const head = h("span", { class: "card-head" }, [
    colorShape(color),
    h("span", { class: "card-name" }, [name]),
    opts.note ? h("span", { class: "card-note", "aria-hidden": "true" }, [opts.note]) : null,
    info && !opts.compact
      ? h("span", { class: "card-age", "aria-hidden": "true" }, [shownAges(info, opts.age).map((a) => ageName(a).replace("Age ", "")).join("·")])
      : null,
    info && opts.compact && info.chain_to && info.chain_to.length
      ? h("span", { class: "card-chain" }, [icon("chain", { size: "sm", label: `makes ${listWords(info.chain_to)} free` })]) : null,
  ]);
  if (!info) return h(tag, attrs, [head]);
  const body = h("span", { class: "card-body" }, [
    opts.compact ? null : costIcons(info.cost),
    effectIcons(info.effects),
  ]);
  const chain = opts.compact ? null : chainBox(info);
  return h(tag, attrs, [head, body, chain]);
}

function chainBox(info) {
  const from = info.chain_from || [];
  const to = info.chain_to || [];
  if (!from.length && !to.length) return null;
  return h("span", { class: "chain" }, [
    from.length ? h("span", { class: "chain-from" }, [icon("chain", { label: "chain" }), `free with ${from.join(" or ")}`]) : null,
    to.length ? h("span", { class: "chain-to" }, [icon("chain", { label: "chain" }), `→ ${to.join(", ")} free`]) : null,
  ]);
}

// A wonder stage (classic): "Stage 2", its cost and what it gives; built or not.
export function stageTile(wonder, side, n, { built = false, next = false } = {}) {
  const info = stageInfo(wonder, side, n);
  const state = built ? "built" : next ? "next to build" : "not built";
  const text = info ? `Stage ${n} of ${wonder}: costs ${costWords(info.cost)}; ${info.text} (${state})` : `Stage ${n} (${state})`;
  return h("li", { class: `stage${built ? " built" : ""}${next ? " next" : ""}` }, [
    h("span", { class: "stage-tile", "aria-label": text, title: text, ...detailAttrs({ kind: "stage", wonder, side, n }) }, [
      h("span", { class: "stage-n" }, [icon("wonder", { label: `stage ${n}` }), n, built ? icon("check", { label: "built" }) : null]),
      info ? costIcons(info.cost) : null,
      info ? effectIcons(info.effects) : null,
    ]),
  ]);
}

// A tile for anything else the catalog describes (Duel wonder, progress token, island).
export function componentTile(info, { tag = "div", cls = "", label = null, attrs = {} } = {}) {
  const words = label || `${info.name}: ${info.cost ? `costs ${costWords(info.cost)}. ` : ""}${info.text}`;
  const out = {
    class: `tile k-${info.kind}${cls ? ` ${cls}` : ""}`,
    "aria-label": words,
    title: words,
    dataset: { name: info.name },
    ...attrs,
  };
  if (tag === "div") Object.assign(out, detailAttrs(componentDetail(info)));
  return h(tag, out, [
    h("span", { class: "tile-head" }, [h("span", { class: "tile-name" }, [info.name])]),
    h("span", { class: "card-body" }, [info.cost ? costIcons(info.cost) : null, effectIcons(info.effects)]),
  ]);
}

// The detail of a component the catalog describes (a Duel wonder, a progress token, an island).
export function componentDetail(info) {
  if (info.kind === "progress_token") return { kind: "token", name: info.name };
  if (info.kind === "island") return { kind: "island", name: info.name };
  return { kind: "wonder", game: info.game, name: info.name };
}
