// The box's contents as the engine describes them (GET /api/catalog): every card, wonder, stage,
// progress token, island and ship space, with its cost, effects and a sentence in words; the game
// kinds the server plays, with their titles and expansions.
import { api } from "./api.js";

let data = null;

export async function loadCatalog() {
  if (!data) data = await api("GET", "/api/catalog");
  return data;
}

export function catalog() {
  return data;
}

// The description of a card by name: classic and Armada cards for 7 Wonders, Duel's own for Duel.
export function cardInfo(game, name) {
  if (!data) return null;
  if (game === "duel") return data.duel.cards[name] || null;
  return data.classic.cards[name] || data.armada.cards[name] || null;
}

export function wonderInfo(game, name) {
  if (!data) return null;
  if (game === "duel") return data.duel.wonders[name] || null;
  return data.classic.wonders[name] || data.armada.wonders[name] || null;
}

// Stage `n` (1-based) of a classic wonder's side.
export function stageInfo(wonder, side, n) {
  const info = wonderInfo("classic", wonder);
  return info && info.sides[side] ? info.sides[side][n - 1] || null : null;
}

export function tokenInfo(name) {
  return data ? data.duel.progress_tokens[name] || null : null;
}

export function islandInfo(name) {
  return data ? data.armada.islands[name] || null : null;
}

export function shipSpace(track, space) {
  const spaces = data ? data.armada.ship_spaces[track] : null;
  return spaces ? spaces[space - 1] || null : null;
}

// A game kind of the server's registry (`games`: its title, players, expansions with their titles).
export function gameKind(name) {
  return ((data && data.games) || []).find((g) => g.name === name) || null;
}

// What a room plays, e.g. "7 Wonders + Armada" or "7 Wonders Duel": the kind's title and its
// expansions' (the game's own name, if the catalog could not be loaded).
export function gameTitle(settings) {
  const kind = gameKind(settings.game);
  const title = kind ? kind.title : settings.game === "duel" ? "7 Wonders Duel" : "7 Wonders";
  const expansions = settings.expansions.map((name) => {
    const expansion = kind && kind.expansions.find((e) => e.name === name);
    return expansion ? expansion.title : name.charAt(0).toUpperCase() + name.slice(1);
  });
  return `${title}${expansions.length ? ` + ${expansions.join(", ")}` : ""}`;
}

export function maxNameLength() {
  return (data && data.limits && data.limits.max_name_length) || 24;
}

const ORDER = ["brown", "grey", "yellow", "red", "blue", "green", "purple"];

export function colorOrder(color) {
  const i = ORDER.indexOf(color);
  return i < 0 ? ORDER.length : i;
}

export function colorsInOrder() {
  return ORDER;
}
