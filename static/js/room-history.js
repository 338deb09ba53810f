// The room's past, read from the server: its games listed with a replay of each finished one, and
// the log of the last three rebuilt from /game/history (it survives a reload), caught up to the
// socket's first state.
//
// roomHistory({code, token, seatName, log, title, context, track}) -> {load, catchUp,
// refreshPastGames}: token() is the seat's token or null, log the page's GameLog, title() the
// room's game title, context() a table context without a view, track(gameId, version, event, ctx,
// game) what the page keeps of each event (the last turn, the Age's conflicts).
import { api } from "./api.js";
import { eventLines, seatAtSide, timeoutLines } from "./log.js";
import { openReplay } from "./replay.js";
import { $, h, listWords } from "./ui.js";

export function roomHistory({ code, token, seatName, log, title, context, track }) {
  // The log of every game of the room, rebuilt from the server's history (it survives a reload).
  async function load() {
    let games = [];
    try {
      games = await api("GET", `/api/rooms/${code}/games`);
    } catch {
      return;
    }
    renderPastGames(games);
    for (const g of games.slice(-3)) {
      try {
        const history = await api("GET", `/api/rooms/${code}/game/history?game=${g.id}`, undefined, token());
        const names = historyNames(history);
        log.startGame(g.id, `Game ${games.indexOf(g) + 1}: ${title()}`);
        const ctx = { ...context(), name: names, sideSeat: historySides(history) };
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
      const history = await api("GET", `/api/rooms/${code}/game/history?game=${gameId}`, undefined, token());
      const ctx = { ...context(), name: historyNames(history), sideSeat: historySides(history) };
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
        g.status === "finished" ? h("button", { type: "button", class: "secondary small", onclick: () => openReplay($("replay"), { code, gameId: g.id, seatName, token: token(), title: label }) }, ["Replay"]) : null,
      ]);
    }));
  }

  async function refreshPastGames() {
    try {
      renderPastGames(await api("GET", `/api/rooms/${code}/games`));
    } catch {
      // the list comes back with the next change
    }
  }

  return { load, catchUp, refreshPastGames };
}
