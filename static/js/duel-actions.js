// What you can do at the Duel table and what it costs you: the accessible cards of the structure as
// buttons with your price, the uses of the chosen card (build it, discard it, build one of your
// wonders with it) or why one is impossible, and the decision panels (draft a wonder, choose a
// progress token, destroy, build from the discard pile, choose who starts). The keyboard focus stays
// in the table across redraws.
import { cardTile, cardWords, colorWords, componentDetail, costIcons, costWords, detailButton, effectIcons } from "./cards.js";
import { cardInfo, tokenInfo, wonderInfo } from "./catalog.js";
import { possessive, tokenTile, who, wonderTile } from "./duel-tiles.js";
import { icon } from "./icons.js";
import { ageName, h, listWords, plural, words } from "./ui.js";

// The card of the structure the player clicked: {card} (forgotten when it is no longer accessible).
let selected = null;
// After a selection, focus goes to the card's first use (keyboard players land on the choices).
let focusUses = false;

function find(legal, test) {
  return legal.find(test) || null;
}

// The selection survives a redraw while its card is still accessible to the player in the play phase.
export function keepSelection(c) {
  const { view, acting } = c;
  if (!(acting && view.phase === "play" && selected && accessibleNames(view).has(selected.card))) selected = null;
}

export function selectedCard() {
  return selected ? selected.card : null;
}

function accessibleNames(view) {
  return new Set((view.structure || []).filter((s) => s.accessible && s.card).map((s) => s.card));
}

// Focus stays in the table across a redraw: on the same button when it is still there (found by its
// key), else on the first thing to do once there is one; after a click on a card of the structure it
// moves to the card's first use (keyboard players land on the choices).
let focusWanted = false;
let focusKey = null;

export function keepFocus() {
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

// ----- the wonder draft ---------------------------------------------------------------------------

function draftDecision(c) {
  const { view, legal } = c;
  const offer = (view.draft && view.draft.offer) || [];
  const items = offer.map((w) => {
    const action = find(legal, (a) => a.type === "draft_wonder" && a.wonder === w);
    if (!action) return h("li", {}, [wonderTile(w)]);
    const info = wonderInfo("duel", w);
    const label = `Draft ${w}: ${info ? `costs ${costWords(info.cost)}. ${info.text}` : ""}`;
    return h("li", { class: "with-detail" }, [wonderTile(w, {
      tag: "button", cls: "act duel-choice", label,
      attrs: { type: "button", dataset: { key: `draft:${w}`, name: w }, onclick: () => c.send(action) },
    }), detailButton({ kind: "wonder", game: "duel", name: w }, w)]);
  });
  return h("div", { class: "duel-decision" }, [
    h("h2", { class: "section-title" }, ["Draft a wonder"]),
    h("p", { class: "muted" }, ["Click the wonder you keep; the other player takes from what is left."]),
    h("ul", { class: "duel-tiles duel-offer" }, items),
  ]);
}

// ----- the structure ------------------------------------------------------------------------------

// An accessible card of the structure as a button: its price for you, its colour, effect and chains.
export function structureButton(c, name, isSelected) {
  const info = cardInfo("duel", name);
  const color = info ? info.color : "unknown";
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
  return button;
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
export function usesPanel(c) {
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

export function waitingPanel(c) {
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

// ----- decisions ----------------------------------------------------------------------------------------

export function decisionPanel(c) {
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
    return h("li", { class: "with-detail" }, [tokenTile(t, {
      tag: "button", cls: "act duel-choice",
      label: `Take ${t}: ${info ? info.text : ""}`,
      attrs: { type: "button", dataset: { key: `token:${t}`, name: t }, title: info && info.rules ? info.rules : t, onclick: () => c.send(action) },
    }), detailButton(info ? componentDetail(info) : { kind: "token", name: t }, t)]);
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
    return h("li", { class: "with-detail" }, [cardTile("duel", n, {
      tag: "button", class: "act duel-choice",
      label: `${verb} ${cardWords(n, info)}`,
      attrs: { type: "button", dataset: { key: `${type}:${n}`, card: n }, onclick: () => c.send(action) },
    }), detailButton({ kind: "card", game: "duel", name: n }, n)]);
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
