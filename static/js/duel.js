// 7 Wonders Duel's table: the wonder draft, the card structure (click an accessible card, then one of
// its uses), the military track with the pawn, its zones and the loot tokens still on it, the
// progress tokens on the board, each player's city, wonders, science and prices, the discard pile,
// and the decisions (destroy, build from the discard, choose a token, choose who starts).
//
// renderDuel(ctx) -> { board, decision }: room.js puts `board` in #board and `decision` (or nothing)
// in #decision; replay.js shows `board` only (ctx.interactive false: read-only, no buttons).
import { cardTile, cardWords, colorWords, componentTile, costIcons, costWords, effectIcons } from "./cards.js";
import { clockChip } from "./clock.js";
import { cardInfo, catalog, colorOrder, tokenInfo, wonderInfo } from "./catalog.js";
import { colorShape, icon } from "./icons.js";
import { ageName, h, listWords, plural, remembered, words } from "./ui.js";

const RESOURCES = ["wood", "clay", "stone", "glass", "papyrus"];
const SCIENCE = ["armillary_sphere", "wheel", "sundial", "mortar", "plumb_line", "quill", "law"];

// The card of the structure the player clicked: {card} (forgotten when it is no longer accessible).
let selected = null;
// After a selection, focus goes to the card's first use (keyboard players land on the choices).
let focusUses = false;

// ----- small helpers ----------------------------------------------------------------------------

function track() {
  const data = catalog();
  return (data && data.duel && data.duel.military_track) || {
    capital: 9,
    vp_zones: [{ from: 1, to: 2, vp: 2 }, { from: 3, to: 5, vp: 5 }, { from: 6, to: 8, vp: 10 }],
    loot_tokens: [{ from: 3, to: 5, coins: 2 }, { from: 6, to: 8, coins: 5 }],
  };
}

// A player by name, never by seat number.
function who(ctx, seat) {
  return ctx.name(seat);
}

function possessive(name) {
  return `${name}’s`;
}

function backName(back) {
  if (back === "guild") return "Guild";
  const m = /^age (\d)$/.exec(back || "");
  return m ? ageName(Number(m[1])) : words(back || "card");
}

function symbolName(symbol) {
  return symbol === "any" ? "any science symbol" : words(symbol);
}

// A tile (wonder, progress token) with its sentence written out under the icons.
function tileWithText(info, opts = {}) {
  const tile = componentTile(info, opts);
  tile.append(h("span", { class: "tile-text" }, [info.text]));
  return tile;
}

function unknownTile(name, tag = "div", attrs = {}) {
  return h(tag, { class: "tile", ...attrs, ...(tag === "div" ? { role: "group", "aria-label": name } : {}) }, [
    h("span", { class: "tile-head" }, [h("span", { class: "tile-name" }, [name])]),
  ]);
}

function wonderTile(name, opts = {}) {
  const info = wonderInfo("duel", name);
  return info ? tileWithText(info, opts) : unknownTile(name, opts.tag, opts.attrs);
}

function tokenTile(name, opts = {}) {
  const info = tokenInfo(name);
  return info ? tileWithText(info, opts) : unknownTile(name, opts.tag, opts.attrs);
}

// Soft hyphens where a long word of a card name may break (English-like syllables: before a lone
// consonant between vowels, inside a pair, before the onset of a longer run), so the narrow cards of
// the structure on a phone wrap "Phar-ma-cist", never "Pharmaci st".
const ONSETS = new Set(["bl", "br", "ch", "cl", "cr", "dr", "fl", "fr", "gl", "gr", "ph", "pl", "pr", "sc", "sh", "sk", "sl",
  "sm", "sn", "sp", "st", "sw", "th", "tr", "tw", "wh", "wr"]);
const DIGRAPHS = new Set(["ch", "ck", "ph", "sh", "th", "wh"]);

function softHyphens(name) {
  return name.split(" ").map((word) => {
    const compound = /^(.{3,})(house|owners|yard|shop|lenders|blower|smith)$/i.exec(word);
    if (compound) return `${softHyphens(compound[1])}\u00AD${compound[2]}`;
    if (word.length < 7) return word;
    const vowel = (i) => /[aeiou]/i.test(word[i]);
    const breaks = [];
    let i = 0;
    while (i < word.length && !vowel(i)) i++;
    while (i < word.length) {
      let j = i;
      while (j < word.length && vowel(j)) j++;
      let k = j;
      while (k < word.length && !vowel(k)) k++;
      if (k >= word.length) break; // the consonants that end the word stay with it
      const run = word.slice(j, k).toLowerCase();
      let at;
      if (run.length === 1) at = j;
      else if (run.length === 2) at = DIGRAPHS.has(run) ? j : j + 1;
      else at = ONSETS.has(run.slice(-2)) ? k - 2 : k - 1;
      if (at >= 3 && word.length - at >= 3 && (!breaks.length || at - breaks[breaks.length - 1] >= 2)) breaks.push(at);
      i = k;
    }
    let out = "";
    let from = 0;
    for (const at of breaks) {
      out += `${word.slice(from, at)}\u00AD`;
      from = at;
    }
    return out + word.slice(from);
  }).join(" ");
}

function hyphenate(tile) {
  const name = tile.querySelector(".card-name");
  if (name) name.textContent = softHyphens(name.textContent);
  return tile;
}

function find(legal, test) {
  return legal.find(test) || null;
}

// ----- the table --------------------------------------------------------------------------------

export function renderDuel(ctx) {
  const view = ctx.view;
  const legal = ctx.interactive ? ctx.legal || [] : [];
  const me = ctx.me === undefined ? null : ctx.me;
  const acting = ctx.interactive && me !== null && (view.to_act || []).includes(me) && legal.length > 0;
  // "(you)" and "Your prices" only at the live table (a replay viewed as a seat is someone else's game)
  const you = ctx.interactive ? me : null;
  const c = { ...ctx, view, legal, me, acting, you };
  if (!(acting && view.phase === "play" && selected && accessibleNames(view).has(selected.card))) selected = null;

  const board = h("div", { class: `duel${acting ? " acting" : ""}`, dataset: { phase: view.phase } }, [
    turnLine(c),
    view.phase === "draft" ? draftBoard(c) : structureArea(c),
    militaryTrack(c),
    boardTokens(c),
    playersArea(c),
    discardPile(c),
  ]);
  const decision = acting ? decisionPanel(c) : null;
  if (ctx.interactive) keepFocus();
  return { board, decision };
}

function accessibleNames(view) {
  return new Set((view.structure || []).filter((s) => s.accessible && s.card).map((s) => s.card));
}

// Focus stays in the table across a redraw: on the same button when it is still there (found by its
// key), else on the first thing to do once there is one; after a click on a card of the structure it
// moves to the card's first use (keyboard players land on the choices).
let focusWanted = false;
let focusKey = null;

function keepFocus() {
  const active = document.activeElement;
  if (active && active.closest && active.closest(".duel, .duel-decision")) {
    focusWanted = true;
    focusKey = active.dataset ? active.dataset.key || null : null;
  } else if (active && active !== document.body) {
    focusWanted = false; // the player went elsewhere (the log, the room): leave them there
  }
  queueMicrotask(() => {
    if (focusUses) {
      focusUses = false;
      const first = document.querySelector(".duel-uses button.act:not([disabled]), .duel-uses button");
      if (first) first.focus();
      return;
    }
    const now = document.activeElement;
    if (!focusWanted || (now && now !== document.body && document.contains(now))) return;
    const same = focusKey ? document.querySelector(`[data-key="${CSS.escape(focusKey)}"]:not([disabled])`) : null;
    const next = same || document.querySelector(".duel-decision button.act:not([disabled]), .duel .slot button.act:not([disabled])");
    if (next) next.focus({ preventScroll: true });
  });
}

function turnLine(c) {
  const { view } = c;
  const text = turnText(c);
  return h("p", { class: "duel-turn" }, [
    view.age ? h("span", { class: "duel-age" }, [ageName(view.age)]) : h("span", { class: "duel-age" }, ["Wonder draft"]),
    text ? " · " : "",
    text,
  ]);
}

function turnText(c) {
  const { view, you: me } = c;
  if (view.phase === "over") return "The game is over.";
  const seat = (view.to_act || [])[0];
  if (seat === undefined || seat === null) return "";
  const mine = seat === me;
  const name = mine ? "You" : who(c, seat);
  const verb = (base, third) => (mine ? base : third);
  switch (view.phase) {
    case "draft":
      return `${name} ${verb("draft", "drafts")} a wonder.`;
    case "play":
      return `${name} ${verb("take", "takes")} a card of the structure.`;
    case "choose_progress":
      return `${name} ${verb("choose", "chooses")} a progress token.`;
    case "choose_box_token":
      return `${name} ${verb("choose", "chooses")} a progress token from the box (The Great Library).`;
    case "destroy":
      return `${name} ${verb("destroy", "destroys")} a card of ${mine ? possessive(who(c, 1 - seat)) : "the opponent’s"} city.`;
    case "build_from_discard":
      return `${name} ${verb("build", "builds")} a card of the discard pile for free.`;
    case "choose_starter":
      return `${name} ${verb("choose", "chooses")} who starts ${ageName((view.age || 0) + 1)}.`;
    default:
      return "";
  }
}

// ----- the wonder draft ---------------------------------------------------------------------------

function draftBoard(c) {
  const { view, you: me, acting } = c;
  const draft = view.draft || { round: 1, offer: [], order: [0, 1, 1, 0, 1, 0, 0, 1], pick: 0 };
  const seat = (view.to_act || [])[0];
  const perRound = Math.max(1, Math.floor((draft.order || []).length / 2)) || 4;
  const rounds = Math.ceil((draft.order || []).length / perRound) || 2;
  const roundOrder = (draft.order || []).slice((draft.round - 1) * perRound, draft.round * perRound);
  const pickInRound = draft.pick - (draft.round - 1) * perRound;
  const order = h("ol", { class: "duel-draft-order", "aria-label": `Draft order of round ${draft.round}` }, roundOrder.map((s, i) =>
    h("li", { class: `${i < pickInRound ? "done" : ""}${i === pickInRound ? " now" : ""}` }, [
      i < pickInRound ? icon("check", { label: "drafted", size: "sm" }) : i === pickInRound ? icon("hourglass", { label: "drafting now", size: "sm" }) : null,
      who(c, s), s === me ? " (you)" : "",
    ])));
  const offer = acting
    ? h("p", { class: "muted" }, ["The wonders on offer are in your decision above."])
    : h("ul", { class: "duel-tiles duel-offer", "aria-label": "Wonders on offer" }, (draft.offer || []).map((w) => h("li", {}, [wonderTile(w)])));
  const drafted = h("div", { class: "duel-drafted" }, (view.players || []).map((p) =>
    h("section", { class: `duel-drafted-player${p.seat === me ? " me" : ""}`, "aria-label": `${who(c, p.seat)}${p.seat === me ? " (you)" : ""}: wonders drafted` }, [
      h("h3", {}, [`${who(c, p.seat)}${p.seat === me ? " (you)" : ""}: ${plural(p.wonders.length, "wonder")}`]),
      p.wonders.length
        ? h("ul", { class: "duel-tiles" }, p.wonders.map((w) => h("li", {}, [wonderTile(w.name)])))
        : h("p", { class: "muted" }, ["Nothing drafted yet."]),
    ])));
  return h("section", { class: "duel-draft", "aria-labelledby": "duel-draft-h" }, [
    h("h2", { id: "duel-draft-h", class: "section-title" }, [`Wonder draft: round ${draft.round} of ${rounds}`]),
    h("p", {}, [
      seat === undefined ? "" : seat === me ? "Your pick. " : `${who(c, seat)} is drafting. `,
      `Pick ${Math.min(draft.pick + 1, (draft.order || []).length)} of ${(draft.order || []).length}.`,
    ]),
    order,
    offer,
    drafted,
  ]);
}

function draftDecision(c) {
  const { view, legal } = c;
  const offer = (view.draft && view.draft.offer) || [];
  const items = offer.map((w) => {
    const action = find(legal, (a) => a.type === "draft_wonder" && a.wonder === w);
    if (!action) return h("li", {}, [wonderTile(w)]);
    const info = wonderInfo("duel", w);
    const label = `Draft ${w}: ${info ? `costs ${costWords(info.cost)}. ${info.text}` : ""}`;
    return h("li", {}, [wonderTile(w, {
      tag: "button", cls: "act duel-choice", label,
      attrs: { type: "button", dataset: { key: `draft:${w}`, name: w }, onclick: () => c.send(action) },
    })]);
  });
  return h("div", { class: "duel-decision" }, [
    h("h2", { class: "section-title" }, ["Draft a wonder"]),
    h("p", { class: "muted" }, ["Click the wonder you keep; the other player takes from what is left."]),
    h("ul", { class: "duel-tiles duel-offer" }, items),
  ]);
}

// ----- the structure ------------------------------------------------------------------------------

function structureArea(c) {
  const { view } = c;
  const slots = view.structure || [];
  const left = slots.filter((s) => !s.taken).length;
  const heading = view.age ? `${ageName(view.age)} structure` : "Structure";
  return h("section", { class: "duel-structure-area", "aria-labelledby": "duel-structure-h" }, [
    h("h2", { id: "duel-structure-h", class: "section-title" }, [heading]),
    h("div", { class: "duel-play" }, [
      left ? structureGrid(c, slots) : h("p", { class: "muted duel-empty" }, [
        slots.length ? "Every card of the structure has been taken." : "No cards on the table.",
      ]),
      view.phase === "play" && c.acting ? usesPanel(c) : null,
      view.phase === "play" && !c.acting && c.interactive ? waitingPanel(c) : null,
    ]),
  ]);
}

function structureGrid(c, slots) {
  const minCol = Math.min(...slots.map((s) => s.col));
  const maxCol = Math.max(...slots.map((s) => s.col));
  const rows = Math.max(...slots.map((s) => s.row)) + 1;
  const span = maxCol + 2 - minCol; // half-card widths
  const open = slots.filter((s) => s.accessible && s.card).length;
  const grid = h("div", {
    class: "duel-pyramid",
    style: `--span:${span};grid-template-columns:repeat(${span}, var(--half));grid-template-rows:repeat(${Math.max(0, rows - 1)}, var(--step)) var(--card-h)`,
  }, slots.map((s) => slotNode(c, s, minCol)));
  return h("div", {
    class: "duel-structure",
    role: "group",
    "aria-label": `${c.view.age ? `${ageName(c.view.age)} structure` : "Structure"}: ${plural(open, "accessible card")}, ${plural(slots.filter((s) => !s.taken).length, "card")} left`,
    style: `--span:${span}`,
  }, [grid]);
}

function slotNode(c, s, minCol) {
  const place = `grid-column:${s.col - minCol + 1} / span 2;grid-row:${s.row + 1}`;
  if (s.taken) return h("div", { class: "slot taken", style: place, "aria-hidden": "true" });
  if (s.back) {
    const name = backName(s.back);
    return h("div", { class: `slot back back-${s.back.replace(" ", "")}`, style: place, role: "img", "aria-label": `face-down card (${name})`, title: `face-down card (${name})` }, [
      h("span", { class: "back-name", "aria-hidden": "true" }, [name]),
    ]);
  }
  const name = s.card;
  const info = cardInfo("duel", name);
  const color = info ? info.color : "unknown";
  const clickable = s.accessible && c.acting && c.view.phase === "play";
  const isSelected = clickable && selected && selected.card === name;
  const cls = `slot face${s.accessible ? " accessible" : " covered"}${isSelected ? " selected" : ""}`;
  if (!clickable) {
    const label = `${name}${s.accessible ? " (accessible)" : " (covered)"}: ${info ? `${colorWords(color)}, costs ${costWords(info.cost)}. ${info.text}` : ""}`;
    return h("div", { class: cls, style: place }, [hyphenate(cardTile("duel", name, { label }))]);
  }
  const price = priceFor(c, name);
  const label = `${name}: ${price.words}. ${info ? `${colorWords(color)}; ${info.text}` : ""}${chainWords(info)}`;
  const button = cardTile("duel", name, {
    tag: "button",
    class: "act",
    label,
    attrs: {
      type: "button",
      "aria-pressed": isSelected ? "true" : "false",
      dataset: { key: `card:${name}`, card: name },
      onclick: () => {
        selected = { card: name };
        focusUses = true;
        c.rerender();
      },
    },
  });
  button.append(h("span", { class: `my-price${price.ok ? "" : " no"}`, "aria-hidden": "true" }, price.badge));
  return h("div", { class: cls, style: place }, [hyphenate(button)]);
}

function chainWords(info) {
  if (!info) return "";
  const parts = [];
  if (info.chain_from && info.chain_from.length) parts.push(`free with ${listWords(info.chain_from)}`);
  if (info.chain_to && info.chain_to.length) parts.push(`makes ${listWords(info.chain_to)} free`);
  return parts.length ? ` Chain: ${parts.join("; ")}.` : "";
}

// What building this card costs me now: {ok, words, badge}.
function priceFor(c, name) {
  const build = find(c.legal, (a) => a.type === "build" && a.card === name);
  if (build) {
    if (build.free) return { ok: true, words: `free for you (${build.free})`, badge: [icon("chain", { size: "sm", label: "free by chain" }), "free"] };
    if (!build.cost) return { ok: true, words: "free for you", badge: ["free"] };
    return { ok: true, words: `${plural(build.cost, "coin")} for you`, badge: [icon("coin", { count: build.cost, size: "sm" })] };
  }
  const reason = c.view.unplayable && c.view.unplayable[name] && c.view.unplayable[name].build;
  const text = reason && reason.text ? reason.text : "you cannot build it now";
  return { ok: false, words: `you cannot build it (${text})`, badge: reason && reason.cost ? [icon("coin", { count: reason.cost, size: "sm" }), "✕"] : ["✕"] };
}

// The uses of the selected card: build it, discard it, or build one of my wonders with it.
function usesPanel(c) {
  const { view, legal, me } = c;
  if (!selected) {
    const gain = view.players[me] ? view.players[me].discard_gain : null;
    return h("aside", { class: "duel-uses empty", "aria-label": "Uses of the chosen card" }, [
      h("h3", {}, ["Choose a card"]),
      h("p", {}, [`Click an accessible card of the structure (the ones not covered): you can build it, discard it${gain !== null ? ` for ${plural(gain, "coin")}` : ""}, or build one of your wonders with it.`]),
    ]);
  }
  const name = selected.card;
  const info = cardInfo("duel", name);
  const uses = [];
  const build = find(legal, (a) => a.type === "build" && a.card === name);
  if (build) {
    const price = build.free ? `free (${build.free})` : build.cost ? plural(build.cost, "coin") : "free";
    uses.push(useButton(`Build ${name}`, price, `Build ${name}: ${price}`, "use:build", () => c.send(build)));
  } else {
    const reason = view.unplayable && view.unplayable[name] && view.unplayable[name].build;
    uses.push(useButton(`Build ${name}`, reason && reason.text ? reason.text : "you cannot build it now", null, "use:build", null));
  }
  const discard = find(legal, (a) => a.type === "discard" && a.card === name);
  const gain = view.players[me] ? view.players[me].discard_gain : 0;
  if (discard) uses.push(useButton(`Discard for ${plural(gain, "coin")}`, null, `Discard ${name} for ${plural(gain, "coin")}`, "use:discard", () => c.send(discard)));
  const mine = view.players[me] ? view.players[me].wonders.filter((w) => !w.built) : [];
  const wonders = mine.map((w) => wonderUse(c, name, w.name));
  return h("aside", { class: "duel-uses", "aria-label": `Uses of ${name}` }, [
    h("h3", { tabindex: "-1" }, [name]),
    cardTile("duel", name, { class: "duel-chosen" }),
    h("ul", { class: "duel-use-list" }, uses.map((u) => h("li", {}, [u]))),
    h("h4", {}, ["Build a wonder with it"]),
    wonders.length
      ? h("ul", { class: "duel-use-list duel-wonder-uses" }, wonders.map((u) => h("li", {}, [u])))
      : h("p", { class: "muted" }, ["You have no wonder left to build."]),
    info ? null : h("p", { class: "muted" }, [name]),
  ]);
}

function waitingPanel(c) {
  const seat = (c.view.to_act || [])[0];
  return h("aside", { class: "duel-uses empty waiting" }, [
    h("h3", {}, [icon("hourglass", { size: "sm", label: "" }), " ", seat === undefined ? "Waiting" : `${who(c, seat)} is playing`]),
    h("p", {}, [seat === undefined ? "" : `${who(c, seat)} takes a card of the structure to build it, discard it or build a wonder with it.`]),
  ]);
}

function useButton(title, detail, label, key, onclick) {
  const enabled = Boolean(onclick);
  return h("button", {
    type: "button",
    class: `${enabled ? "act " : ""}duel-use${enabled ? "" : " off"}`,
    "aria-disabled": enabled ? null : "true",
    "aria-label": label || (detail ? `${title}: ${detail}` : title),
    dataset: { key },
    onclick: onclick || undefined,
  }, [h("span", { class: "use-title" }, [title]), detail ? h("span", { class: "use-detail" }, [detail]) : null]);
}

function wonderUse(c, card, wonder) {
  const { view, legal } = c;
  const info = wonderInfo("duel", wonder);
  const action = find(legal, (a) => a.type === "wonder" && a.card === card && a.wonder === wonder);
  let detail;
  if (action) detail = action.cost ? `${plural(action.cost, "coin")} for you` : "free for you";
  else {
    const reason = view.wonders_unplayable && view.wonders_unplayable[wonder];
    if (reason && reason.text) detail = reason.text;
    else if (view.wonders_built >= (view.max_wonders || 7)) detail = `${view.max_wonders === 7 || !view.max_wonders ? "seven" : view.max_wonders} wonders are already built`;
    else detail = "you cannot build it now";
  }
  const label = `${action ? "" : "Cannot build "}${wonder}${action ? ` with ${card}` : ""}: ${detail}.${info ? ` Costs ${costWords(info.cost)}. ${info.text}` : ""}`;
  return h("button", {
    type: "button",
    class: `${action ? "act " : ""}duel-use duel-wonder-use${action ? "" : " off"}`,
    "aria-disabled": action ? null : "true",
    "aria-label": label,
    dataset: { key: `use:wonder:${wonder}` },
    onclick: action ? () => c.send(action) : undefined,
  }, [
    h("span", { class: "use-title" }, [icon("wonder", { size: "sm", label: "wonder" }), wonder]),
    h("span", { class: "use-detail" }, [detail]),
    info ? h("span", { class: "use-icons", "aria-hidden": "true" }, [costIcons(info.cost), h("span", { class: "arrow" }, ["→"]), effectIcons(info.effects)]) : null,
    info ? h("span", { class: "use-text" }, [info.text]) : null,
  ]);
}

// ----- the military track -------------------------------------------------------------------------

function militaryTrack(c) {
  const { view } = c;
  const t = track();
  const cap = t.capital;
  const pawn = view.conflict_pawn || 0;
  const left = who(c, 0);
  const right = who(c, 1);
  const cells = [];
  for (let p = -cap; p <= cap; p++) {
    const d = Math.abs(p);
    const zone = t.vp_zones.findIndex((z) => d >= z.from && d <= z.to);
    const cls = `tspace${p === 0 ? " centre" : ""}${d === cap ? " capital" : ""}${zone >= 0 ? ` z${zone}` : ""}${p === pawn ? " here" : ""}`;
    cells.push(h("span", { class: cls, style: `grid-column:${p + cap + 1};grid-row:2` }, [p === pawn ? icon("pawn", { label: "conflict pawn" }) : null]));
  }
  const zones = [];
  for (const side of [-1, 1]) {
    for (const z of t.vp_zones) {
      const a = side < 0 ? -z.to : z.from;
      const b = side < 0 ? -z.from : z.to;
      zones.push(h("span", { class: "zone", style: `grid-column:${a + cap + 1} / ${b + cap + 2};grid-row:3` }, [
        icon("points", { size: "sm", label: "points" }), h("span", { class: "vp" }, [z.vp]),
      ]));
    }
  }
  const loot = (view.military_tokens || []).map((tok) => {
    const spec = t.loot_tokens.find((l) => l.from === tok.from) || { from: tok.from, to: tok.from + 2 };
    const side = tok.seat === 0 ? -1 : 1;
    const a = side < 0 ? -spec.to : spec.from;
    const b = side < 0 ? -spec.from : spec.to;
    return h("span", { class: "loot", style: `grid-column:${a + cap + 1} / ${b + cap + 2};grid-row:1` }, [
      icon("loot", { size: "sm", label: "loot token" }), h("span", { class: "loot-n" }, [`−${tok.coins}`]),
    ]);
  });
  const label = pawnWords(c, pawn, cap);
  const lootText = lootWords(c);
  return h("section", { class: "duel-military", "aria-labelledby": "duel-military-h" }, [
    h("h2", { id: "duel-military-h", class: "section-title" }, ["Military track"]),
    h("div", { class: "duel-track", role: "img", "aria-label": `${label}${lootText ? ` ${lootText}` : ""}` }, [
      h("div", { class: "track-grid", style: `grid-template-columns:repeat(${2 * cap + 1}, minmax(0, 1fr))`, "aria-hidden": "true" }, [...loot, ...cells, ...zones]),
      h("div", { class: "capitals", "aria-hidden": "true" }, [
        h("span", { class: "capital-name" }, ["◀ ", `${possessive(left)} capital`]),
        h("span", { class: "capital-name" }, [`${possessive(right)} capital`, " ▶"]),
      ]),
    ]),
    h("p", { class: "duel-track-text" }, [label]),
  ]);
}

function pawnWords(c, pawn, cap) {
  const { view } = c;
  if (!pawn) return "Conflict pawn at the centre; neither player would score military points.";
  const leader = pawn > 0 ? 0 : 1;
  const victim = 1 - leader;
  const d = Math.abs(pawn);
  const points = view.players && view.players[leader] ? view.players[leader].military_points : null;
  const score = points !== null && points !== undefined ? `; ${who(c, leader)} would score ${plural(points, "point")}` : "";
  if (d >= cap) return `Conflict pawn in ${possessive(who(c, victim))} capital: military supremacy for ${who(c, leader)}.`;
  return `Conflict pawn ${plural(d, "space")} toward ${possessive(who(c, victim))} capital${score}; ${plural(cap - d, "space")} to go to the capital.`;
}

function lootWords(c) {
  const tokens = c.view.military_tokens || [];
  if (!tokens.length) return "No loot tokens left on the track.";
  const bySeat = [0, 1].map((s) => tokens.filter((t) => t.seat === s));
  const parts = bySeat.map((list, s) => (list.length
    ? `${listWords(list.map((t) => `${plural(t.coins, "coin")} (${plural(t.from, "space")} from the centre)`))} in ${possessive(who(c, s))} half`
    : null)).filter(Boolean);
  return `Loot tokens still on the track: ${parts.join("; ")}.`;
}

// ----- progress tokens ----------------------------------------------------------------------------

function boardTokens(c) {
  const tokens = c.view.progress_tokens_board || [];
  return h("section", { class: "duel-tokens", "aria-labelledby": "duel-tokens-h" }, [
    h("h2", { id: "duel-tokens-h", class: "section-title" }, [`Progress tokens on the board (${tokens.length})`]),
    tokens.length
      ? h("ul", { class: "duel-tiles duel-token-list" }, tokens.map((t) => h("li", {}, [tokenTile(t)])))
      : h("p", { class: "muted" }, ["None left."]),
  ]);
}

// ----- the players ----------------------------------------------------------------------------------

function playersArea(c) {
  const players = c.view.players || [];
  const order = c.me === null ? players : [...players].sort((a, b) => (a.seat === c.me ? -1 : b.seat === c.me ? 1 : 0));
  return h("div", { class: "duel-players" }, order.map((p) => playerPanel(c, p)));
}

function playerPanel(c, p) {
  const { view, you: me } = c;
  const mine = p.seat === me;
  const name = who(c, p.seat);
  const title = `${name}${mine ? " (you)" : ""}`;
  const toAct = (view.to_act || []).includes(p.seat) && view.phase !== "over";
  const built = p.wonders.filter((w) => w.built).length;
  const id = `duel-player-${p.seat}`;
  return h("section", { class: `duel-player${mine ? " me" : ""}${toAct ? " to-act" : ""}`, "aria-labelledby": id }, [
    h("h2", { id, class: "player-name" }, [
      title,
      toAct ? h("span", { class: "to-act-mark" }, [icon("hourglass", { size: "sm", label: "" }), " to act"]) : null,
      c.clock ? clockChip(c.clock, p.seat, name) : null,
    ]),
    h("ul", { class: "duel-stats", "aria-label": `${name}: coins, military points and wonders` }, [
      h("li", {}, [icon("coin", { count: p.coins, label: plural(p.coins, "coin") }), " ", plural(p.coins, "coin")]),
      h("li", {}, [icon("shield", { label: "military" }), " ", `${plural(p.military_points || 0, "military point")}`]),
      h("li", {}, [icon("wonder", { label: "wonders" }), " ", p.wonders.length ? `${built} of ${plural(p.wonders.length, "wonder")} built` : "no wonder yet"]),
      h("li", {}, [icon("discard", { label: "discard" }), " ", `discards for ${plural(p.discard_gain, "coin")}`]),
    ]),
    scienceLine(p),
    productionLine(p),
    pricesLine(c, p),
    p.progress_tokens.length ? h("div", { class: "duel-owned-tokens" }, [
      h("h3", {}, [`Progress tokens (${p.progress_tokens.length})`]),
      h("ul", { class: "duel-tiles small" }, p.progress_tokens.map((t) => h("li", {}, [tokenTile(t)]))),
    ]) : null,
    cityRegion(mine, [
      cityByColour(p),
      h("div", { class: "duel-wonders" }, [
        h("h3", {}, [p.wonders.length ? `Wonders (${built} of ${p.wonders.length} built)` : "Wonders"]),
        p.wonders.length
          ? h("ul", { class: "duel-tiles small" }, p.wonders.map((w) => h("li", {}, [wonderState(w)])))
          : h("p", { class: "muted" }, ["None yet."]),
      ]),
    ]),
  ]);
}

// Your own city and wonders form the region "Your city" (inside your player's region).
function cityRegion(mine, children) {
  return mine ? h("section", { class: "your-city", "aria-label": "Your city" }, children) : children;
}

function wonderState(w) {
  const info = wonderInfo("duel", w.name);
  const state = w.built ? "built" : "not built";
  const label = `${w.name} (${state})${info ? `: costs ${costWords(info.cost)}. ${info.text}` : ""}`;
  const tile = wonderTile(w.name, { cls: w.built ? "built" : "unbuilt", label });
  tile.querySelector(".tile-head").append(h("span", { class: `wonder-state${w.built ? " built" : ""}` }, [
    w.built ? icon("check", { size: "sm", label: "built" }) : null, state,
  ]));
  return tile;
}

function scienceLine(p) {
  const sci = p.science || {};
  const symbols = [...SCIENCE, ...Object.keys(sci).filter((s) => !SCIENCE.includes(s))].filter((s) => sci[s]);
  const distinct = symbols.length;
  return h("div", { class: "duel-science" }, [
    h("h3", {}, [`Science symbols (${distinct} different)`]),
    symbols.length
      ? h("ul", { class: "symbols" }, symbols.map((s) => h("li", {}, [
        icon(s === "any" ? "science_any" : s, { label: symbolName(s) }),
        ` ${symbolName(s)}${sci[s] > 1 ? ` ×${sci[s]}` : ""}`,
      ])))
      : h("p", { class: "muted" }, ["None yet."]),
  ]);
}

function productionLine(p) {
  const fixed = Object.entries(p.production || {}).filter(([, n]) => n > 0);
  const choices = p.choices || [];
  const items = [
    ...fixed.map(([r, n]) => h("li", {}, [icon(r, { count: n, label: `${n} ${r}` })])),
    ...choices.map((opts) => h("li", {}, [h("span", { class: "choice", role: "img", "aria-label": opts.join(" or "), title: opts.join(" or ") },
      opts.flatMap((r, i) => (i ? [h("span", { class: "or", "aria-hidden": "true" }, ["/"]), icon(r)] : [icon(r)])))])),
  ];
  return h("div", { class: "duel-production" }, [
    h("span", { class: "label" }, ["Produces:"]),
    items.length ? h("ul", { class: "inline-icons" }, items) : h("span", { class: "muted" }, [" nothing yet"]),
  ]);
}

// trade_prices is what THIS player pays the bank for each resource it lacks.
function pricesLine(c, p) {
  const mine = p.seat === c.you;
  const prices = p.trade_prices || {};
  const label = mine ? "Your prices:" : `${possessive(who(c, p.seat))} prices:`;
  return h("div", { class: "duel-prices" }, [
    h("span", { class: "label", title: "what this player pays the bank for one unit of each resource" }, [label]),
    h("ul", { class: "inline-icons" }, RESOURCES.filter((r) => prices[r] !== undefined).map((r) => {
      const text = `${r} for ${plural(prices[r], "coin")}`;
      return h("li", {}, [h("span", { class: `price${prices[r] <= 1 ? " cheap" : prices[r] >= 4 ? " dear" : ""}`, role: "img", "aria-label": text, title: text }, [
        icon(r), h("span", { class: "n", "aria-hidden": "true" }, [prices[r]]),
      ])]);
    })),
  ]);
}

function cityByColour(p) {
  const groups = new Map();
  for (const name of p.city) {
    const info = cardInfo("duel", name);
    const color = info ? info.color : "unknown";
    if (!groups.has(color)) groups.set(color, []);
    groups.get(color).push(name);
  }
  const ordered = [...groups.entries()].sort((a, b) => colorOrder(a[0]) - colorOrder(b[0]));
  return h("div", { class: "duel-city" }, [
    h("h3", {}, [`City (${plural(p.city.length, "card")})`]),
    ordered.length
      ? h("div", { class: "city-groups" }, ordered.map(([color, names]) =>
        h("div", { class: `color-group g-${color}`, role: "group", "aria-label": `${colorWords(color)}: ${plural(names.length, "card")}` }, [
          h("span", { class: "group-head", "aria-hidden": "true" }, [colorShape(color), ` ${names.length}`]),
          h("ul", { class: "cards-row" }, names.map((n) => h("li", {}, [cardTile("duel", n, { compact: true })]))),
        ])))
      : h("p", { class: "muted" }, ["No buildings yet."]),
  ]);
}

// ----- the discard pile -------------------------------------------------------------------------------

function discardPile(c) {
  const pile = c.view.discard || [];
  const details = h("details", { class: "duel-discard" }, [
    h("summary", {}, [icon("discard", { label: "" }), ` Discard pile (${plural(pile.length, "card")})`]),
    pile.length
      ? h("ul", { class: "cards-row" }, pile.map((n) => h("li", {}, [cardTile("duel", n, { compact: true })])))
      : h("p", { class: "muted" }, ["No card has been discarded yet."]),
  ]);
  remembered(details, "duel-discard");
  return details;
}

// ----- decisions ----------------------------------------------------------------------------------------

function decisionPanel(c) {
  const { view } = c;
  switch (view.phase) {
    case "draft":
      return draftDecision(c);
    case "play":
      return null; // the structure is the decision: its accessible cards are the buttons
    case "choose_progress":
      return tokenDecision(c, "choose_progress", "Choose a progress token",
        "You have a pair of identical science symbols: take one of the progress tokens of the board.",
        view.progress_tokens_board || []);
    case "choose_box_token":
      return tokenDecision(c, "choose_box_token", "Choose a progress token from the box",
        "The Great Library: keep one of these tokens drawn from the box; the others go back.",
        (view.decision && view.decision.options) || c.legal.filter((a) => a.type === "choose_box_token").map((a) => a.token));
    case "destroy":
      return destroyDecision(c);
    case "build_from_discard":
      return discardDecision(c);
    case "choose_starter":
      return starterDecision(c);
    default:
      return genericDecision(c);
  }
}

function tokenDecision(c, type, title, hint, names) {
  const items = names.map((t) => {
    const action = find(c.legal, (a) => a.type === type && a.token === t);
    const info = tokenInfo(t);
    if (!action) return h("li", {}, [tokenTile(t)]);
    return h("li", {}, [tokenTile(t, {
      tag: "button", cls: "act duel-choice",
      label: `Take ${t}: ${info ? info.text : ""}`,
      attrs: { type: "button", dataset: { key: `token:${t}`, name: t }, title: info && info.rules ? info.rules : t, onclick: () => c.send(action) },
    })]);
  });
  return h("div", { class: "duel-decision" }, [
    h("h2", { class: "section-title" }, [title]),
    h("p", { class: "muted" }, [hint]),
    h("ul", { class: "duel-tiles duel-token-list" }, items),
  ]);
}

function cardChoices(c, type, names, verb) {
  return h("ul", { class: "cards-row duel-card-choices" }, names.map((n) => {
    const action = find(c.legal, (a) => a.type === type && a.card === n);
    const info = cardInfo("duel", n);
    if (!action) return h("li", {}, [cardTile("duel", n)]);
    return h("li", {}, [cardTile("duel", n, {
      tag: "button", class: "act duel-choice",
      label: `${verb} ${cardWords(n, info)}`,
      attrs: { type: "button", dataset: { key: `${type}:${n}`, card: n }, onclick: () => c.send(action) },
    })]);
  }));
}

function destroyDecision(c) {
  const { view, me } = c;
  const names = (view.decision && view.decision.options) || c.legal.filter((a) => a.type === "destroy").map((a) => a.card);
  const colors = [...new Set(names.map((n) => (cardInfo("duel", n) || {}).color).filter(Boolean))];
  const other = who(c, 1 - me);
  return h("div", { class: "duel-decision" }, [
    h("h2", { class: "section-title" }, [`Destroy one of ${possessive(other)} ${colors.length ? listWords(colors.map((x) => colorWords(x))) : ""} cards`]),
    h("p", { class: "muted" }, ["The card goes to the discard pile."]),
    cardChoices(c, "destroy", names, "Destroy"),
  ]);
}

function discardDecision(c) {
  const { view } = c;
  const names = (view.decision && view.decision.options) || c.legal.filter((a) => a.type === "build_from_discard").map((a) => a.card);
  return h("div", { class: "duel-decision" }, [
    h("h2", { class: "section-title" }, ["Build a card of the discard pile for free"]),
    h("p", { class: "muted" }, ["The Mausoleum lets you take one of these cards and build it without paying."]),
    cardChoices(c, "build_from_discard", names, "Build for free"),
  ]);
}

function starterDecision(c) {
  const { view, me } = c;
  const next = ageName((view.age || 0) + 1);
  const other = 1 - me;
  const buttons = [me, other].map((s) => {
    const action = find(c.legal, (a) => a.type === "choose_starter" && a.seat === s);
    if (!action) return null;
    const text = s === me ? "I start" : `${who(c, s)} starts`;
    return h("button", { type: "button", class: "act duel-starter", dataset: { key: `starter:${s}` }, "aria-label": `${text} ${next}`, onclick: () => c.send(action) }, [text]);
  });
  return h("div", { class: "duel-decision" }, [
    h("h2", { class: "section-title" }, [`Who starts ${next}?`]),
    h("p", { class: "muted" }, [`The conflict pawn is on your side of the track (or at the centre and you played last): you choose who plays first in ${next}.`]),
    h("div", { class: "duel-starter-buttons" }, buttons),
  ]);
}

function genericDecision(c) {
  if (!c.legal.length) return null;
  return h("div", { class: "duel-decision" }, [
    h("h2", { class: "section-title" }, ["Your decision"]),
    h("div", { class: "duel-starter-buttons" }, c.legal.map((a, i) => h("button", {
      type: "button", class: "act", dataset: { key: `generic:${i}` }, onclick: () => c.send(a),
    }, [Object.entries(a).map(([k, v]) => (k === "type" ? words(v) : `${words(k)} ${v}`)).join(", ")]))),
  ]);
}
