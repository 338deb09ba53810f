// The detail panel: every card, wonder stage, Duel wonder, progress token, island and shipyard space
// on the table opens a dialog with its name, cost and words from the catalog (the engine's
// describe_components()), each effect beside its icons, the rules of an ability, chains, and a link to
// the icon legend. A tile opens it by click, tap, Enter or Space (its data-detail, see cards.js
// detailAttrs); Escape, the Close button or a tap outside closes it, and the focus goes back to what
// opened it (or its redrawn copy, the table being redrawn on every state). A price or a production
// choice (no component) opens the same panel with its sentence alone.
import { colorWords, costIcons, costWords, effectIcons } from "./cards.js";
import { catalog, cardInfo, islandInfo, shipSpace, stageInfo, tokenInfo, wonderInfo } from "./catalog.js";
import { icon } from "./icons.js";
import { $, ageName, capitalise, h, listWords, words } from "./ui.js";

// The icon legend, with the way back to this room's table.
export function legendHref() {
  const code = new URLSearchParams(window.location.search).get("code");
  return code && /^[A-Za-z0-9]+$/.test(code) ? `/static/icons.html?room=${encodeURIComponent(code)}` : "/static/icons.html";
}

let dialog = null;
let opener = null; // {element, detail}: focus goes back there

function ensureDialog() {
  if (dialog) return dialog;
  const close = h("button", { type: "button", class: "detail-close secondary", onclick: () => dialog.close() }, ["Close"]);
  dialog = h("dialog", { id: "detail", class: "detail", "aria-labelledby": "detail-title" }, [
    h("div", { class: "detail-head" }, [h("h2", { id: "detail-title" }), close]),
    h("div", { class: "detail-body" }),
  ]);
  // a tap on the backdrop (outside the panel's box) closes it
  dialog.addEventListener("click", (event) => {
    if (event.target !== dialog) return;
    const r = dialog.getBoundingClientRect();
    const inside = event.clientX >= r.left && event.clientX <= r.right && event.clientY >= r.top && event.clientY <= r.bottom;
    if (!inside) dialog.close();
  });
  dialog.addEventListener("close", restoreFocus);
  document.body.append(dialog);
  return dialog;
}

function restoreFocus() {
  if (!opener) return;
  const { element, detail } = opener;
  opener = null;
  const target = element.isConnected ? element
    : detail ? document.querySelector(`[data-detail="${CSS.escape(detail)}"]`) : null;
  if (target) target.focus({ preventScroll: !element.isConnected });
}

export function openDetail(detail, from, text = null) {
  const d = ensureDialog();
  const content = text !== null ? { title: text, body: [] } : describe(JSON.parse(detail));
  d.querySelector("#detail-title").textContent = content.title;
  d.querySelector(".detail-body").replaceChildren(...content.body.filter(Boolean),
    h("p", { class: "detail-legend" }, [h("a", { href: legendHref() }, ["What every icon means"])]));
  opener = { element: from, detail };
  if (!d.open) d.showModal();
  d.querySelector(".detail-close").focus();
}

// Clicks, taps and keys on anything with a data-detail open its panel.
export function installDetails(root = document) {
  const link = $("legend-link");
  if (link) link.href = legendHref();
  root.addEventListener("click", (event) => {
    if (!(event.target instanceof Element) || event.target.closest("dialog")) return;
    const tile = event.target.closest("[data-detail]");
    if (tile) {
      const inner = event.target.closest("button, a, summary, label, input, select");
      if (inner && inner !== tile && tile.contains(inner)) return;
      openDetail(tile.dataset.detail, tile);
      return;
    }
    const plain = event.target.closest(".price, .choice");
    if (plain && plain.title && !plain.closest("button, a, summary, label")) openDetail(null, plain, plain.getAttribute("aria-label") || plain.title);
  });
  root.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const tile = event.target instanceof Element ? event.target : null;
    if (!tile || !tile.matches("[data-detail]") || tile.matches("button")) return; // a button clicks by itself
    event.preventDefault();
    openDetail(tile.dataset.detail, tile);
  });
}

// ----- what a panel says ---------------------------------------------------------------------------

function describe(d) {
  switch (d.kind) {
    case "card": return cardPanel(d.game, d.name);
    case "stage": return stagePanel(d.wonder, d.side, d.n);
    case "wonder": return componentPanel(wonderInfo(d.game, d.name), d.name, "Wonder", d.game);
    case "token": return componentPanel(tokenInfo(d.name), d.name, "Progress token", "duel");
    case "island": return islandPanel(d.name);
    case "space": return spacePanel(d);
    default: return { title: String(d.name || ""), body: [] };
  }
}

function subtitle(text) {
  return h("p", { class: "detail-kind" }, [text]);
}

function costLine(cost, label = "Cost: ") {
  const free = costWords(cost) === "free";
  return h("p", { class: "detail-cost" }, [h("strong", {}, [label]), free ? null : costIcons(cost), " ", costWords(cost)]);
}

function sentence(text) {
  return h("p", { class: "detail-text" }, [text]);
}

// Each effect beside its icons, and the whole rule of an ability where the catalog has one.
function effectsList(effects, game) {
  if (!effects || !effects.length) return null;
  const rules = (catalog() && catalog()[game === "duel" ? "duel" : "classic"].abilities) || {};
  return h("ul", { class: "detail-effects", "aria-label": "Effects" }, effects.map((e) => h("li", {}, [
    effectIcons([e]),
    h("span", {}, [capitalise(e.text || words(e.type))]),
    e.type === "ability" && rules[e.ability] ? h("span", { class: "detail-rule" }, [capitalise(rules[e.ability])]) : null,
  ])));
}

function provisional(info) {
  return info && info.provisional ? h("p", { class: "detail-note" }, [`Provisional (Armada): ${info.reason || "a value of the project's own"}.`]) : null;
}

function unknown(name) {
  return { title: name, body: [h("p", { class: "muted" }, ["The catalog does not describe it."])] };
}

function cardPanel(game, name) {
  const info = cardInfo(game, name);
  if (!info) return unknown(name);
  const ages = listWords((info.ages && info.ages.length ? info.ages : [info.age]).map(ageName));
  const kind = `${capitalise(colorWords(info.color))} card, ${ages}${info.expansion ? ` (${capitalise(info.expansion)})` : ""}`;
  const chain = [];
  if (info.chain_from && info.chain_from.length) chain.push(h("li", {}, [icon("chain", { label: "chain" }), ` Free if you have ${listWords(info.chain_from)}.`]));
  if (info.chain_to && info.chain_to.length) chain.push(h("li", {}, [icon("chain", { label: "chain" }), ` Makes ${listWords(info.chain_to)} free.`]));
  return {
    title: name,
    body: [
      subtitle(kind),
      costLine(info.cost),
      sentence(info.text),
      effectsList(info.effects, game),
      chain.length ? h("ul", { class: "detail-chain", "aria-label": "Chain" }, chain) : null,
      provisional(info),
    ],
  };
}

function stagePanel(wonder, side, n) {
  const info = stageInfo(wonder, side, n);
  const title = `${wonder}, stage ${n}`;
  if (!info) return unknown(title);
  const board = wonderInfo("classic", wonder);
  const total = board && board.sides[side] ? board.sides[side].length : null;
  return {
    title,
    body: [
      subtitle(`Wonder stage ${n}${total ? ` of ${total}` : ""}, ${side} side`),
      costLine(info.cost),
      sentence(info.text),
      effectsList(info.effects, "classic"),
      provisional(board),
    ],
  };
}

function componentPanel(info, name, kind, game) {
  if (!info) return unknown(name);
  return {
    title: name,
    body: [
      subtitle(kind),
      info.cost ? costLine(info.cost) : null,
      sentence(info.text),
      effectsList(info.effects, game),
      info.rules ? h("p", { class: "detail-rule" }, [info.rules]) : null,
    ],
  };
}

function islandPanel(name) {
  const info = islandInfo(name);
  if (!info) return unknown(name);
  return {
    title: name,
    body: [subtitle(`Island, level ${info.level}`), sentence(info.text), effectsList(info.effects, "classic"), provisional(info)],
  };
}

// A space of a ship track: its words, what reaching it costs on this shipyard, and the whole track.
function spacePanel(d) {
  const info = shipSpace(d.track, d.space);
  const title = `${capitalise(d.track)} track, space ${d.space}`;
  if (!info) return unknown(title);
  const yard = d.board && catalog() ? catalog().armada.shipyards[d.board] : null;
  const step = yard && yard.costs[d.track] ? yard.costs[d.track][d.space - 1] : null;
  const spaces = (catalog() && catalog().armada.ship_spaces[d.track]) || [];
  const here = typeof d.at === "number" ? d.at : null;
  return {
    title,
    body: [
      subtitle(`Shipyard space (Armada)${here === null ? "" : here ? `: the ship is at space ${here} of 6` : ": the ship has not moved yet"}`),
      step ? costLine(step, `Cost of this step on ${d.board}: `) : null,
      sentence(info.text),
      effectsList(info.effects, "classic"),
      spaces.length ? h("ol", { class: "detail-track", "aria-label": `The ${d.track} track` }, spaces.map((s) => h("li", {
        class: `${s.space === d.space ? "this" : ""}${here !== null && s.space === here ? " ship" : ""}`.trim() || null,
      }, [
        `${s.space}. ${s.text}`,
        s.space === d.space ? h("strong", {}, [" (this space)"]) : null,
        here !== null && s.space === here ? " (ship here)" : null,
      ]))) : null,
      provisional(info),
    ],
  };
}
