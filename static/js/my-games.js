// My games: every seat this browser holds, from one request (move-count.js): your move first with
// its deadline, then waiting for others, rooms waiting to start, finished games with their result,
// and the seats that are no longer here (offered to be forgotten). Each opens its table. A link
// moves them all to another device (#move=<secret>, after the #: never sent in a request line).
import { api, forgetSeat, heldSeats, saveSeat } from "./api.js";
import { gameTitle, loadCatalog } from "./catalog.js";
import { refreshMoveCount, setTitle, startMoveCount } from "./move-count.js";
import { $, ageName, h, listWords, plural } from "./ui.js";

const GROUPS = ["your_move", "waiting", "lobby", "finished", "gone"];
let offset = 0; // the server's time minus this browser's, in ms
let latest = null;

function showError(message) {
  $("error").textContent = message || "";
}

function left(deadline) {
  return (Date.parse(deadline) - (Date.now() + offset)) / 1000;
}

// "2 days 3 h", "14 h 05 min", "12 min", "less than a minute"
export function dueWords(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (days > 0) return `${plural(days, "day")}${hours ? ` ${hours} h` : ""}`;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, "0")} min`;
  if (minutes > 0) return `${minutes} min`;
  return "less than a minute";
}

function dueText(deadline) {
  const seconds = left(deadline);
  if (seconds <= 0) return "Your time is up: a bot decides for you now";
  return `Due in ${dueWords(seconds)}`;
}

function names(entry, seats, { you = true } = {}) {
  return seats.map((s) => {
    const player = entry.players.find((p) => p.seat === s);
    if (s === entry.seat && you) return "you";
    return player && player.name ? player.name : `seat ${s + 1}`;
  });
}

function where(entry) {
  if (!entry.age) return null;
  const age = ageName(entry.age);
  if (entry.turn && entry.turns_per_age) return `${age} · turn ${entry.turn} of ${entry.turns_per_age}`;
  return entry.turn ? `${age} · turn ${entry.turn}` : age;
}

function company(entry) {
  const others = entry.players.filter((p) => p.seat !== entry.seat && p.kind !== "free").map((p) => p.name);
  const free = entry.players.filter((p) => p.kind === "free").length;
  const parts = [`You are ${entry.name}`];
  if (others.length) parts.push(`with ${listWords(others)}`);
  if (free) parts.push(`${plural(free, "seat")} free`);
  return parts.join(", ");
}

function resultText(entry) {
  const result = entry.result;
  if (!result || result.abandoned) return "Not played to the end: the room was closed";
  const mine = result.scores.find((s) => s.seat === entry.seat);
  const winners = names(entry, result.winners, { you: false });
  const won = result.winners.includes(entry.seat);
  const how = result.victory && result.victory !== "civilian" ? ` (${result.victory} victory)` : "";
  if (won && result.winners.length === 1) return `You won${mine ? ` with ${plural(mine.total, "point")}` : ""}${how}`;
  if (won) return `You tied for first with ${listWords(winners.filter((n) => n !== entry.name))}`;
  const best = result.scores.find((s) => s.seat === result.winners[0]);
  return `Won by ${listWords(winners)}${best ? ` (${plural(best.total, "point")})` : ""}${how}${mine ? `; you scored ${mine.total}` : ""}`;
}

function stateLine(entry) {
  if (entry.status === "your_move") {
    if (entry.deadline) {
      return h("p", { class: "due", dataset: { deadline: entry.deadline } }, [dueText(entry.deadline)]);
    }
    return h("p", { class: "due" }, ["Your move (no clock)"]);
  }
  if (entry.status === "waiting") {
    if (entry.bot_plays) {
      const why = { left: "you left", timeout: "your time ran out", host: "the host handed it over" }[entry.bot_reason] || "";
      return h("p", {}, [`A bot plays your seat${why ? ` (${why})` : ""}: open the table to take it back`]);
    }
    if (!entry.to_act) return h("p", {}, ["Running"]);
    const others = names(entry, entry.to_act.filter((s) => s !== entry.seat));
    return h("p", {}, [others.length ? `Waiting for ${listWords(others)}` : "Waiting"]);
  }
  if (entry.status === "lobby") {
    const taken = entry.players.filter((p) => p.kind !== "free").length;
    const full = taken === entry.players.length;
    const host = entry.host ? (full ? "every seat is taken: you can start it" : "you are the host") : "the host starts it";
    return h("p", {}, [`${taken} of ${plural(entry.players.length, "seat")} taken; ${host}`]);
  }
  return h("p", { class: "result" }, [resultText(entry)]);
}

function card(entry, seats) {
  if (entry.status === "gone") {
    const seat = seats[entry.index];
    const code = seat ? seat.code : "?";
    return h("li", { class: "game-card gone" }, [
      h("span", { class: "game-title" }, [`Room ${code}`]),
      seat ? h("p", {}, [h("a", { href: `/room.html?code=${encodeURIComponent(code)}`, "aria-label": `Watch room ${code}` }, ["Watch it"]), " (if it still exists)"]) : null,
    ]);
  }
  const title = gameTitle({ game: entry.game, expansions: entry.expansions || [] });
  return h("li", { class: `game-card ${entry.status.replace("_", "-")}` }, [
    h("a", { class: "game-title", href: entry.url }, [`${title} — room ${entry.code}`]),
    where(entry) ? h("p", { class: "where" }, [where(entry)]) : null,
    stateLine(entry),
    h("p", { class: "muted" }, [company(entry)]),
  ]);
}

function render(answer) {
  latest = answer;
  offset = Date.parse(answer.server_time) - Date.now();
  const byGroup = Object.fromEntries(GROUPS.map((g) => [g, []]));
  for (const entry of answer.games) byGroup[entry.status].push(entry);
  for (const group of GROUPS) {
    const section = $(group);
    section.hidden = byGroup[group].length === 0;
    section.querySelector("ul").replaceChildren(...byGroup[group].map((e) => card(e, answer.seats)));
  }
  const listed = answer.games.length - byGroup.gone.length;
  $("empty").hidden = listed > 0 || byGroup.gone.length > 0;
  $("move").hidden = listed === 0;
  const owed = answer.your_move;
  $("summary").textContent = listed === 0
    ? (byGroup.gone.length ? "None of the seats this browser kept opens a game now." : "No games in this browser.")
    : `${owed ? `${plural(owed, "game")} ${owed === 1 ? "owes" : "owe"} your move` : "No game owes your move"}; ${plural(listed, "game")} in all.`;
}

function tick() {
  for (const line of document.querySelectorAll("[data-deadline]")) line.textContent = dueText(line.dataset.deadline);
}

// A move link opened here: this browser takes every seat it moves.
async function takeMovedSeats() {
  const match = /^#move=([A-Za-z0-9_.-]+)$/.exec(location.hash);
  if (!match) return;
  history.replaceState(null, "", location.pathname); // the secret leaves the address bar and history
  try {
    const { seats } = await api("POST", "/api/my-games/move", { token: match[1] });
    for (const seat of seats) saveSeat(seat.code, seat.seat, seat.token);
    $("moved").textContent = `${plural(seats.length, "game")} moved to this browser: ${listWords(seats.map((s) => s.code))}.`;
    $("moved").hidden = false;
  } catch (e) {
    showError(e.status === 404 ? "This link moves no game: it was already used, or a newer link replaced it. Make a new one on the device that holds your games." : e.message);
  }
}

function installControls() {
  $("refresh").addEventListener("click", () => refreshMoveCount());
  $("forget-gone").addEventListener("click", () => {
    if (!latest) return;
    const gone = latest.games.filter((g) => g.status === "gone").map((g) => latest.seats[g.index]).filter(Boolean);
    for (const seat of gone) forgetSeat(seat.code);
    refreshMoveCount();
  });
  $("make-move-link").addEventListener("click", async () => {
    showError();
    const seats = latest ? latest.seats : heldSeats();
    const gone = new Set(latest ? latest.games.filter((g) => g.status === "gone").map((g) => g.index) : []);
    const tokens = seats.filter((_, i) => !gone.has(i)).map((s) => s.token).slice(0, 100);
    try {
      const link = await api("POST", "/api/my-games/move-link", { tokens });
      $("move-url").value = `${location.origin}${link.url}`;
      $("move-link").hidden = false;
      $("move-url").focus();
      $("move-url").select();
    } catch (e) {
      showError(e.message);
    }
  });
  $("copy-move").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("move-url").value);
      $("copy-move").textContent = "Copied";
    } catch {
      $("move-url").select();
    }
  });
}

async function main() {
  setTitle("My games — Wonders");
  installControls();
  await Promise.all([loadCatalog().catch(() => null), takeMovedSeats()]);
  startMoveCount((answer, error) => {
    if (answer) {
      showError();
      render(answer);
    } else if (error) {
      showError(`Your games could not be listed: ${error.message}`);
    }
  });
  setInterval(tick, 15_000);
}

main();
