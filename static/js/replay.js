// Stepping through a finished game: a slider over its steps (GET /game/history?at=N&seat=S), the
// table at that step as any seat (or a spectator) saw it, and what happened at that step.
import { api } from "./api.js";
import { cardTile } from "./cards.js";
import { renderDuel } from "./duel.js";
import { eventLines, seatAtSide } from "./log.js";
import { renderClassicBoard, tableFacts } from "./table.js";
import { h } from "./ui.js";

export async function openReplay(container, { code, gameId, title }) {
  container.hidden = false;
  container.replaceChildren(h("p", { class: "muted" }, ["Loading the replay…"]));
  let history;
  try {
    history = await api("GET", `/api/rooms/${code}/game/history?game=${gameId}`);
  } catch (e) {
    container.replaceChildren(h("p", { class: "error" }, [`The replay could not be loaded: ${e.message}`]));
    return;
  }
  const seats = history.seats || [];
  const name = (n) => {
    const s = seats.find((x) => x.seat === n);
    return s && s.name ? s.name : `Seat ${n + 1}`;
  };
  const game = history.config.game;
  const total = history.version;
  const slider = h("input", { type: "range", min: 0, max: total, value: total, step: 1, id: "replay-step", "aria-label": "Step of the game" });
  const viewAs = h("select", { id: "replay-seat", "aria-label": "View the table as" }, [
    h("option", { value: "" }, ["a spectator"]),
    ...seats.map((s) => h("option", { value: String(s.seat) }, [name(s.seat)])),
  ]);
  const where = h("p", { class: "replay-where", "aria-live": "polite" });
  const board = h("div", { class: "replay-board" });
  const prev = h("button", { type: "button", class: "secondary", "aria-label": "Previous step" }, ["◀ Previous"]);
  const next = h("button", { type: "button", class: "secondary", "aria-label": "Next step" }, ["Next ▶"]);
  const close = h("button", { type: "button", class: "secondary", onclick: () => { container.hidden = true; container.replaceChildren(); } }, ["Close the replay"]);
  container.replaceChildren(
    h("h3", {}, [`Replay: ${title}`]),
    h("div", { class: "replay-controls" }, [prev, h("label", { class: "replay-slider" }, ["Step ", slider]), next, h("label", {}, ["View as ", viewAs]), close]),
    where,
    board,
  );
  const ctxBase = {
    game, legal: [], interactive: false, name, lastMoves: null,
    send: () => {}, rerender: () => {}, focusActions: () => {},
    sideSeat: (from, side) => seatAtSide(seats.length, from, side),
  };
  let token = 0;
  async function show() {
    const at = Number(slider.value);
    const seat = viewAs.value === "" ? null : Number(viewAs.value);
    const mine = ++token;
    const query = `game=${gameId}&at=${at}${seat === null ? "" : `&seat=${seat}`}`;
    let data;
    try {
      data = await api("GET", `/api/rooms/${code}/game/history?${query}`);
    } catch (e) {
      where.textContent = e.message;
      return;
    }
    if (mine !== token) return;
    const view = data.view;
    const ctx = { ...ctxBase, view, me: seat };
    const step = at ? history.steps[at - 1] : null;
    const lines = step ? step.events.flatMap((e) => eventLines(game, e, ctx)) : [];
    if (step && !lines.length && step.events.some((e) => e.type === "chosen")) lines.push(`${name(step.seat)} chose a card.`);
    const who = step ? name(step.seat) : "";
    where.textContent = `Step ${at} of ${total}${step ? ` (${who} acted)` : " (the start)"}${view && view.age ? ` · ${tableFacts(view).slice(0, 2).join(", ")}` : ""}${lines.length ? `: ${lines.join(" ")}` : "."}`;
    if (!view) {
      board.replaceChildren();
      return;
    }
    if (game === "duel") {
      board.replaceChildren(renderDuel(ctx).board);
    } else {
      const hand = seat !== null && view.hand && view.hand.length
        ? h("section", { class: "replay-hand", "aria-label": `${name(seat)}'s hand` }, [
          h("h4", {}, [`${name(seat)}'s hand`]),
          h("ul", { class: "hand-cards" }, view.hand.map((c) => h("li", {}, [cardTile("classic", c)]))),
        ])
        : null;
      board.replaceChildren(...[hand, renderClassicBoard(ctx)].filter(Boolean));
    }
    prev.disabled = at <= 0;
    next.disabled = at >= total;
  }
  slider.addEventListener("input", show);
  viewAs.addEventListener("change", show);
  prev.addEventListener("click", () => { slider.value = String(Math.max(0, Number(slider.value) - 1)); show(); });
  next.addEventListener("click", () => { slider.value = String(Math.min(total, Number(slider.value) + 1)); show(); });
  await show();
  slider.focus();
}
