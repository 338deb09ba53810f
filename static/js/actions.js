// Playing a card in 7 Wonders (and Armada): choose a card of your hand, then its use (build, wonder
// stage, discard); each use says what it gives and costs, or why it is impossible. Payments name who
// is paid. Your pick stays visible and can be changed until the reveal.
import { cardTile, costWords, detailButton, effectIcons, freeWords } from "./cards.js";
import { cardInfo, islandInfo, shipSpace, stageInfo } from "./catalog.js";
import { icon } from "./icons.js";
import { h, listWords, plural, words } from "./ui.js";

let selected = null; // the card name chosen in the hand
let chosenUse = null; // its use, once the player asked for a use with several variants
let facets = {}; // naval, moves, pay: the variant chosen within the use

export function resetSelection() {
  selected = null;
  chosenUse = null;
  facets = {};
}

const SIDE_WORDS = { left: "left", right: "right", far_left: "two seats to the left", far_right: "two seats to the right" };

function useOf(a) {
  if (a.type === "discard") return a.reward === "yellow" ? "discard_yellow" : "discard";
  return a.type;
}

function payKey(a) {
  return JSON.stringify([a.trade || {}, a.cost || {}]);
}

function movesKey(a) {
  return (a.moves || []).join("+");
}

// "2 coins to Bob (left) for 1 stone and 1 coin to the bank"
export function paymentWords(a, ctx) {
  if (a.free) return `free (${freeWords(a.free)})`;
  const cost = a.cost || {};
  const trade = a.trade || {};
  const parts = [];
  for (const side of Object.keys(SIDE_WORDS)) {
    if (!cost[side]) continue;
    const bought = Object.entries(trade[side] || {}).map(([r, n]) => `${n} ${r}`);
    const who = ctx.name(ctx.sideSeat(ctx.me, side));
    parts.push(`${plural(cost[side], "coin")} to ${who} (${SIDE_WORDS[side]})${bought.length ? ` for ${listWords(bought)}` : ""}`);
  }
  if (cost.bank) parts.push(`${plural(cost.bank, "coin")} to the bank`);
  return parts.length ? listWords(parts) : "no coins (you make all it needs)";
}

function totalPaid(a) {
  return Object.values(a.cost || {}).reduce((x, y) => x + (typeof y === "number" ? y : 0), 0);
}

function trackOf(a, ctx) {
  if (a.type === "wonder") {
    const me = ctx.view.players[ctx.me];
    return me && me.shipyard ? me.shipyard.wonder_track : null;
  }
  const info = cardInfo("classic", a.card);
  return info ? info.color : null;
}

function navalWords(a, ctx) {
  const track = trackOf(a, ctx);
  const me = ctx.view.players[ctx.me];
  const at = me && me.shipyard ? me.shipyard.ships[track] : 0;
  const space = track ? shipSpace(track, at + 1) : null;
  const next = me && me.shipyard && me.shipyard.next_costs ? me.shipyard.next_costs[track] : null;
  const cost = next ? listWords(Object.entries(next).map(([r, n]) => (r === "coins" ? plural(n, "coin") : `${n} ${r}`))) : "";
  const gives = !space ? "" : space.effects && space.effects.length ? `, which gives ${space.text.replace(/\.$/, "").toLowerCase()}` : " (a space that gives nothing)";
  return `with a naval step${cost ? ` (${cost} more)` : ""}: the ${track || ""} ship to space ${at + 1}${gives}`;
}

function movesWords(a) {
  const m = a.moves || [];
  return m.length ? `move the ${listWords(m)} ship${m.length > 1 ? "s" : ""} one space up` : "move no ship";
}

// A pick or action in words, for the pick banner and the live region.
export function actionWords(a, ctx, { future = false } = {}) {
  const verb = (base, fut) => (future ? fut : base);
  let out;
  if (a.type === "build") out = `${verb("Build", "You will build")} ${a.card}`;
  else if (a.type === "wonder") out = `${verb("Build", "You will build")} stage ${a.stage} of your wonder with ${a.card}`;
  else if (a.type === "discard") out = `${verb("Discard", "You will discard")} ${a.card}${a.reward === "yellow" ? " and move the yellow ship" : " for 3 coins"}`;
  else return words(a.type);
  if (a.type !== "discard") out += `, paying ${paymentWords(a, ctx)}`;
  if (a.naval) out += `, ${navalWords(a, ctx)}`;
  if (a.moves && a.moves.length) out += `, and ${movesWords(a)}`;
  return out;
}

function cheapest(list) {
  return [...list].sort((x, y) => totalPaid(x) - totalPaid(y))[0];
}

function unplayableReason(ctx, card, use, options = {}) {
  if (use === "build") {
    const r = ctx.view.unplayable && ctx.view.unplayable[card];
    return r && r.build ? reasonWords(r.build, options) : "not possible now";
  }
  if (use === "wonder") {
    const r = ctx.view.wonder_unplayable;
    return r ? reasonWords(r, options) : "not possible now";
  }
  return "not possible now";
}

function reasonWords(r, { short = false } = {}) {
  if (r.reason === "resources" && r.missing && Object.keys(r.missing).length) {
    const missing = listWords(Object.entries(r.missing).map(([res, n]) => `${n} ${res}`));
    return short ? `needs ${missing} more` : `needs ${missing} more than you make and your neighbours sell`;
  }
  if (short && r.reason === "coins") return `costs ${plural(r.cost, "coin")}, you have ${r.have}`;
  if (short && r.reason === "already_built") return "already in your city";
  return r.text || words(r.reason);
}

function nextStage(ctx) {
  const me = ctx.view.players[ctx.me];
  if (!me) return null;
  const n = me.stages_built + 1;
  return n <= me.stages_total ? { n, info: stageInfo(me.wonder, me.side, n), wonder: me.wonder } : null;
}

// What a use gives, in words, for its button.
function useWords(use, card, ctx, list) {
  const best = list.length ? cheapest(list) : null;
  const price = best && best.type !== "discard" ? ` — ${totalPaid(best) ? plural(totalPaid(best), "coin") : best.free ? `free (${freeWords(best.free)})` : "no coins"}` : "";
  if (use === "build") return `Build ${card}${price}`;
  if (use === "wonder") {
    const stage = nextStage(ctx);
    const gives = stage && stage.info ? `: ${stage.info.text.replace(/\.$/, "")}` : "";
    return `Wonder stage${stage ? ` ${stage.n}` : ""}${gives}${price}`;
  }
  if (use === "discard") return "Discard for 3 coins";
  if (use === "discard_yellow") return "Discard and move the yellow ship";
  return words(use);
}

function chooserFor(use, list, ctx) {
  // the variants of one use: naval step or not, ship moves, then the payment
  const navals = [...new Set(list.map((a) => Boolean(a.naval)))];
  if (facets.naval === undefined || !navals.includes(facets.naval)) facets.naval = navals.includes(false) ? false : navals[0];
  let pool = list.filter((a) => Boolean(a.naval) === facets.naval);
  const moves = [...new Set(pool.map(movesKey))];
  if (facets.moves === undefined || !moves.includes(facets.moves)) facets.moves = moves[0];
  pool = pool.filter((a) => movesKey(a) === facets.moves);
  const pays = [...new Map(pool.map((a) => [payKey(a), a])).values()].sort((x, y) => totalPaid(x) - totalPaid(y));
  if (facets.pay === undefined || !pays.some((a) => payKey(a) === facets.pay)) facets.pay = payKey(pays[0]);
  const action = pays.find((a) => payKey(a) === facets.pay);

  const groups = [];
  if (navals.length > 1) {
    groups.push(radioGroup("Naval step", navals.map((v) => ({
      value: v, checked: v === facets.naval,
      label: v ? navalWords(list.find((a) => a.naval), ctx) : "no naval step",
    })), (v) => { facets.naval = v; ctx.rerender(); }));
  }
  if (moves.length > 1) {
    groups.push(radioGroup("Ship moves", moves.map((k) => ({
      value: k, checked: k === facets.moves,
      label: movesWords(pool.find((a) => movesKey(a) === k) || { moves: k ? k.split("+") : [] }),
    })), (v) => { facets.moves = v; ctx.rerender(); }));
  }
  if (pays.length > 1 || (pays.length === 1 && use !== "discard" && use !== "discard_yellow")) {
    groups.push(radioGroup("Payment", pays.map((a) => ({
      value: payKey(a), checked: payKey(a) === facets.pay, label: paymentWords(a, ctx),
    })), (v) => { facets.pay = v; ctx.rerender(); }));
  }
  const confirm = h("button", {
    type: "button", class: "act confirm", "data-key": "confirm",
    onclick: () => ctx.send(action),
  }, [actionWords(action, ctx)]);
  return h("div", { class: "chooser" }, [...groups, confirm]);
}

function radioGroup(legend, options, onChange) {
  const name = `f-${legend.toLowerCase().replaceAll(" ", "-")}`;
  return h("fieldset", { class: "facet" }, [
    h("legend", {}, [legend]),
    ...options.map((o) => h("label", { class: "option" }, [
      h("input", { type: "radio", name, checked: o.checked, "data-key": `${name}:${String(o.value)}`, onchange: () => onChange(o.value) }),
      " ", o.label,
    ])),
  ]);
}

export function variantsWords(list) {
  const parts = [];
  // ways to pay as the payment box lists them: for one choice of naval step at a time
  const byNaval = new Map();
  for (const a of list) {
    const key = Boolean(a.naval);
    if (!byNaval.has(key)) byNaval.set(key, new Set());
    byNaval.get(key).add(payKey(a));
  }
  const pays = Math.max(...[...byNaval.values()].map((keys) => keys.size));
  if (pays > 1) parts.push(`${pays} ways to pay`);
  if (new Set(list.map((a) => Boolean(a.naval))).size > 1) parts.push("with or without a naval step");
  if (new Set(list.map(movesKey)).size > 1) parts.push("a choice of ship moves");
  return `${listWords(parts)}: choose`;
}

// The hand as card tiles, and the uses of the chosen card.
export function renderHand(ctx) {
  const view = ctx.view;
  const legal = ctx.legal || [];
  const byCard = new Map();
  for (const a of legal) {
    if (!a.card || !["build", "wonder", "discard"].includes(a.type)) continue;
    if (!byCard.has(a.card)) byCard.set(a.card, []);
    byCard.get(a.card).push(a);
  }
  const canAct = byCard.size > 0;
  if (selected && !view.hand.includes(selected)) resetSelection();
  const pick = view.pick;
  const tiles = view.hand.map((name) => {
    const acts = byCard.get(name) || [];
    const builds = acts.filter((a) => a.type === "build");
    const info = cardInfo("classic", name);
    const status = !canAct ? "" : builds.length
      ? `Build: ${builds.some((a) => a.free) ? `free (${freeWords(builds.find((a) => a.free).free)})` : totalPaid(cheapest(builds)) ? `from ${plural(totalPaid(cheapest(builds)), "coin")}` : "you make all it needs"}`
      : `Cannot build: ${unplayableReason(ctx, name, "build", { short: true })}`;
    const isPick = pick && pick.card === name;
    const tile = cardTile("classic", name, {
      age: view.age,
      tag: canAct ? "button" : "div",
      class: `hand-card${selected === name ? " selected" : ""}${isPick ? " picked" : ""}${builds.length ? "" : canAct ? " unbuildable" : ""}`,
      attrs: canAct ? { type: "button", "data-key": `hand:${name}`, "aria-pressed": selected === name ? "true" : "false", onclick: () => { selected = name; chosenUse = null; facets = {}; ctx.rerender(); ctx.focusActions(); } } : {},
      label: `${name}${isPick ? " (your pick)" : ""}. ${info ? `${info.text} Costs ${costWords(info.cost)}.` : ""}${status ? ` ${status}.` : ""}`,
    });
    const statusLine = status ? h("span", { class: `hand-status${builds.length ? "" : " bad"}`, "aria-hidden": "true" }, [status]) : null;
    // a card to choose is a button: its details open from a button of their own beside it
    return h("li", { class: "hand-slot" }, [tile, canAct ? h("span", { class: "slot-foot" }, [statusLine, detailButton({ kind: "card", game: "classic", name }, name)]) : statusLine]);
  });
  const hand = h("ul", { class: "hand-cards", "aria-label": `${plural(view.hand.length, "card")} in your hand` }, tiles);
  return { hand, actions: canAct ? actionsPanel(ctx, byCard) : waitingNote(ctx) };
}

function waitingNote(ctx) {
  const view = ctx.view;
  if (view.phase === "pick" && view.pick) return h("p", { class: "muted" }, ["Waiting for the other players…"]);
  return h("p", { class: "muted" }, [view.hand.length ? "You have nothing to decide now." : ""]);
}

function actionsPanel(ctx, byCard) {
  if (!selected) {
    return h("p", { class: "hint" }, [ctx.view.pick ? "Choose another card to change your pick." : "Choose a card of your hand: then build it, use it for a wonder stage or discard it."]);
  }
  const acts = byCard.get(selected) || [];
  const info = cardInfo("classic", selected);
  const uses = ["build", "wonder", "discard", "discard_yellow"];
  const buttons = [];
  let chooser = null;
  for (const use of uses) {
    const list = acts.filter((a) => useOf(a) === use);
    if (!list.length && use === "discard_yellow") continue;
    if (!list.length) {
      const reason = unplayableReason(ctx, selected, use);
      const id = `why-${use}`;
      buttons.push(h("div", { class: "use impossible" }, [
        h("button", { type: "button", class: "act", disabled: true, "aria-describedby": id }, [useWords(use, selected, ctx, [])]),
        h("span", { class: "why", id }, [reason]),
      ]));
      continue;
    }
    const variants = new Set(list.map((a) => `${payKey(a)}|${a.naval}|${movesKey(a)}`));
    const single = variants.size === 1;
    const best = cheapest(list);
    buttons.push(h("div", { class: `use${chosenUse === use ? " open" : ""}` }, [
      h("button", {
        type: "button", class: `act use-${use}`, "data-key": `use:${use}`, "aria-expanded": single ? null : String(chosenUse === use),
        onclick: () => {
          if (single) { ctx.send(best); return; }
          chosenUse = use; facets = {}; ctx.rerender();
          const chooser = document.querySelector("#actions .chooser");
          if (chooser) chooser.scrollIntoView({ block: "nearest" });
        },
      }, [useWords(use, selected, ctx, list)]),
      use === "build" && info ? effectIcons(info.effects) : null,
      use === "wonder" && nextStage(ctx) && nextStage(ctx).info ? effectIcons(nextStage(ctx).info.effects) : null,
      h("span", { class: "use-cost muted" }, [use.startsWith("discard") ? "" : single ? paymentWords(best, ctx) : variantsWords(list)]),
    ]));
    if (chosenUse === use && !single) chooser = chooserFor(use, list, ctx);
  }
  return h("div", { class: "uses", role: "group", "aria-label": `What to do with ${selected}` }, [
    h("h3", { class: "uses-title" }, [selected, info ? h("span", { class: "muted" }, [` — ${info.text}`]) : null]),
    ...buttons,
    chooser,
  ]);
}

// The pick banner: what you will do at the reveal, highlighted, changeable until then.
export function pickBanner(ctx) {
  const pick = ctx.view.pick;
  if (!pick) return null;
  return h("p", {}, [icon("check", { label: "your pick" }), " ", h("strong", {}, [`${actionWords(pick, ctx, { future: true })}.`]),
    ctx.view.phase === "pick" ? h("span", { class: "muted" }, [" You can change it until everyone has chosen."]) : null]);
}

// Under the island choice: the others go back; an island that moves a ship of your choice has one
// button per ship colour.
function islandsNote(legal) {
  const counts = new Map();
  for (const a of legal.filter((x) => x.type === "keep_island")) counts.set(a.island, (counts.get(a.island) || 0) + 1);
  const several = [...counts.entries()].filter(([, n]) => n > 1).map(([name]) => name);
  return `The others go back to the deck.${several.length ? ` ${listWords(several)}: one button for each ship you may move.` : ""}`;
}

// Decisions outside the hand: Halikarnassos's free build from the discard pile, Armada islands.
export function renderDecision(ctx) {
  const view = ctx.view;
  const decision = view.decision;
  const legal = ctx.legal || [];
  if (!decision || !legal.length) return null;
  if (decision.kind === "build_from_discard") {
    const byCard = new Map();
    for (const a of legal.filter((x) => x.type === "build_from_discard")) {
      if (!byCard.has(a.card)) byCard.set(a.card, []);
      byCard.get(a.card).push(a);
    }
    const pass = legal.find((a) => a.type === "pass");
    return h("div", {}, [
      h("h2", { class: "section-title" }, ["Build a card of the discard pile for free"]),
      h("ul", { class: "hand-cards" }, [...byCard.entries()].map(([name, list]) => h("li", { class: "hand-slot" }, [
        cardTile("classic", name, { tag: "button", attrs: { type: "button", onclick: () => ctx.send(list[0]) }, label: `Build ${name} for free. ${cardInfo("classic", name) ? cardInfo("classic", name).text : ""}` }),
        h("span", { class: "slot-foot" }, [
          list.length > 1 ? h("span", { class: "muted" }, [`then ${movesWords(list[0])}`]) : null,
          detailButton({ kind: "card", game: "classic", name }, name),
        ]),
      ]))),
      pass ? h("button", { type: "button", class: "act secondary", onclick: () => ctx.send(pass) }, ["Build nothing"]) : null,
    ]);
  }
  if (decision.kind === "keep_island") {
    return h("div", {}, [
      h("h2", { class: "section-title" }, ["You explored: keep one island"]),
      h("p", { class: "muted" }, [islandsNote(legal)]),
      h("ul", { class: "islands-choice" }, legal.filter((a) => a.type === "keep_island").map((a) => {
        const info = islandInfo(a.island);
        // the ship the island moves is its own effect, chosen here (one button per ship where the
        // island lets you choose): said once, not as a second move
        const moved = a.moves && a.moves.length ? `${listWords(a.moves)} ship${a.moves.length > 1 ? "s" : ""}` : "";
        const choices = legal.filter((b) => b.type === "keep_island" && b.island === a.island).length;
        const which = moved ? (choices > 1 ? `: your ${moved} moves up one space` : "") : "";
        const label = `Keep ${a.island}${info ? `: ${info.text}` : ""}${choices > 1 && moved ? ` This one moves your ${moved}.` : ""}`;
        return h("li", { class: "with-detail" }, [h("button", { type: "button", class: "act island-choice", "aria-label": label, title: label, onclick: () => ctx.send(a) }, [
          h("span", { class: "island-choice-name" }, [icon("island", { label: "island" }), ` Keep ${a.island}${which}`]),
          info ? effectIcons(info.effects) : null,
          info ? h("span", { class: "island-text" }, [info.text]) : null,
        ]), detailButton({ kind: "island", name: a.island }, a.island)]);
      })),
    ]);
  }
  return null;
}
