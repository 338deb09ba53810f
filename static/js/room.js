// A room: its seats, then the game table, over one websocket (see docs/PROTOCOL.md). This is the
// page's wiring: the room and the game's state, what each message of the socket (room-socket.js)
// does, the room's panel (room-seats.js), each game kind's table (TABLES: its renderer and its
// words), the log of live events and the room's past games (room-history.js).
import { pickBanner, renderDecision, renderHand, resetSelection } from "./actions.js";
import { api, forgetSeat, saveSeat, savedSeat } from "./api.js";
import { gameTitle, loadCatalog, maxNameLength } from "./catalog.js";
import { clockChip, setServerTime, setTimeoutPolicy, startTicking, watchStatusLine } from "./clock.js";
import { renderDuel } from "./duel.js";
import { GameLog } from "./log-view.js";
import { eventLines, timeoutLines, turnSummary } from "./log.js";
import { setRoomOwes, setTitle, startMoveCount } from "./move-count.js";
import { roomHistory } from "./room-history.js";
import { installSeatControls, isHost, renderRoomPanel, takeSeatFromLink } from "./room-seats.js";
import { RoomChat } from "./chat.js";
import { NotifyPanel } from "./notify.js";
import { HintBox } from "./hint.js";
import { Coach } from "./coach.js";
import { BAD_TOKEN, NO_ROOM, RoomSocket, SEAT_LOST } from "./room-socket.js";
import { markScrolling, scienceNotes, scoreChart, scoreTable } from "./score.js";
import { renderClassicBoard, tableFacts } from "./table.js";
import { $, announce, h, listWords, remembered } from "./ui.js";
import { installDetails } from "./details.js";
import { overText, renderGameEnd } from "./game-end.js";

const code = (new URLSearchParams(location.search).get("code") || "").toUpperCase();
const rejoinToken = new URLSearchParams(location.search).get("rejoin");
const errorBox = $("error");
const AGES = ["", "I", "II", "III"];

let seat = savedSeat(code); // {seat, token} or null
let room = null;
let state = null;
let lastReveal = null; // {game_id, version, moves}
let ageResults = null; // {game_id, lines}
let wasMyMove = false;
let shownGame = null; // the game id the table last showed: a new one (a rematch) scrolls to its hand
let shownStatus = null; // that game's status: its end, seen as it happens, scrolls to who won
let noSpectators = false; // the server refused this page as a spectator (the room's setting)
const log = new GameLog($("log"));
const hints = new HintBox($("hint-box"), { code });
const coach = new Coach($("coach"), { code, send: (action) => send(action) }); // a learning game's explanations
const socket = new RoomSocket(code, {
  token: () => (seat ? seat.token : null),
  connecting,
  message: onMessage,
  closed,
});

const chat = new RoomChat({
  code,
  send: (text) => socket.sendChat(text),
  seat: () => seat,
  isHost: () => isHost({ seat, room }),
});

const notifyPanel = new NotifyPanel({ code, seat: () => seat, isHost: () => isHost({ seat, room }) });

const past = roomHistory({
  code,
  token: () => (seat ? seat.token : null),
  seatName,
  log,
  title: () => gameTitle(room.settings),
  context: () => context({ players: [] }, [], null),
  track,
});

function showError(message) {
  errorBox.textContent = message || "";
}

function seatName(n) {
  const s = room && room.seats.find((x) => x.seat === n);
  return s && s.name ? s.name : `Seat ${n + 1}`;
}

// ----- the room ---------------------------------------------------------------------------

function renderRoom() {
  setTimeoutPolicy(room.settings);
  renderRoomPanel({ code, room, seat, noSpectators, hostCall });
  drawGameEnd();
  chat.render();
  notifyPanel.render();
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

installSeatControls({
  code,
  seat: () => seat,
  hostCall,
  showError,
  joined: (joined) => {
    seat = { seat: joined.seat, token: joined.token };
    saveSeat(code, joined.seat, joined.token);
    room = joined.room;
    renderRoom();
    socket.connect(); // the spectator connection is replaced by the seat's
  },
});

// ----- the game ---------------------------------------------------------------------------

// Each game kind's table: what the top bar says of the turn, the status line's word for your move,
// and how the table is drawn (into #hand-region, #pick, #decision, #turn-summary and #board).
const TABLES = {
  classic: {
    turnInfo: (view) => tableFacts(view).slice(0, 3).join(" · "),
    yourMove: "Your move: choose a card.",
    draw: drawClassic,
  },
  duel: {
    turnInfo: (view) => (view.age ? `Age ${AGES[view.age]}` : "Wonder draft"),
    yourMove: "Your move.",
    draw: drawDuel,
  },
};

function tableOf(game) {
  return TABLES[game] || TABLES.classic;
}

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
  if (state.status === "finished") return overText(state.result, seatName);
  if (state.status === "abandoned") return "This game was abandoned: its room was closed after a long time unused.";
  const waiting = state.to_act.filter((s) => !seat || s !== seat.seat).map(seatName);
  if (seat && state.to_act.includes(seat.seat)) {
    if (view.phase === "pick" && view.pick) return waiting.length ? `Your pick is made. Waiting for ${listWords(waiting)}.` : "Your pick is made.";
    const kind = view.decision && view.decision.kind;
    if (kind === "build_from_discard") return "Your move: build a card of the discard pile for free.";
    if (kind === "keep_island") return "Your move: keep one island.";
    if (kind === "last_card") return "Your move: play the last card of the Age.";
    return tableOf(view.game).yourMove;
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
  $("top-clock").replaceChildren(myClock()); // the same countdown, in the header once the status line scrolls away
  $("turn-info").textContent = tableOf(view.game).turnInfo(view);
  const mine = myMove();
  setTitle(`${mine ? "● Your move — " : ""}Wonders — room ${code}`); // with the count of games owing a move
  if (mine && !wasMyMove) {
    announce("Your move.");
    notifyPanel.yourMove(statusText(view));
  }
  setRoomOwes(code, mine);
  wasMyMove = mine;

  drawGameEnd();
  tableOf(view.game).draw(ctx);
  hints.update({ room, state, seat, mine });
  coach.update({ room, state, mine, ctx });
  renderResult();
  if (shownGame !== null && shownGame !== state.game_id) {
    // a rematch: the new hand (or the new table) in view, wherever the last game's end left the page
    const hand = $("hand-region");
    (hand.hidden ? $("game") : hand).scrollIntoView({ block: "start" });
  } else if (shownGame === state.game_id && shownStatus === "running" && state.status !== "running" && underHeader($("status"))) {
    // the game ended while the page was scrolled down to the hand: who won, and the ranking, in view
    $("game").scrollIntoView({ block: "start" });
  }
  shownGame = state.game_id;
  shownStatus = state.status;
}

// Whether a node is above the bottom of the sticky header (under it, or scrolled off the screen).
function underHeader(node) {
  const header = document.querySelector(".top");
  return node.getBoundingClientRect().top < (header ? header.getBoundingClientRect().bottom : 0);
}

// Who won, the ranking and the host's Rematch at the top of a finished game.
function drawGameEnd() {
  renderGameEnd($("game-end"), {
    room,
    state,
    name: seatName,
    host: isHost({ seat, room }),
    rematch: () => hostCall("POST", `/api/rooms/${code}/start`),
  });
}

function drawDuel(ctx) {
  const parts = renderDuel(ctx);
  $("hand-region").hidden = true;
  $("pick").hidden = true;
  $("decision").hidden = !parts.decision;
  $("decision").replaceChildren(...(parts.decision ? [parts.decision] : []));
  $("turn-summary").hidden = true;
  $("board").replaceChildren(parts.board);
}

function drawClassic(ctx) {
  const { view, me } = ctx;
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
    parts.push(block("last-turn", `Last turn (Age ${AGES[r.age]}, turn ${r.turn})`,
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
    scienceNotes(state.result, seatName) || "",
  );
  markScrolling(box);
}

function send(action) {
  if (!state || !socket.sendAction(action, state.version)) return;
  showError();
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

// ----- the websocket ------------------------------------------------------------------------

function connecting() {
  $("conn").textContent = "connecting…";
  $("conn").className = "badge";
  noSpectators = false;
}

// A closed connection: whether to open it again.
function closed(event) {
  $("conn").textContent = event.code === NO_ROOM ? "no such room" : noSpectators ? "not watching" : "offline";
  $("conn").className = "badge off";
  if (noSpectators) {
    renderRoom(); // spectators are not allowed: no retry (taking a seat connects again)
    return false;
  }
  if (event.code === BAD_TOKEN || event.code === SEAT_LOST) {
    forgetSeat(code);
    seat = null;
    showError(event.code === SEAT_LOST
      ? "You no longer hold your seat here (it was taken on another device, or the host removed you): you are now watching."
      : "Your seat token is not valid here: you are now watching.");
    if (room) renderRoom();
  }
  return true;
}

function onMessage(m) {
  switch (m.type) {
    case "welcome":
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
      if (room.game && room.game.id !== before) past.refreshPastGames();
      if (room.game && room.game.id !== before && before !== null) {
        log.startGame(room.game.id, `Game: ${gameTitle(room.settings)} (new game)`);
        lastReveal = null;
        ageResults = null;
      }
      if (room.status === "finished") past.refreshPastGames();
      break;
    }
    case "state":
      if (!log.has(m.game_id)) log.startGame(m.game_id, `Game: ${gameTitle(room.settings)}`);
      past.catchUp(m.game_id, m.version);
      state = m;
      renderGame();
      break;
    case "chosen":
      break;
    case "chat":
      chat.receive(m);
      if (m.kind === "hint" && state) log.add(state.game_id, state.version, [`${m.name} used a hint.`], "hint");
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
    case "accepted": // the socket takes it: the next action can go
      break;
    case "error":
      if (RoomChat.owns(m)) {
        chat.error(m.message);
        break;
      }
      showError(m.message);
      for (const b of document.querySelectorAll("#game button.act")) b.disabled = false;
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


async function main() {
  remembered($("log-details"), "log");
  installDetails();
  startTicking(myDeadline);
  watchStatusLine($("status"));
  startMoveCount();
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
  if (rejoinToken) seat = (await takeSeatFromLink(code, rejoinToken, showError)) || seat;
  try {
    await refreshRoom();
  } catch (e) {
    showError(e.status === 404 ? `There is no room ${code}. Check the code, or create a new room on the front page.` : e.message);
    $("conn").textContent = e.status === 404 ? "no such room" : "offline";
    $("conn").className = "badge off";
    $("seats-panel").hidden = true;
    return;
  }
  await past.load();
  socket.connect();
}

main();
