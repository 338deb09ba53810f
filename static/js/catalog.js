// The box's contents as the engine describes them (GET /api/catalog): every card, wonder, stage,
// progress token, island and ship space, with its cost, effects and a sentence in words.
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
