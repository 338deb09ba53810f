// A room: its seats, then the game, over one websocket (see docs/PROTOCOL.md).
import { api, forgetSeat, saveSeat, savedSeat } from "./api.js";
import { actionLabel, describeEvent, el, scoreTable } from "./render.js";

const code = (new URLSearchParams(location.search).get("code") || "").toUpperCase();
const $ = (id) => document.getElementById(id);
const errorBox = $("error");

let seat = savedSeat(code); // {seat, token} or null
let room = null;
let state = null;
let socket = null;
let sending = false;
let retry = 500;

function showError(message) {
  errorBox.textContent = message || "";
}

function seatName(n) {
  const s = room && room.seats.find((x) => x.seat === n);
  return s && s.name ? s.name : `seat ${n}`;
}

// ----- the room ---------------------------------------------------------------------------

function renderRoom() {
  $("room-code").textContent = room.code;
  $("room-title").textContent = `${room.settings.game === "duel" ? "7 Wonders Duel" : "7 Wonders"}` +
    `${room.settings.expansions.length ? " + " + room.settings.expansions.join(", ") : ""} · ${room.status}`;
  $("share").value = location.href;
  const list = $("seats");
  list.replaceChildren(...room.seats.map((s) => {
    const item = el("li", {}, [
      el("span", { className: "dot" + (s.connected || s.kind === "bot" ? " on" : "") }),
      s.kind === "free" ? el("em", {}, ["free seat"]) : `${s.name}${s.kind === "bot" ? ` (${s.bot} bot)` : ""}`,
      s.host ? " ★" : "",
      seat && seat.seat === s.seat ? " — you" : "",
    ]);
    if (isHost() && room.status === "open" && s.kind !== "free" && s.seat !== room.host_seat) {
      const remove = el("button", { className: "secondary", type: "button" }, ["remove"]);
      remove.addEventListener("click", () => hostCall("DELETE", `/api/rooms/${code}/seats/${s.seat}`));
      item.append(" ", remove);
    }
    return item;
  }));
  const free = room.seats.some((s) => s.kind === "free");
  $("join-seat").hidden = Boolean(seat) || room.status !== "open" || !free;
  $("host-tools").hidden = !isHost() || room.status === "playing";
  $("add-bot").disabled = !free;
  $("start").disabled = free;
  $("start").textContent = room.status === "open" ? "Start the game" : "Rematch";
}

function isHost() {
  return Boolean(seat && room && room.host_seat === seat.seat);
}

async function hostCall(method, path, body) {
  showError();
  try {
    await api(method, path, body, seat && seat.token);
    await refreshRoom();
  } catch (e) {
    showError(e.message);
  }
}

async function refreshRoom() {
  room = await api("GET", `/api/rooms/${code}`);
  renderRoom();
}

$("join-seat").addEventListener("submit", async (event) => {
  event.preventDefault();
  showError();
  try {
    const joined = await api("POST", `/api/rooms/${code}/join`, { name: event.target.name.value.trim() });
    seat = { seat: joined.seat, token: joined.token };
    saveSeat(code, joined.seat, joined.token);
    room = joined.room;
    renderRoom();
    reconnect();
  } catch (e) {
    showError(e.message);
  }
});
$("add-bot").addEventListener("click", () => hostCall("POST", `/api/rooms/${code}/bots`, { kind: "heuristic" }));
$("start").addEventListener("click", () => hostCall("POST", `/api/rooms/${code}/start`));

// ----- the game ---------------------------------------------------------------------------

function renderGame() {
  $("game").hidden = false;
  const view = state.view;
  const waiting = state.to_act.map(seatName).join(", ");
  const mine = seat && state.to_act.includes(seat.seat);
  let status = state.status === "finished" ? "The game is over." :
    mine ? "Your move." : waiting ? `Waiting for ${waiting}.` : "";
  if (view.age) status = `Age ${view.age}${view.turn ? `, turn ${view.turn}` : ""} · ${status}`;
  $("status").textContent = status;
  $("board").replaceChildren(renderPlayers(view), ...(view.structure ? [renderStructure(view)] : []));
  $("hand").replaceChildren(...renderHand(view));
  $("result").replaceChildren(...(state.result ? [el("h3", {}, ["Score sheet"]), scoreTable(state.result, seatName)] : []));
}

function renderPlayers(view) {
  return el("div", { className: "players" }, view.players.map((p, i) => {
    const n = p.seat ?? i;
    const stats = [];
    if (p.wonder) stats.push(`${p.wonder} (${p.side})`);
    stats.push(`${p.coins} coins`);
    if (p.shields !== undefined) stats.push(`${p.shields} shields`);
    if (p.stages_built !== undefined) stats.push(`stages ${p.stages_built}/${p.stages_total}`);
    if (p.military_tokens && p.military_tokens.length) stats.push(`military ${p.military_tokens.join(" ")}`);
    if (p.science) {
      const sci = Object.entries(p.science).filter(([, v]) => v).map(([k, v]) => `${k} ${v}`).join(", ");
      if (sci) stats.push(sci);
    }
    if (p.progress_tokens && p.progress_tokens.length) stats.push(`tokens: ${p.progress_tokens.join(", ")}`);
    if (p.has_chosen) stats.push("✔ has chosen");
    const wonders = (p.wonders || []).map((w) => el("span", { className: "chip" }, [`${w.built ? "◆" : "◇"} ${w.name}`]));
    return el("div", { className: "player" + (seat && seat.seat === n ? " me" : "") }, [
      el("h3", {}, [seatName(n)]),
      el("div", { className: "stats" }, stats.map((s) => el("span", {}, [s]))),
      el("div", { className: "chips" }, [...wonders, ...(p.city || []).map((c) => el("span", { className: "chip" }, [c]))]),
    ]);
  }));
}

function renderStructure(view) {
  const box = el("div", { className: "structure" });
  const rows = Math.max(...view.structure.map((s) => s.row)) + 1;
  box.style.height = `${rows * 40 + 50}px`;
  for (const slot of view.structure) {
    if (slot.taken) continue;
    const label = slot.card || slot.back;
    const node = el("div", { className: "slot" + (slot.card ? "" : " back") + (slot.accessible ? " open" : "") }, [label]);
    node.style.left = `${slot.col * 48}px`;
    node.style.top = `${slot.row * 40}px`;
    box.append(node);
  }
  const pawn = view.conflict_pawn;
  return el("div", {}, [el("p", { className: "muted" }, [`Conflict pawn: ${pawn > 0 ? "+" : ""}${pawn}`]), box]);
}

function renderHand(view) {
  const out = [];
  if (view.hand && view.hand.length) out.push(el("p", {}, [el("strong", {}, ["Your hand: "]), view.hand.join(", ")]));
  const actions = state.legal_actions || [];
  if (!actions.length || !seat || !state.to_act.includes(seat.seat) && !(view.phase === "pick" && view.pick)) return out;
  const groups = new Map();
  for (const action of actions) {
    const key = action.card || "Decision";
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(action);
  }
  for (const [card, list] of groups) {
    const buttons = list.map((action) => {
      const button = el("button", { type: "button", className: "act" }, [actionLabel(action)]);
      button.addEventListener("click", () => send(action));
      return button;
    });
    out.push(el("div", { className: "cardgroup actions" }, [el("strong", {}, [card]), ...buttons]));
  }
  if (view.pick) out.unshift(el("p", { className: "muted" }, [`Your pick: ${actionLabel(view.pick)} (you may change it until everyone has chosen)`]));
  return out;
}

function send(action) {
  if (!socket || socket.readyState !== WebSocket.OPEN || sending) return;
  sending = true;
  showError();
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  socket.send(JSON.stringify({ type: "action", action, version: state.version, action_id: id }));
  for (const b of document.querySelectorAll("button.act")) b.disabled = true;
}

function log(text) {
  if (!text) return;
  const list = $("log");
  list.prepend(el("li", {}, [text]));
  while (list.children.length > 300) list.lastChild.remove();
}

// ----- the websocket ------------------------------------------------------------------------

function reconnect() {
  if (socket) socket.close();
  connect();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/rooms/${code}`);
  $("conn").textContent = "connecting…";
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ type: "hello", token: seat ? seat.token : null }));
  });
  socket.addEventListener("message", (event) => onMessage(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    $("conn").textContent = "offline";
    $("conn").className = "badge off";
    if (event.code === 4401 || event.code === 4403) {
      forgetSeat(code);
      seat = null;
    }
    if (event.code !== 4404) setTimeout(connect, retry = Math.min(retry * 2, 8000));
  });
}

function onMessage(m) {
  switch (m.type) {
    case "welcome":
      retry = 500;
      $("conn").textContent = seat ? `connected as ${seatName(m.seat)}` : "watching";
      $("conn").className = "badge on";
      room = m.room;
      renderRoom();
      break;
    case "room":
      room = m.room;
      renderRoom();
      break;
    case "state":
      state = m;
      sending = false;
      renderGame();
      break;
    case "chosen":
      log(`${seatName(m.seat)} has ${m.changed ? "changed their" : "made a"} choice.`);
      break;
    case "reveal":
    case "event":
      for (const line of describeEvent(m.reveal || m.event, seatName)) log(line);
      break;
    case "game_over":
      log("The game is over.");
      break;
    case "accepted":
      sending = false;
      break;
    case "error":
      sending = false;
      showError(m.message);
      for (const b of document.querySelectorAll("button.act")) b.disabled = false;
      if (m.code === "stale") socket.send(JSON.stringify({ type: "sync" }));
      break;
    default:
      break;
  }
}

async function main() {
  if (!code) {
    showError("No room code in the address.");
    return;
  }
  try {
    await refreshRoom();
  } catch (e) {
    showError(e.message);
    return;
  }
  connect();
}

main();
