// A room: its seats, then the game, over one websocket (see docs/PROTOCOL.md).
import { api, forgetSeat, saveSeat, savedSeat } from "./api.js";
import { actionLabel, describeEvent, el, scoreTable } from "./render.js";

const code = (new URLSearchParams(location.search).get("code") || "").toUpperCase();
const $ = (id) => document.getElementById(id);
const errorBox = $("error");

let seat = savedSeat(code); // {seat, token} or null
let catalog = { cards: {}, islands: {}, ship_tracks: ["red", "yellow", "blue", "green"], ship_spaces: {} };
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
  const expansions = room.settings.expansions.map((x) => x.charAt(0).toUpperCase() + x.slice(1));
  $("room-title").textContent = `${room.settings.game === "duel" ? "7 Wonders Duel" : "7 Wonders"}` +
    `${expansions.length ? " + " + expansions.join(", ") : ""} · ${room.status}`;
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
  $("notices").replaceChildren(...(room.settings.notices || []).map((text) => el("p", { className: "notice" }, [text])));
  const free = room.seats.some((s) => s.kind === "free");
  $("join-seat").hidden = Boolean(seat) || room.status !== "open" || !free;
  $("host-tools").hidden = !isHost() || room.status === "playing";
  $("add-bot").disabled = !free;
  $("start").disabled = free;
  $("start").textContent = room.status === "open" ? "Start the game" : "Rematch";
  $("armada-toggle").hidden = room.settings.game !== "classic";
  $("armada").checked = room.settings.expansions.includes("armada");
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

// The room becomes "finished" once the last step is stored: fetch it again (the rematch button).
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
$("armada").addEventListener("change", (event) =>
  hostCall("PATCH", `/api/rooms/${code}`, { expansions: event.target.checked ? ["armada"] : [] }));

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
    const mine = Boolean(seat && seat.seat === n);
    return el("div", { className: "player" + (mine ? " me" : "") }, [
      el("h3", {}, [seatName(n)]),
      el("div", { className: "stats" }, stats.map((s) => el("span", {}, [s]))),
      el("div", { className: "chips" }, [...wonders, ...(p.city || []).map((c) => el("span", { className: "chip" }, [c]))]),
      p.shipyard ? renderShipyard(p.shipyard, mine) : null,
    ]);
  }));
}

// Armada: four ship tracks (start 0, spaces 1 to 6), and what the fleets and islands give.
function renderShipyard(yard, mine) {
  const tracks = catalog.ship_tracks.map((track) => {
    const at = yard.ships[track];
    const spaces = catalog.ship_spaces[track] || [];
    const cells = [];
    for (let i = 0; i <= 6; i++) {
      const ship = i === at;
      const title = i === 0 ? "start" : `space ${i}: ${spaces[i - 1] || ""}`;
      cells.push(el("span", { className: `cell${ship ? " ship" : ""}${i < at ? " passed" : ""}`, title }, [ship ? "▲" : i ? String(i) : "·"]));
    }
    const next = yard.next_costs && yard.next_costs[track];
    const cost = !next ? "top" : Object.entries(next).map(([r, k]) => `${k} ${r}`).join(", ") || "free";
    const label = `${track}${yard.wonder_track === track ? " ◆" : ""}`;
    const row = el("div", { className: `track ${track}` }, [
      el("span", { className: "tname", title: yard.wonder_track === track ? "wonder stages advance this ship" : "" }, [label]),
      ...cells,
      mine ? el("span", { className: "muted next" }, [at >= 6 ? "top" : `next: ${cost}`]) : null,
    ]);
    row.dataset.track = track;
    row.dataset.position = String(at);
    return row;
  });
  const facts = [
    `naval strength ${yard.naval_strength}`,
    `commercial level ${yard.commercial_level}`,
    `naval tokens ${yard.naval_tokens.length ? yard.naval_tokens.map((t) => (t > 0 ? `+${t}` : t)).join(" ") : "none"}`,
  ];
  const islands = yard.islands.map((name) => el("span", { className: "chip island", title: islandText(name) }, [name]));
  return el("div", { className: "shipyard" }, [
    el("div", { className: "muted" }, [yard.board]),
    ...tracks,
    el("div", { className: "stats" }, facts.map((f) => el("span", {}, [f]))),
    el("div", { className: "chips islands" }, islands.length ? islands : [el("span", { className: "muted" }, ["no islands"])]),
  ]);
}

function islandText(name) {
  const island = catalog.islands[name];
  return island ? `level ${island.level}: ${island.text}` : "";
}

// The ship track a naval step of this action advances: the card's colour, or the wonder's track.
function trackOf(action) {
  const me = seat && state && state.view.players && state.view.players[seat.seat];
  if (action.type === "wonder") return me && me.shipyard ? me.shipyard.wonder_track : null;
  const card = catalog.cards[action.card];
  return card ? card.color : null;
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
  if (view.decision && view.decision.kind === "keep_island") {
    out.push(el("p", { className: "decision" }, [el("strong", {}, ["You explored: keep one island. "]), "The others go back to the deck."]));
  }
  for (const action of actions) {
    const key = action.type === "keep_island" ? action.island : action.card || "Decision";
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(action);
  }
  for (const [card, list] of groups) {
    const buttons = list.map((action) => {
      const button = el("button", { type: "button", className: "act" + (action.naval || action.reward ? " naval" : "") }, [actionLabel(action, trackOf)]);
      button.addEventListener("click", () => send(action));
      return button;
    });
    const island = list[0].type === "keep_island" ? islandText(card) : "";
    const heading = el("strong", {}, [card, island ? el("span", { className: "muted island-text" }, [` — ${island}`]) : null]);
    out.push(el("div", { className: "cardgroup actions" + (island ? " keep" : "") }, [heading, ...buttons]));
  }
  if (view.pick) out.unshift(el("p", { className: "muted" }, [`Your pick: ${actionLabel(view.pick, trackOf)} (you may change it until everyone has chosen)`]));
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
      log("The game is over.");  // the server sends the finished room next
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
  try {
    catalog = await api("GET", "/api/catalog");
  } catch {
    // the game is playable without it: naval steps then do not name their track
  }
  connect();
}

main();
