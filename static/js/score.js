// The end of a game: the score sheet by category, and a picture of it (points by category for each
// player as stacked bars, drawn here in SVG; negative points stack below the zero line).
import { h, listWords, words } from "./ui.js";

const SVG = "http://www.w3.org/2000/svg";

const CATEGORY = {
  military: { title: "military conflicts", color: "#c62828", pattern: "diag" },
  treasury: { title: "treasury (coins)", color: "#c99a06", pattern: "dots" },
  wonder: { title: "wonder stages", color: "#6d4c41", pattern: "none" },
  wonders: { title: "wonders", color: "#6d4c41", pattern: "none" },
  civilian: { title: "civilian buildings (blue)", color: "#1565c0", pattern: "none" },
  commercial: { title: "commercial buildings (yellow)", color: "#f9a825", pattern: "cross" },
  guilds: { title: "guilds (purple)", color: "#7b1fa2", pattern: "diag" },
  science: { title: "science (green)", color: "#2e7d32", pattern: "dots" },
  progress: { title: "progress tokens", color: "#00897b", pattern: "cross" },
  naval: { title: "naval conflict tokens (Armada)", color: "#0d47a1", pattern: "cross" },
  islands: { title: "islands kept (Armada)", color: "#00838f", pattern: "dots" },
  shipyard: { title: "shipyard spaces reached (Armada)", color: "#455a64", pattern: "diag" },
};

function info(cat) {
  return CATEGORY[cat] || { title: words(cat), color: "#757575", pattern: "none" };
}

export function scoreTable(result, name) {
  const winners = new Set(result.winners);
  const scores = result.scores;
  const head = h("tr", {}, [h("th", { scope: "col" }, ["Category"]), ...scores.map((s) =>
    h("th", { scope: "col", class: winners.has(s.seat) ? "winner" : "" }, [name(s.seat), s.wonder ? h("span", { class: "muted sub" }, [s.wonder]) : null]))]);
  const rows = result.categories.map((cat) => h("tr", {}, [
    h("th", { scope: "row", title: info(cat).title }, [h("span", { class: `swatch sw-${cat}`, "aria-hidden": "true" }), info(cat).title]),
    ...scores.map((s) => (cat === "science" && s.science_choice
      ? h("td", { "aria-describedby": `science-choice-${s.seat}` }, [s.categories[cat], h("span", { class: "note-mark", "aria-hidden": "true" }, ["*"])])
      : h("td", {}, [s.categories[cat]]))),
  ]));
  const total = h("tr", { class: "total" }, [h("th", { scope: "row" }, ["Total"]), ...scores.map((s) =>
    h("td", { class: winners.has(s.seat) ? "winner" : "" }, [h("strong", {}, [s.total])]))]);
  const coins = scores.some((s) => s.coins !== undefined)
    ? h("tr", { class: "coins" }, [h("th", { scope: "row" }, ["Coins left (tie-break)"]), ...scores.map((s) => h("td", {}, [s.coins ?? ""]))])
    : null;
  const victory = result.victory ? ` (${words(result.victory)} victory)` : "";
  const table = h("table", { class: "scores" }, [
    h("caption", {}, [`Won by ${listWords([...winners].map(name))}${victory}`]),
    h("thead", {}, [head]),
    h("tbody", {}, [...rows, total, coins]),
  ]);
  // wider than a phone: the table scrolls in its own box (reachable by keyboard), and says so
  const hint = h("p", { class: "scroll-hint muted", hidden: true }, ["The table scrolls sideways: swipe it to see every player."]);
  const scroller = h("div", { class: "scores-scroll", tabindex: "0", role: "region", "aria-label": "Score table" }, [table]);
  return h("div", { class: "scores-box" }, [hint, scroller]);
}

// Once on the page: show the scroll hint of each score table wider than its box.
export function markScrolling(root) {
  for (const box of root.querySelectorAll(".scores-box")) {
    const scroller = box.querySelector(".scores-scroll");
    box.querySelector(".scroll-hint").hidden = scroller.scrollWidth <= scroller.clientWidth + 1;
  }
}

// ----- science symbols of choice ------------------------------------------------------------------

const SYMBOL_NOUN = { compass: ["a compass", "compasses"], gear: ["a gear", "gears"], tablet: ["a tablet", "tablets"] };

function symbolsWords(counted) {
  return listWords(Object.entries(counted).map(([symbol, n]) => {
    const [one, many] = SYMBOL_NOUN[symbol] || [`a ${words(symbol)}`, words(symbol)];
    return n === 1 ? one : `${n} ${many}`;
  }));
}

function sourceWords(source) {
  if (source.card) return source.card;
  if (source.wonder) return `${source.wonder}’s stage ${source.stage}`;
  if (source.island) return source.island;
  return "a symbol of choice";
}

const points = (n) => `${n} ${n === 1 ? "point" : "points"}`;

// "Babylon’s stage 2 counted as a tablet: it gives the most science points, 18 instead of 16." The
// engine chose when scoring (result.scores[i].science_choice: every way to count them, best first).
export function scienceChoiceWords(choice) {
  const [best, ...others] = choice.choices;
  const from = choice.from || [];
  const what = from.length ? listWords(from.map(sourceWords)) : "The symbols of choice";
  const they = from.length > 1 ? "together they give" : "it gives";
  const lower = others.filter((c) => c.points < best.points);
  const ties = others.filter((c) => c.points === best.points);
  let why;
  if (!lower.length) why = `every choice gives the same ${points(best.points)}`;
  else {
    why = `${they} the most science points, ${best.points} instead of ${lower[0].points}`;
    if (ties.length) why += ` (${listWords(ties.map((c) => symbolsWords(c.counted_as)))} would give as many)`;
  }
  return `${what} counted as ${symbolsWords(best.counted_as)}: ${why}.`;
}

// The sentence of every player whose symbols of choice the engine placed, under the score sheet.
export function scienceNotes(result, name) {
  const chosen = result.scores.filter((s) => s.science_choice && s.science_choice.choices && s.science_choice.choices.length);
  if (!chosen.length) return null;
  return h("section", { class: "science-notes", "aria-labelledby": "science-notes-h" }, [
    h("h3", { id: "science-notes-h" }, ["* Science symbols of choice"]),
    h("ul", {}, chosen.map((s) => h("li", { id: `science-choice-${s.seat}` }, [
      h("strong", {}, [`${name(s.seat)}: `]), scienceChoiceWords(s.science_choice),
    ]))),
  ]);
}

function svg(tag, attrs = {}, children = []) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) if (c) node.append(c);
  return node;
}

function patterns(categories) {
  const defs = svg("defs");
  for (const cat of categories) {
    const { color, pattern } = info(cat);
    const p = svg("pattern", { id: `pat-${cat}`, width: 6, height: 6, patternUnits: "userSpaceOnUse" });
    p.append(svg("rect", { width: 6, height: 6, fill: color }));
    if (pattern === "diag") p.append(svg("path", { d: "M0,6 L6,0", stroke: "rgba(255,255,255,.55)", "stroke-width": 1.5 }));
    if (pattern === "dots") p.append(svg("circle", { cx: 3, cy: 3, r: 1.1, fill: "rgba(255,255,255,.6)" }));
    if (pattern === "cross") p.append(svg("path", { d: "M0,3 H6 M3,0 V6", stroke: "rgba(0,0,0,.28)", "stroke-width": 1 }));
    defs.append(p);
  }
  return defs;
}

// Stacked bars: one bar a player, one segment a category (hover or focus shows its points).
export function scoreChart(result, name) {
  const scores = result.scores;
  const cats = result.categories;
  const pos = scores.map((s) => cats.reduce((a, c) => a + Math.max(0, s.categories[c]), 0));
  const neg = scores.map((s) => cats.reduce((a, c) => a + Math.min(0, s.categories[c]), 0));
  const top = Math.max(10, ...pos);
  const bottom = Math.min(0, ...neg);
  const barW = 52;
  const gap = 40;
  const left = 40;
  const width = left + scores.length * (barW + gap);
  const plotH = 220;
  const scale = plotH / (top - bottom);
  const zero = 26 + top * scale;
  const height = zero + -bottom * scale + 44;
  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, width: "100%", role: "img", class: "score-chart",
    "aria-label": `Points by category: ${scores.map((s) => `${name(s.seat)} ${s.total}`).join(", ")}`,
  });
  chart.append(patterns(cats));
  const step = top > 60 ? 20 : 10;
  for (let v = 0; v <= top; v += step) {
    const y = zero - v * scale;
    chart.append(svg("line", { x1: left - 4, x2: width, y1: y, y2: y, stroke: v ? "#e0d8c8" : "#5d574c", "stroke-width": v ? 1 : 1.5 }));
    const label = svg("text", { x: left - 8, y: y + 4, "text-anchor": "end", "font-size": 11, fill: "#4a463e" });
    label.textContent = String(v);
    chart.append(label);
  }
  scores.forEach((s, i) => {
    const x = left + i * (barW + gap) + gap / 2;
    let up = zero;
    let down = zero;
    const bar = svg("g", { class: "bar", "data-seat": s.seat });
    for (const cat of cats) {
      const v = s.categories[cat];
      if (!v) continue;
      const hgt = Math.abs(v) * scale;
      const y = v > 0 ? (up -= hgt) : down;
      if (v < 0) down += hgt;
      const rect = svg("rect", { x, y, width: barW, height: hgt, fill: `url(#pat-${cat})`, stroke: "#fff", "stroke-width": 0.8, class: `seg seg-${cat}` });
      const title = svg("title");
      title.textContent = `${name(s.seat)}: ${v} ${v === 1 || v === -1 ? "point" : "points"} from ${info(cat).title}`;
      rect.append(title);
      bar.append(rect);
    }
    const total = svg("text", { x: x + barW / 2, y: up - 5, "text-anchor": "middle", "font-size": 13, "font-weight": 700, fill: "#2b2a27" });
    total.textContent = String(s.total);
    const who = svg("text", { x: x + barW / 2, y: height - 24, "text-anchor": "middle", "font-size": 11, fill: "#2b2a27" });
    who.textContent = name(s.seat).length > 16 ? `${name(s.seat).slice(0, 15)}…` : name(s.seat);
    bar.append(total, who);
    chart.append(bar);
  });
  const legend = h("ul", { class: "legend", "aria-label": "Categories" }, cats.map((cat) =>
    h("li", {}, [h("span", { class: `swatch sw-${cat}`, "aria-hidden": "true" }), info(cat).title])));
  return h("figure", { class: "chart" }, [chart, legend, h("figcaption", { class: "sr-only" }, ["Points by category for each player"])]);
}

export function categoryStyles() {
  // swatch colours and patterns for the table and legend, from the same table as the chart
  return Object.entries(CATEGORY).map(([cat, { color }]) => `.sw-${cat}{background:${color}}`).join("");
}
