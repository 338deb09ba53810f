// How many of this browser's games owe your move, in the tab's title ("(2) Wonders — …") and its
// icon (a badge drawn on a canvas), on every page. One request lists every seat this browser holds
// (POST /api/my-games, the tokens in its body, never in a URL); it is made again every minute while
// the page is visible, every five minutes while it is hidden (a background tab's title is where the
// count is read), and at once when the page comes back into view. The "my games" page draws its
// list from the same answers (onList).
import { api, heldSeats } from "./api.js";

const VISIBLE_MS = 60_000;
const HIDDEN_MS = 300_000;
const PER_REQUEST = 100; // the server's limit of tokens per request

let base = document.title;
let count = 0;
let lastAnswer = null;
let here = null; // the room this page shows: {code, owes}, known here before the server's next answer
let timer = null;
let inFlight = null;
const listeners = [];
let started = false;

// The page's own title; the count goes in front of it.
export function setTitle(text) {
  base = text;
  render();
}

export function owedCount() {
  return count;
}

// The room page says whether its own game owes your move now: counted at once, whatever the last
// answer said of that room.
export function setRoomOwes(code, owes) {
  here = { code: code.toUpperCase(), owes: Boolean(owes) };
  recount();
}

function recount() {
  const games = lastAnswer ? lastAnswer.games : [];
  const elsewhere = games.filter((g) => g.status === "your_move" && !(here && g.code === here.code)).length;
  count = elsewhere + (here && here.owes ? 1 : 0);
  render();
}

// Every seat this browser holds, as the server lists them (see app/api/my_games.py), with the seat
// each entry's `index` points at: {games, your_move, server_time, seats}.
export async function listMyGames() {
  const seats = heldSeats();
  const answer = { games: [], your_move: 0, server_time: new Date().toISOString(), seats };
  for (let start = 0; start < seats.length; start += PER_REQUEST) {
    const chunk = seats.slice(start, start + PER_REQUEST);
    const part = await api("POST", "/api/my-games", { tokens: chunk.map((s) => s.token) });
    for (const game of part.games) answer.games.push({ ...game, index: game.index + start });
    answer.your_move += part.your_move;
    answer.server_time = part.server_time;
  }
  if (seats.length > PER_REQUEST) answer.games.sort((a, b) => RANK[a.status] - RANK[b.status]);
  return answer;
}

const RANK = { your_move: 0, waiting: 1, lobby: 2, finished: 3, gone: 4 };

// Ask again now (once at a time); tell the title, the icon and the listeners.
export function refreshMoveCount() {
  if (inFlight) return inFlight;
  inFlight = listMyGames()
    .then((answer) => {
      lastAnswer = answer;
      recount();
      for (const listener of listeners) listener(answer);
      return answer;
    })
    .catch((error) => {
      for (const listener of listeners) listener(null, error);
      return null;
    })
    .finally(() => {
      inFlight = null;
      schedule();
    });
  return inFlight;
}

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(refreshMoveCount, document.visibilityState === "visible" ? VISIBLE_MS : HIDDEN_MS);
}

// Start counting on this page; `onList(answer, error)` is told of every answer.
export function startMoveCount(onList) {
  if (onList) listeners.push(onList);
  if (started) {
    refreshMoveCount();
    return;
  }
  started = true;
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refreshMoveCount();
    else schedule();
  });
  window.addEventListener("focus", () => refreshMoveCount());
  window.addEventListener("storage", (event) => {
    if (event.key && event.key.startsWith("wonders.seat.")) refreshMoveCount(); // another tab took or left a seat
  });
  refreshMoveCount();
}

function render() {
  document.title = count > 0 ? `(${count}) ${base}` : base;
  drawIcon(count);
  const link = document.getElementById("my-games-link"); // the header's link to the list, if the page has one
  if (link) {
    const badge = link.querySelector(".count-badge");
    if (badge) {
      badge.textContent = String(count);
      badge.hidden = count === 0;
    }
    link.setAttribute("aria-label", count ? `My games: ${count} ${count === 1 ? "owes" : "owe"} your move` : "My games");
  }
}

let lastIcon = null;

// The tab's icon: the site's mark, and a red badge with the count when a move is owed.
function drawIcon(n) {
  if (lastIcon === n) return;
  lastIcon = n;
  const canvas = document.createElement("canvas");
  canvas.width = 64;
  canvas.height = 64;
  const g = canvas.getContext("2d");
  if (!g) return;
  g.fillStyle = "#24221e";
  roundRect(g, 2, 2, 60, 60, 12);
  g.fill();
  g.fillStyle = "#f3c969";
  g.font = "bold 40px system-ui, sans-serif";
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText("W", 32, 35);
  if (n > 0) {
    g.fillStyle = "#c62828";
    g.beginPath();
    g.arc(44, 20, 19, 0, Math.PI * 2);
    g.fill();
    g.lineWidth = 3;
    g.strokeStyle = "#fff";
    g.stroke();
    g.fillStyle = "#fff";
    g.font = `bold ${n > 9 ? 22 : 28}px system-ui, sans-serif`;
    g.fillText(n > 9 ? "9+" : String(n), 44, 21);
  }
  let link = document.querySelector("link[rel~='icon']");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  link.type = "image/png";
  link.href = canvas.toDataURL("image/png");
}

function roundRect(g, x, y, w, h, r) {
  g.beginPath();
  g.moveTo(x + r, y);
  g.arcTo(x + w, y, x + w, y + h, r);
  g.arcTo(x + w, y + h, x, y + h, r);
  g.arcTo(x, y + h, x, y, r);
  g.arcTo(x, y, x + w, y, r);
  g.closePath();
}
