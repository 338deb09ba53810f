// The end of a game at the top of the table: who won (the status line), the ranking, and the
// host's Rematch beside them, so nobody has to look for it in the folded Room panel.
import { overWords } from "./log.js";
import { h, plural } from "./ui.js";

// Seats best first: the winners, then by points, then by coins (the classic tie-breaker).
export function ranked(result) {
  const winners = new Set(result.winners);
  return [...result.scores].sort((a, b) =>
    Number(winners.has(b.seat)) - Number(winners.has(a.seat)) || b.total - a.total || (b.coins || 0) - (a.coins || 0));
}

export function overText(result, name) {
  return result ? overWords(result, { name }) : "The game is over.";
}

// box: the #game-end element; room, state: as the page holds them; host: whether this browser
// is the host; rematch: starts the next game.
export function renderGameEnd(box, { room, state, name, host, rematch }) {
  const over = state && state.status === "finished" && state.result;
  box.hidden = !over;
  if (!over) {
    box.replaceChildren();
    return;
  }
  const rows = ranked(state.result);
  const list = h("ol", { class: "ranking", "aria-label": "Ranking" }, rows.map((s) =>
    h("li", {}, [h("span", { class: "rank-name" }, [name(s.seat)]), ` ${plural(s.total, "point")}`,
      s.coins !== undefined ? h("span", { class: "muted" }, [`, ${plural(s.coins, "coin")}`]) : ""])));
  const parts = [list];
  if (host && room && room.status === "finished") {
    const free = room.seats.filter((s) => s.kind === "free").length;
    parts.push(h("button", { type: "button", id: "rematch", disabled: free > 0, onclick: rematch }, ["Rematch"]));
  } else if (room && room.status === "finished") {
    parts.push(h("p", { class: "muted" }, ["The host may start a rematch."]));
  }
  box.replaceChildren(...parts);
}
