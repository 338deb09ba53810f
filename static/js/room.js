// A room: its seats, then the game table, over one websocket (see docs/PROTOCOL.md).
import { pickBanner, renderDecision, renderHand, resetSelection } from "./actions.js";
import { api, forgetSeat, saveSeat, savedSeat } from "./api.js";
import { loadCatalog, maxNameLength } from "./catalog.js";
import { CLOCK_CHOICES, clockChip, sameClock, setServerTime, settingWords, startTicking } from "./clock.js";
import { renderDuel } from "./duel.js";
import { GameLog } from "./log-view.js";
import { eventLines, seatAtSide, timeoutLines, turnSummary } from "./log.js";
import { openReplay } from "./replay.js";
import { scoreChart, scoreTable } from "./score.js";
import { renderClassicBoard, tableFacts } from "./table.js";
import { $, announce, h, installInfoBubbles, listWords, plural, remembered } from "./ui.js";

const code = (new URLSearchParams(location.search).get("code") || "").toUpperCase();
const rejoinToken = new URLSearchParams(location.search).get("rejoin");
const errorBox = $("error");
const BOT_REASONS = { left: "left the game", host: "handed over by the host", timeout: "out of time" };
const SPECTATORS = {
  off: "This room allows no spectators: only its players see the game.",
  after: "This room shows its games to spectators once they are over.",
};

let seat = savedSeat(code); // {seat, token} or null
let room = null;
let state = null;
let socket = null;
let sending = false;
let retry = 500;
let lastReveal = null; // {game_id, version, moves}
let ageResults = null; // {game_id, lines}
let wasMyMove = false;
let noSpectators = false; // the server refused this page as a spectator (the room's setting)
const log = new GameLog($("log"));

function showError(message) {
  errorBox.textContent = message || "";
}

function seatName(n) {
  const s = room && room.seats.find((x) => x.seat === n);
  return s && s.name ? s.name : `Seat ${n + 1}`;
}

function isHost() {
  return Boolean(seat && room && room.host_seat === seat.seat);
}

function gameTitle(settings) {
  const expansions = settings.expansions.map((x) => x.charAt(0).toUpperCase() + x.slice(1));
  return `${settings.game === "duel" ? "7 Wonders Duel" : "7 Wonders"}${expansions.length ? ` + ${expansions.join(", ")}` : ""}`;
}

// ----- the room ---------------------------------------------------------------------------

function renderRoom() {
  $("room-code").textContent = room.code;
  const status = { open: "waiting for players", playing: "playing", finished: "game over" }[room.status] || room.status;
  $("room-title").textContent = `${gameTitle(room.settings)} · ${status}`;
  $("share").value = `${location.origin}/room.html?code=${room.code}`;
  $("seats").replaceChildren(...room.seats.map(seatItem));
  $("notices").replaceChildren(...(room.settings.notices || []).map((text) => h("p", { class: "notice" }, [text])));
  const free = room.seats.filter((s) => s.kind === "free").length;
  const canJoin = !seat && room.status === "open" && free > 0;
  $("join-seat").hidden = !canJoin;
  const full = $("room-full");
  const policy = room.settings.spectators || "live";
  const watching = !seat && (policy === "off" || (policy === "after" && room.status === "playing"));
  full.hidden = Boolean(seat) || (canJoin && !noSpectators);
  if (!seat && noSpectators && canJoin) full.textContent = "This room allows no spectators: take a seat to follow it.";
  else if (watching) full.textContent = SPECTATORS[policy];
  else if (!seat && room.status === "open" && !free) full.textContent = "This room is full: every seat is taken. You are watching as a spectator.";
  else if (!seat && room.status !== "open") full.textContent = "The game has started: you are watching as a spectator.";
  renderSeatNotice();
  $("device").hidden = !seat || room.status === "closed";
  $("host-tools").hidden = !isHost() || room.status === "playing";
  $("spectators").value = policy;
  const clock = room.settings.clock || { mode: "off" };
  $("clock-info").textContent = `Turn clock: ${settingWords(clock)}${clock.mode === "off" ? "" : `; when time runs out, the ${room.settings.timeout_bot} bot decides`}.`;
  const choice = CLOCK_CHOICES.findIndex((c) => sameClock(c.clock, clock));
  if (choice < 0 && !$("clock").querySelector("option[value=custom]")) {
    $("clock").append(h("option", { value: "custom" }, [`Custom: ${settingWords(clock)}`]));
  }
  $("clock").value = choice < 0 ? "custom" : String(choice);
  $("clock-setting").hidden = room.status === "playing";
  $("add-bot").disabled = !free;
  $("add-bot").hidden = room.status !== "open";
  $("start").disabled = free > 0;
  $("start").textContent = room.status === "open" ? (free ? `Start the game (${plural(free, "free seat")} left)` : "Start the game") : "Rematch";
  $("armada-toggle").hidden = room.settings.game !== "classic" || room.status !== "open";
  $("armada").checked = room.settings.expansions.includes("armada");
  // during a game the room's details fold away (players can open them again)
  if (room.status === "playing" && !$("room-details").dataset.folded) {
    $("room-details").open = false;
    $("room-details").dataset.folded = "1";
  }
}

function seatItem(s) {
  const you = seat && seat.seat === s.seat;
  const label = s.kind === "free" ? "free seat" : `${s.name}${s.kind === "bot" ? ` (${s.bot} bot)` : ""}`;
  const online = s.kind === "bot" || s.connected;
  const botPlays = room.status === "playing" && s.kind === "human" && s.bot_plays;
  const item = h("li", {}, [
    h("span", { class: `dot${online ? " on" : ""}`, role: "img", "aria-label": online ? "connected" : s.away ? "away" : "not connected" }),
    s.kind === "free" ? h("em", {}, [label]) : label,
    s.host ? h("span", { class: "host-mark", title: "host" }, [" ★ host"]) : null,
    you ? h("strong", {}, [" — you"]) : null,
    s.away ? h("span", { class: "away-mark" }, [" · away"]) : null,
    botPlays ? h("span", { class: "bot-note" }, [` · a bot plays for ${s.name} (${BOT_REASONS[s.bot_reason] || s.bot_reason})`]) : null,
  ]);
  if (isHost() && room.status === "open" && s.kind !== "free" && s.seat !== room.host_seat) {
    item.append(" ", h("button", {
      class: "secondary small", type: "button", "aria-label": `Remove ${s.name}`,
      onclick: () => hostCall("DELETE", `/api/rooms/${code}/seats/${s.seat}`),
    }, ["remove"]));
  }
  if (isHost() && room.status === "playing" && s.kind === "human" && s.seat !== seat.seat) {
    item.append(" ", botPlays
      ? h("button", { class: "secondary small", type: "button",
        onclick: () => hostCall("DELETE", `/api/rooms/${code}/seats/${s.seat}/bot`) }, [`Give back to ${s.name}`])
      : h("button", { class: "secondary small", type: "button", "aria-label": `Hand ${s.name}'s seat to a bot`,
        onclick: () => hostCall("POST", `/api/rooms/${code}/seats/${s.seat}/bot`, { kind: "heuristic" }) }, ["Hand to a bot"]));
  }
  return item;
}

// Your own seat, when a bot plays it for you: say so, with a way back.
function renderSeatNotice() {
  const mine = seat && room.seats.find((x) => x.seat === seat.seat);
  const played = Boolean(mine && room.status === "playing" && mine.bot_plays);
  $("seat-notice").hidden = !played;
  if (!played) return;
  const why = { left: "you left the game", host: "the host handed your seat over", timeout: "your time ran out" }[mine.bot_reason];
  $("seat-notice-text").textContent = `A bot plays your seat for you${why ? ` (${why})` : ""}. Your next move takes it back, or:`;
}

$("im-back").addEventListener("click", () => hostCall("POST", `/api/rooms/${code}/seats/${seat.seat}/back`));
$("other-device").addEventListener("click", async () => {
  showError();
  try {
    const link = await api("POST", `/api/rooms/${code}/seats/${seat.seat}/rejoin-link`, undefined, seat.token);
    $("rejoin-link").value = `${location.origin}${link.url}`;
    $("device-link").hidden = false;
    $("rejoin-link").focus();
    $("rejoin-link").select();
  } catch (e) {
    showError(e.message);
  }
});
$("copy-rejoin").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText($("rejoin-link").value);
    $("copy-rejoin").textContent = "Copied";
  } catch {
    $("rejoin-link").select();
  }
});
$("spectators").addEventListener("change", (event) => hostCall("PATCH", `/api/rooms/${code}`, { spectators: event.target.value }));

// A rejoin link (room.html?code=X&rejoin=T) opened here: this browser takes the seat.
async function takeSeatFromLink(token) {
  const url = new URL(location.href);
  url.searchParams.delete("rejoin");
  history.replaceState(null, "", url); // the link works once: a reload must not try it again
  try {
    const joined = await api("POST", `/api/rooms/${code}/rejoin`, { token });
    seat = { seat: joined.seat, token: joined.token };
    saveSeat(code, joined.seat, joined.token);
  } catch (e) {
    showError(e.status === 404 ? "This link cannot take a seat any more: it was already used or replaced. Ask for a new one." : e.message);
  }
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
    connect(); // the spectator connection is replaced by the seat's
  } catch (e) {
    showError(e.message);
  }
});
$("clock").replaceChildren(...CLOCK_CHOICES.map((c, i) => h("option", { value: String(i) }, [c.label])));
$("clock").addEventListener("change", (event) => {
  const chosen = CLOCK_CHOICES[Number(event.target.value)];
  if (chosen) hostCall("PATCH", `/api/rooms/${code}`, { clock: chosen.clock });
});
$("add-bot").addEventListener("click", () => hostCall("POST", `/api/rooms/${code}/bots`, { kind: "heuristic" }));
$("start").addEventListener("click", () => hostCall("POST", `/api/rooms/${code}/start`));
$("armada").addEventListener("change", (event) =>
  hostCall("PATCH", `/api/rooms/${code}`, { expansions: event.target.checked ? ["armada"] : [] }));
$("copy-link").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText($("share").value);
    $("copy-link").textContent = "Copied";
  } catch {
    $("share").select();
  }
});

// ----- the game ---------------------------------------------------------------------------

function context(view, legal, me, { interactive = true } = {}) {
  return {
    game: view.game,
    view,
    legal,
    me,
    interactive,
    name: seatName,
    sideSeat: (from, side) => {
      const p = view.players && view.players[from];
      if (!p || p.left === undefined) return from;
      if (side === "left") return p.left;
      if (side === "right") return p.right;
      if (side === "far_left") return view.players[p.left].left;
      if (side === "far_right") return view.players[p.right].right;
      return from;
    },
    clock: interactive && state && state.status === "running" ? state.clock : null,
    lastMoves: lastReveal && state && lastReveal.game_id === state.game_id
      ? Object.fromEntries(lastReveal.moves.map((m) => [m.seat, m])) : null,
    send,
    rerender: renderGame,
    focusActions: () => {
      const first = document.querySelector("#actions button:not([disabled])");
      if (first) {
        first.focus({ preventScroll: true });
        first.scrollIntoView({ block: "nearest" });
      }
    },
  };
}

// Your own countdown, beside the status line, while you owe a decision.
function myClock() {
  const deadline = myDeadline();
  return deadline ? h("span", { class: "status-clock" }, [" ", clockChip(state.clock, seat.seat, "You")]) : "";
}

function myDeadline() {
  if (!seat || !state || state.status !== "running" || !state.clock) return null;
  return (state.clock.deadlines || {})[String(seat.seat)] || null;
}

function myMove() {
  return Boolean(seat && state && state.status === "running" && state.to_act.includes(seat.seat) &&
    !(state.view.phase === "pick" && state.view.pick));
}

function statusText(view) {
  if (state.status === "finished") return "The game is over.";
  if (state.status === "abandoned") return "This game was abandoned: its room was closed after a long time unused.";
  const waiting = state.to_act.filter((s) => !seat || s !== seat.seat).map(seatName);
  if (seat && state.to_act.includes(seat.seat)) {
    if (view.phase === "pick" && view.pick) return waiting.length ? `Your pick is made. Waiting for ${listWords(waiting)}.` : "Your pick is made.";
    const kind = view.decision && view.decision.kind;
    if (kind === "build_from_discard") return "Your move: build a card of the discard pile for free.";
    if (kind === "keep_island") return "Your move: keep one island.";
    if (kind === "last_card") return "Your move: play the last card of the Age.";
    return view.game === "duel" ? "Your move." : "Your move: choose a card.";
  }
  return waiting.length ? `Waiting for ${listWords(waiting)}.` : "";
}

// Re-rendering replaces the table: keep the keyboard focus on the same control.
function keepingFocus(render) {
  const key = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
  render();
  if (!key) return;
  const again = [...document.querySelectorAll("[data-key]")].find((node) => node.dataset.key === key);
  if (again && again !== document.activeElement) again.focus({ preventScroll: true });
}

function renderGame() {
  keepingFocus(drawGame);
}

function drawGame() {
  if (!state) return;
  $("game").hidden = false;
  const view = state.view;
  const me = seat && state.seat !== null ? state.seat : null;
  const ctx = context(view, state.status === "running" ? state.legal_actions || [] : [], me);
  $("status").replaceChildren(statusText(view), myClock());
  $("turn-info").textContent = view.game === "duel" ? (view.age ? `Age ${["", "I", "II", "III"][view.age]}` : "Wonder draft") : tableFacts(view).slice(0, 3).join(" · ");
  const mine = myMove();
  document.title = `${mine ? "● Your move — " : ""}Wonders — room ${code}`;
  if (mine && !wasMyMove) announce("Your move.");
  wasMyMove = mine;

  if (view.game === "duel") {
    const parts = renderDuel(ctx);
    $("hand-region").hidden = true;
    $("pick").hidden = true;
    $("decision").hidden = !parts.decision;
    $("decision").replaceChildren(...(parts.decision ? [parts.decision] : []));
    $("turn-summary").hidden = true;
    $("board").replaceChildren(parts.board);
  } else {
    const hasHand = me !== null && view.hand && view.hand.length > 0 && state.status === "running";
    $("hand-region").hidden = !hasHand;
    if (hasHand) {
      const { hand, actions } = renderHand(ctx);
      $("hand").replaceChildren(hand);
      $("actions").replaceChildren(actions);
    }
    const banner = pickBanner(ctx);
    $("pick").hidden = !banner;
    $("pick").replaceChildren(...(banner ? [banner] : []));
    const decision = view.phase !== "pick" && view.phase !== "last_card" ? renderDecision(ctx) : null;
    $("decision").hidden = !decision;
    $("decision").replaceChildren(...(decision ? [decision] : []));
    renderTurnSummary(ctx);
    $("board").replaceChildren(renderClassicBoard(ctx));
  }
  renderResult();
}

function renderTurnSummary(ctx) {
  const box = $("turn-summary");
  const parts = [];
  // the Age's conflicts are open on wide screens; on a phone a tap opens them (the hand comes first)
  const wide = !window.matchMedia("(max-width: 640px)").matches;
  const block = (cls, title, lines, key, open = true) => remembered(h("details", { class: `summary-block ${cls}`, open }, [
    h("summary", {}, [h("h2", { class: "section-title" }, [title])]),
    h("ul", {}, lines),
  ]), key);
  if (lastReveal && lastReveal.game_id === state.game_id) {
    const r = lastReveal;
    parts.push(block("last-turn", `Last turn (Age ${["", "I", "II", "III"][r.age]}, turn ${r.turn})`,
      turnSummary(r, ctx).map((m) => h("li", { class: m.seat === ctx.me ? "mine" : "" }, [m.text])), "last-turn"));
  }
  if (ageResults && ageResults.game_id === state.game_id) {
    parts.push(block("age-results", ageResults.title.replace(/:$/, ""),
      ageResults.lines.map((line) => h("li", {}, [line])), "age-results", wide));
  }
  box.hidden = !parts.length;
  box.replaceChildren(...parts);
}

function renderResult() {
  const box = $("result");
  if (!state.result) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
  box.replaceChildren(
    h("h2", {}, ["Score sheet"]),
    h("div", { class: "result-grid" }, [scoreTable(state.result, seatName), scoreChart(state.result, seatName)]),
  );
}

function send(action) {
  if (!socket || socket.readyState !== WebSocket.OPEN || sending) return;
  sending = true;
  showError();
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  socket.send(JSON.stringify({ type: "action", action, version: state.version, action_id: id }));
  for (const b of document.querySelectorAll("#game button.act")) b.disabled = true;
}

// ----- events and the log -------------------------------------------------------------------

// The last turn's summary and the Age's conflicts, kept for the table.
function track(gameId, version, event, ctx, game) {
  if (event.type === "reveal") {
    lastReveal = { game_id: gameId, version, age: event.age, turn: event.turn, moves: event.moves };
    ageResults = null;
  }
  if (event.type === "military" && event.battles) {
    const lines = eventLines(game, event, ctx);
    ageResults = { game_id: gameId, title: lines[0], lines: lines.slice(1) };
  }
  if (event.type === "naval_conflict" && ageResults) ageResults.lines.push(...eventLines(game, event, ctx));
}

function onGameEvent(gameId, version, event) {
  const ctx = context(state ? state.view : { players: [] }, [], seat ? seat.seat : null);
  const game = room.settings.game;
  track(gameId, version, event, ctx, game);
  if (event.type === "reveal") {
    announce(`Turn ${event.turn} revealed. ${turnSummary(event, ctx).map((m) => m.text).join(" ")}`);
    if (event.moves.some((m) => seat && m.seat === seat.seat)) resetSelection();
  }
  log.add(gameId, version, eventLines(game, event, ctx), event.type);
}

// The log of every game of the room, rebuilt from the server's history (it survives a reload).
async function loadHistory() {
  let games = [];
  try {
    games = await api("GET", `/api/rooms/${code}/games`);
  } catch {
    return;
  }
  renderPastGames(games);
  for (const g of games.slice(-3)) {
    try {
      const history = await api("GET", `/api/rooms/${code}/game/history?game=${g.id}`, undefined, seat && seat.token);
      const names = historyNames(history);
      log.startGame(g.id, `Game ${games.indexOf(g) + 1}: ${gameTitle(room.settings)}`);
      const ctx = { ...context({ players: [] }, [], null), name: names, sideSeat: historySides(history) };
      addSteps(g.id, history, ctx, 0);
    } catch {
      // a game the log cannot show is skipped; the table still plays
    }
  }
}

function addSteps(gameId, history, ctx, after) {
  for (const step of history.steps) {
    const version = step.seq + 1; // a step is stored with the version it was made against
    if (version <= after) continue;
    if (step.by_timeout) log.add(gameId, version, timeoutLines(step.seat, "", ctx), "timeout", "history");
    for (const e of step.events) {
      track(gameId, version, e, ctx, history.config.game);
      log.add(gameId, version, eventLines(history.config.game, e, ctx), e.type, "history");
    }
  }
  log.loaded(gameId, history.version);
}

function historyNames(history) {
  return (n) => {
    const s = (history.seats || []).find((x) => x.seat === n);
    return s && s.name ? s.name : seatName(n);
  };
}

// Steps taken between loading the history and the first state of the websocket.
async function catchUp(gameId, version) {
  const from = log.loadedVersion(gameId);
  if (version <= from) return;
  log.loaded(gameId, version);
  try {
    const history = await api("GET", `/api/rooms/${code}/game/history?game=${gameId}`, undefined, seat && seat.token);
    const ctx = { ...context({ players: [] }, [], null), name: historyNames(history), sideSeat: historySides(history) };
    addSteps(gameId, history, ctx, from);
  } catch {
    // the live events carry on from here
  }
}

function historySides(history) {
  const n = (history.seats || []).length;
  return (from, side) => seatAtSide(n, from, side);
}

function renderPastGames(games) {
  const list = $("past-games");
  $("history-panel").hidden = !games.length;
  if (!games.length) return;
  list.replaceChildren(...games.map((g, i) => {
    const winners = (g.winners || []).map((w) => {
      const s = (g.seats || []).find((x) => x.seat === w);
      return s ? s.name : seatName(w);
    });
    const label = `Game ${i + 1}: ${g.status === "finished" ? `won by ${listWords(winners)}` : g.status === "abandoned" ? "abandoned" : "running"}`;
    return h("li", {}, [
      label,
      g.status === "finished" ? h("button", { type: "button", class: "secondary small", onclick: () => openReplay($("replay"), { code, gameId: g.id, seatName, token: seat && seat.token, title: label }) }, ["Replay"]) : null,
    ]);
  }));
}

// ----- the websocket ------------------------------------------------------------------------

function connect() {
  if (socket) {
    const old = socket;
    socket = null;
    old.onclose = null;
    old.close();
  }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/rooms/${code}`);
  socket = ws;
  $("conn").textContent = "connecting…";
  $("conn").className = "badge";
  noSpectators = false;
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: seat ? seat.token : null }));
  ws.onmessage = (event) => {
    if (socket === ws) onMessage(JSON.parse(event.data));
  };
  ws.onclose = (event) => {
    if (socket !== ws) return;
    $("conn").textContent = event.code === 4404 ? "no such room" : noSpectators ? "not watching" : "offline";
    $("conn").className = "badge off";
    if (noSpectators) {
      renderRoom(); // spectators are not allowed: no retry (taking a seat connects again)
      return;
    }
    if (event.code === 4401 || event.code === 4403) {
      forgetSeat(code);
      seat = null;
      showError(event.code === 4403
        ? "You no longer hold your seat here (it was taken on another device, or the host removed you): you are now watching."
        : "Your seat token is not valid here: you are now watching.");
      if (room) renderRoom();
    }
    if (event.code !== 4404) setTimeout(() => { if (socket === ws) connect(); }, retry = Math.min(retry * 2, 8000));
  };
}

function onMessage(m) {
  switch (m.type) {
    case "welcome":
      retry = 500;
      if (m.server_time) setServerTime(m.server_time);
      room = m.room;
      $("conn").textContent = seat && m.seat !== null ? `connected as ${seatName(m.seat)}` : "watching";
      $("conn").className = "badge on";
      renderRoom();
      break;
    case "room": {
      const before = room && room.game ? room.game.id : null;
      room = m.room;
      renderRoom();
      if (room.game && room.game.id !== before) refreshPastGames();
      if (room.game && room.game.id !== before && before !== null) {
        log.startGame(room.game.id, `Game: ${gameTitle(room.settings)} (new game)`);
        lastReveal = null;
        ageResults = null;
      }
      if (room.status === "finished") refreshPastGames();
      break;
    }
    case "state":
      if (!log.has(m.game_id)) log.startGame(m.game_id, `Game: ${gameTitle(room.settings)}`);
      catchUp(m.game_id, m.version);
      state = m;
      sending = false;
      renderGame();
      break;
    case "chosen":
      break;
    case "timeout": {
      const ctx = context(state ? state.view : { players: [] }, [], seat ? seat.seat : null);
      log.add(m.game_id, m.version, timeoutLines(m.seat, m.bot, ctx), "timeout");
      if (seat && m.seat === seat.seat) announce(`Your time ran out: the ${m.bot} bot decided for you.`);
      break;
    }
    case "reveal":
      onGameEvent(m.game_id, m.version, m.reveal);
      break;
    case "event":
      onGameEvent(m.game_id, m.version, m.event);
      break;
    case "game_over":
      log.add(m.game_id, m.version, eventLines(room.settings.game, { type: "game_over", result: m.result }, context({ players: [] }, [], null)), "game_over");
      announce("The game is over.");
      break;
    case "accepted":
      sending = false;
      break;
    case "error":
      sending = false;
      showError(m.message);
      for (const b of document.querySelectorAll("#game button.act")) b.disabled = false;
      if (m.code === "stale") socket.send(JSON.stringify({ type: "sync" }));
      if (m.code === "spectators_off") {
        noSpectators = true;
        showError();
      }
      if (m.code === "seat_lost") showError();
      if (m.code === "room_not_found") {
        $("conn").textContent = "no such room";
        $("conn").className = "badge off";
      }
      break;
    default:
      break;
  }
}

async function refreshPastGames() {
  try {
    renderPastGames(await api("GET", `/api/rooms/${code}/games`));
  } catch {
    // the list comes back with the next change
  }
}

async function main() {
  remembered($("log-details"), "log");
  installInfoBubbles();
  startTicking(myDeadline);
  if (!code) {
    showError("No room code in the address.");
    $("conn").textContent = "no room";
    $("conn").className = "badge off";
    return;
  }
  try {
    await loadCatalog();
  } catch {
    showError("The game data could not be loaded; reload the page.");
  }
  $("join-seat").name.maxLength = maxNameLength();
  $("name-hint").textContent = `at most ${maxNameLength()} characters`;
  if (rejoinToken) await takeSeatFromLink(rejoinToken);
  try {
    await refreshRoom();
  } catch (e) {
    showError(e.status === 404 ? `There is no room ${code}. Check the code, or create a new room on the front page.` : e.message);
    $("conn").textContent = e.status === 404 ? "no such room" : "offline";
    $("conn").className = "badge off";
    $("seats-panel").hidden = true;
    return;
  }
  await loadHistory();
  connect();
}

main();
