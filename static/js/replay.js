// Stepping through a finished game: a slider over its steps (GET /game/history?at=N&seat=S), the
// table at that step as any seat (or a spectator) saw it, what happened at that step and when, and
// beside it the room's chat as it stood then (each message of the history's `chat` from its `step`
// on; deleted ones stay deleted). The same for every game kind (the table is the kind's own).
import { api } from "./api.js";
import { cardTile } from "./cards.js";
import { renderDuel } from "./duel.js";
import { eventLines, seatAtSide } from "./log.js";
import { reviewPanel } from "./review.js";
import { renderClassicBoard, tableFacts } from "./table.js";
import { h } from "./ui.js";

export async function openReplay(container, { code, gameId, title, token = null }) {
  container.hidden = false;
  container.replaceChildren(h("p", { class: "muted" }, ["Loading the replay…"]));
  let history;
  try {
    history = await api("GET", `/api/rooms/${code}/game/history?game=${gameId}`, undefined, token);
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
  const said = history.chat || [];
  const chatList = h("ol", { class: "chat-list replay-chat-list", "aria-label": "Messages said by this step" });
  const chatNote = h("p", { class: "muted replay-chat-note" });
  const chatBox = said.length
    ? h("section", { class: "replay-chat", "aria-label": "Chat at this step" }, [h("h4", {}, ["Chat"]), chatNote, chatList])
    : null;
  const started = Date.parse(history.started_at || "");
  const lastAt = history.steps.length ? Date.parse(history.steps[history.steps.length - 1].at) : started;
  const overDays = lastAt - started > 20 * 3600 * 1000; // a turn-based game: say the day too
  const timeWords = (iso) => new Date(iso).toLocaleString([], overDays
    ? { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }
    : { hour: "2-digit", minute: "2-digit" });
  function showChat(at) {
    if (!chatBox) return;
    const shown = said.filter((m) => m.step <= at);
    chatList.replaceChildren(...shown.map((m) => h("li", { class: `${m.step === at ? "new" : ""}${m.deleted ? " deleted" : ""}` }, [
      h("strong", {}, [m.name]), " ", h("time", { datetime: m.at, class: "muted" }, [timeWords(m.at)]), " ",
      m.deleted ? h("em", { class: "muted" }, ["deleted by the host"]) : h("span", { class: "chat-text" }, [m.text]),
    ])));
    const fresh = shown.filter((m) => m.step === at).length;
    chatNote.textContent = !shown.length ? "Nothing said yet." : fresh ? `${fresh === 1 ? "1 message" : `${fresh} messages`} said at this step.` : "";
    chatList.scrollTop = chatList.scrollHeight;
  }
  const prev = h("button", { type: "button", class: "secondary", "aria-label": "Previous step" }, ["◀ Previous"]);
  const next = h("button", { type: "button", class: "secondary", "aria-label": "Next step" }, ["Next ▶"]);
  const review = history.status === "finished"
    ? reviewPanel({ code, gameId, token, name, game, goTo: (at) => { slider.value = String(at); show(); } })
    : null;
  const close = h("button", { type: "button", class: "secondary", onclick: () => { container.hidden = true; container.replaceChildren(); } }, ["Close the replay"]);
  container.replaceChildren(
    h("h3", {}, [`Replay: ${title}`]),
    h("div", { class: "replay-controls" }, [prev, h("label", { class: "replay-slider" }, ["Step ", slider]), next, h("label", {}, ["View as ", viewAs]), close]),
    where,
    h("div", { class: `replay-body${chatBox ? " with-chat" : ""}` }, [board, chatBox]),
    ...(review ? [review.element] : []),
  );
  const ctxBase = {
    game, legal: [], interactive: false, name, lastMoves: null,
    send: () => {}, rerender: () => {}, focusActions: () => {},
    sideSeat: (from, side) => seatAtSide(seats.length, from, side),
  };
  let latest = 0; // the latest request: an earlier answer arriving after it is dropped
  async function show() {
    const at = Number(slider.value);
    const seat = viewAs.value === "" ? null : Number(viewAs.value);
    const mine = ++latest;
    const query = `game=${gameId}&at=${at}${seat === null ? "" : `&seat=${seat}`}`;
    let data;
    try {
      data = await api("GET", `/api/rooms/${code}/game/history?${query}`, undefined, token);
    } catch (e) {
      where.textContent = e.message;
      return;
    }
    if (mine !== latest) return;
    showChat(at);
    if (review) review.update(at);
    const view = data.view;
    const ctx = { ...ctxBase, view, me: seat };
    const step = at ? history.steps[at - 1] : null;
    const lines = step ? step.events.flatMap((e) => eventLines(game, e, ctx)) : [];
    if (step && !lines.length && step.events.some((e) => e.type === "chosen")) lines.push(`${name(step.seat)} chose a card.`);
    const who = step ? name(step.seat) : "";
    const when = step && step.at ? ` at ${timeWords(step.at)}` : "";
    where.textContent = `Step ${at} of ${total}${step ? ` (${who} acted${when})` : " (the start)"}${view && view.age ? ` · ${tableFacts(view).slice(0, 2).join(", ")}` : ""}${lines.length ? `: ${lines.join(" ")}` : "."}`;
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
          h("ul", { class: "hand-cards" }, view.hand.map((c) => h("li", {}, [cardTile("classic", c, { age: view.age })]))),
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
