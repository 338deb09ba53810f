// The room's panel: its title and code, the share link, the seats (who sits, who is connected or
// away, where a bot plays), what a spectator may see, taking a seat, a rejoin link for another
// device, and the host's tools (bots, the turn clock, spectators, Armada, start or rematch).
//
// renderRoomPanel(page) draws it from page = {code, room, seat, noSpectators, hostCall};
// installSeatControls(...) wires its controls once; takeSeatFromLink() uses a rejoin link.
import { api, saveSeat } from "./api.js";
import { catalog, gameKind, gameTitle } from "./catalog.js";
import { CLOCK_CHOICES, clockOptions, sameClock, settingWords } from "./clock.js";
import { $, h, plural } from "./ui.js";

const BOT_REASONS = { left: "left the game", host: "handed over by the host", timeout: "out of time" };
const SPECTATORS = {
  off: "This room allows no spectators: only its players see the game.",
  after: "This room shows its games to spectators once they are over.",
};

export function isHost({ seat, room }) {
  return Boolean(seat && room && room.host_seat === seat.seat);
}

export function renderRoomPanel(page) {
  const { room, seat, noSpectators } = page;
  $("room-code").textContent = room.code;
  const status = { open: "waiting for players", playing: "playing", finished: "game over" }[room.status] || room.status;
  $("room-title").textContent = `${gameTitle(room.settings)} · ${status}`;
  $("share").value = `${location.origin}/room.html?code=${room.code}`;
  $("seats").replaceChildren(...room.seats.map((s) => seatItem(page, s)));
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
  renderSeatNotice(page);
  $("device").hidden = !seat || room.status === "closed";
  $("host-tools").hidden = !isHost(page) || room.status === "playing";
  $("spectators").value = policy;
  const clock = room.settings.clock || { mode: "off" };
  const timeout = clock.mode === "off" ? "" : `; when time runs out, the ${room.settings.timeout_bot} bot decides, and after ${plural(room.settings.timeouts_before_bot || 2, "timeout")} in a row it plays the seat until its player is back`;
  $("clock-info").textContent = `${settingWords(clock, room.settings.pace)}${timeout}.`;
  const choice = CLOCK_CHOICES.findIndex((c) => sameClock(c.clock, clock));
  const custom = $("clock").querySelector("option[value=custom]");
  if (choice < 0) {
    const words = `Custom: ${settingWords(clock, room.settings.pace)}`;
    if (custom) custom.textContent = words;
    else $("clock").append(h("option", { value: "custom" }, [words]));
  }
  $("clock").value = choice < 0 ? "custom" : String(choice);
  $("clock-setting").hidden = room.status === "playing";
  $("add-bot").disabled = !free;
  $("add-bot").hidden = room.status !== "open";
  $("start").disabled = free > 0;
  $("start").textContent = room.status === "open" ? (free ? `Start the game (${plural(free, "free seat")} left)` : "Start the game") : "Rematch";
  renderExpansionToggles(page);
  // during a game the room's details fold away (players can open them again)
  if (room.status === "playing" && !$("room-details").dataset.folded) {
    $("room-details").open = false;
    $("room-details").dataset.folded = "1";
  }
}

// The host's choice of the room's expansions (before the first game), from the server's registry of
// game kinds: each expansion of the room's game that this server offers, with what players should know.
function renderExpansionToggles(page) {
  const { code, room, hostCall } = page;
  const kind = gameKind(room.settings.game);
  const offered = (catalog() || {}).expansions || {};
  const choices = room.status === "open" && kind ? kind.expansions.filter((e) => offered[e.name] && offered[e.name].enabled) : [];
  $("expansion-toggles").replaceChildren(...choices.map((e) => {
    const input = h("input", { type: "checkbox", id: `expansion-${e.name}` });
    input.checked = room.settings.expansions.includes(e.name);
    input.addEventListener("change", () => {
      const others = room.settings.expansions.filter((name) => name !== e.name);
      hostCall("PATCH", `/api/rooms/${code}`, { expansions: input.checked ? [...others, e.name] : others });
    });
    return h("label", { title: e.notices.join(" ") }, [input, ` ${e.title} expansion`]);
  }));
}

function seatItem(page, s) {
  const { code, room, seat, hostCall } = page;
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
  if (isHost(page) && room.status === "open" && s.kind !== "free" && s.seat !== room.host_seat) {
    item.append(" ", h("button", {
      class: "secondary small", type: "button", "aria-label": `Remove ${s.name}`,
      onclick: () => hostCall("DELETE", `/api/rooms/${code}/seats/${s.seat}`),
    }, ["remove"]));
  }
  if (isHost(page) && room.status === "playing" && s.kind === "human" && s.seat !== seat.seat) {
    item.append(" ", botPlays
      ? h("button", { class: "secondary small", type: "button",
        onclick: () => hostCall("DELETE", `/api/rooms/${code}/seats/${s.seat}/bot`) }, [`Give back to ${s.name}`])
      : h("button", { class: "secondary small", type: "button", "aria-label": `Hand ${s.name}'s seat to a bot`,
        onclick: () => hostCall("POST", `/api/rooms/${code}/seats/${s.seat}/bot`, { kind: "heuristic" }) }, ["Hand to a bot"]));
  }
  return item;
}

// Your own seat, when a bot plays it for you: say so, with a way back.
function renderSeatNotice({ room, seat }) {
  const mine = seat && room.seats.find((x) => x.seat === seat.seat);
  const played = Boolean(mine && room.status === "playing" && mine.bot_plays);
  $("seat-notice").hidden = !played;
  if (!played) return;
  const why = { left: "you left the game", host: "the host handed your seat over", timeout: "your time ran out" }[mine.bot_reason];
  $("seat-notice-text").textContent = `A bot plays your seat for you${why ? ` (${why})` : ""}. Your next move takes it back, or:`;
}

// The panel's controls. seat() is this browser's seat ({seat, token} or null); hostCall(method,
// path, body) makes a call with it and draws the room again; joined(answer) takes the seat just
// joined (the answer of POST /join).
export function installSeatControls({ code, seat, hostCall, showError, joined }) {
  $("im-back").addEventListener("click", () => hostCall("POST", `/api/rooms/${code}/seats/${seat().seat}/back`));
  $("other-device").addEventListener("click", async () => {
    showError();
    try {
      const link = await api("POST", `/api/rooms/${code}/seats/${seat().seat}/rejoin-link`, undefined, seat().token);
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
  $("join-seat").addEventListener("submit", async (event) => {
    event.preventDefault();
    showError();
    try {
      joined(await api("POST", `/api/rooms/${code}/join`, { name: event.target.name.value.trim() }));
    } catch (e) {
      showError(e.message);
    }
  });
  $("clock").replaceChildren(...clockOptions());
  $("clock").addEventListener("change", (event) => {
    const chosen = CLOCK_CHOICES[Number(event.target.value)];
    if (chosen) hostCall("PATCH", `/api/rooms/${code}`, { clock: chosen.clock });
  });
  $("add-bot").addEventListener("click", () => hostCall("POST", `/api/rooms/${code}/bots`, { kind: "heuristic" }));
  $("start").addEventListener("click", () => hostCall("POST", `/api/rooms/${code}/start`));
  $("copy-link").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("share").value);
      $("copy-link").textContent = "Copied";
    } catch {
      $("share").select();
    }
  });
}

// A rejoin link (room.html?code=X&rejoin=T) opened here: this browser takes the seat. The seat
// taken ({seat, token}, saved for the room), or null (the error is shown).
export async function takeSeatFromLink(code, token, showError) {
  const url = new URL(location.href);
  url.searchParams.delete("rejoin");
  history.replaceState(null, "", url); // the link works once: a reload must not try it again
  try {
    const joined = await api("POST", `/api/rooms/${code}/rejoin`, { token });
    saveSeat(code, joined.seat, joined.token);
    return { seat: joined.seat, token: joined.token };
  } catch (e) {
    showError(e.status === 404 ? "This link cannot take a seat any more: it was already used or replaced. Ask for a new one." : e.message);
    return null;
  }
}
