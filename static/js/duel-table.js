// 7 Wonders Duel's table as everyone sees it: whose turn, the wonder draft, the card structure (with
// the uses of the chosen card beside it), the military track with the pawn, its zones and the loot
// tokens still on it, the progress tokens on the board, each player's city, wonders, science,
// production and prices, and the discard pile. The buttons and decisions are duel-actions.js's.
import { cardTile, colorWords, costWords } from "./cards.js";
import { cardInfo, catalog, colorOrder, wonderInfo } from "./catalog.js";
import { clockChip } from "./clock.js";
import { selectedCard, structureButton, usesPanel, waitingPanel } from "./duel-actions.js";
import { hyphenate, possessive, tokenTile, who, wonderTile } from "./duel-tiles.js";
import { colorShape, icon } from "./icons.js";
import { ageName, h, listWords, plural, remembered, words } from "./ui.js";

const RESOURCES = ["wood", "clay", "stone", "glass", "papyrus"];
const SCIENCE = ["armillary_sphere", "wheel", "sundial", "mortar", "plumb_line", "quill", "law"];

function track() {
  const data = catalog();
  return (data && data.duel && data.duel.military_track) || {
    capital: 9,
    vp_zones: [{ from: 1, to: 2, vp: 2 }, { from: 3, to: 5, vp: 5 }, { from: 6, to: 8, vp: 10 }],
    loot_tokens: [{ from: 3, to: 5, coins: 2 }, { from: 6, to: 8, coins: 5 }],
  };
}

function backName(back) {
  if (back === "guild") return "Guild";
  const m = /^age (\d)$/.exec(back || "");
  return m ? ageName(Number(m[1])) : words(back || "card");
}

function symbolName(symbol) {
  return symbol === "any" ? "any science symbol" : words(symbol);
}

// The whole table: a `.duel` block whose data-phase says the phase (`.acting` while you owe a move).
export function duelBoard(c) {
  const { view, acting } = c;
  return h("div", { class: `duel${acting ? " acting" : ""}`, dataset: { phase: view.phase } }, [
    turnLine(c),
    view.phase === "draft" ? draftBoard(c) : structureArea(c),
    militaryTrack(c),
    boardTokens(c),
    playersArea(c),
    discardPile(c),
  ]);
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
  requestAnimationFrame(() => fitStep(grid));
  return h("div", {
    class: "duel-structure",
    role: "group",
    "aria-label": `${c.view.age ? `${ageName(c.view.age)} structure` : "Structure"}: ${plural(open, "accessible card")}, ${plural(slots.filter((s) => !s.taken).length, "card")} left`,
    style: `--span:${span}`,
  }, [grid]);
}

// A row's step shows a covered card's name, cost, effect and chain: where a card's words run longer
// (a name or chain on more lines), the rows move apart so that the row below covers none of them.
function fitStep(grid) {
  if (!grid.isConnected) return;
  grid.style.removeProperty("--step");
  grid.style.removeProperty("--card-h");
  const covered = [...grid.querySelectorAll(".slot.face.covered")];
  if (!covered.length) return;
  const step = parseFloat(getComputedStyle(grid).gridTemplateRows.split(" ")[0]);
  const cardHeight = covered[0].getBoundingClientRect().height;
  let need = 0;
  for (const slot of covered) {
    const top = slot.getBoundingClientRect().top;
    for (const text of slot.querySelectorAll(".card-name, .card-body > *, .chain > *")) {
      need = Math.max(need, text.getBoundingClientRect().bottom - top);
    }
  }
  if (need + 3 <= step) return;
  grid.style.setProperty("--step", `${need + 3}px`);
  // words taller than the card itself (narrow cards on a phone): the cards grow, still overlapping
  if ((need + 3) * 1.15 > cardHeight) grid.style.setProperty("--card-h", `${(need + 3) * 1.15}px`);
}

addEventListener("resize", () => document.querySelectorAll(".duel-pyramid").forEach(fitStep));

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
  const isSelected = clickable && selectedCard() === name;
  const cls = `slot face${s.accessible ? " accessible" : " covered"}${isSelected ? " selected" : ""}`;
  if (!clickable) {
    const label = `${name}${s.accessible ? " (accessible)" : " (covered)"}: ${info ? `${colorWords(color)}, costs ${costWords(info.cost)}. ${info.text}` : ""}`;
    return h("div", { class: cls, style: place }, [hyphenate(cardTile("duel", name, { label }))]);
  }
  return h("div", { class: cls, style: place }, [hyphenate(structureButton(c, name, isSelected))]);
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
      c.clock ? clockChip(c.clock, p.seat, mine ? "You" : name) : null,
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
