// A finished game's review by the search bot (GET /api/rooms/{code}/games/{id}/review), beside its
// replay: per player the points lost in all and the three biggest swings (each a link to its step),
// and at each step the decision made there: the action taken, the bot's preferred one and the
// points lost. The game is over, so every hand at the step is shown too (classic games).
import { api } from "./api.js";
import { h } from "./ui.js";

const POLL_MS = 2000;

export function actionWords(a) {
  if (!a) return "";
  const t = a.type;
  if (t === "build") return `build ${a.card}${a.free ? " (free)" : ""}`;
  if (t === "wonder") return a.wonder ? `build the Wonder ${a.wonder} with ${a.card}` : `build wonder stage ${a.stage} with ${a.card}`;
  if (t === "discard") return `discard ${a.card}`;
  if (t === "build_from_discard") return `build ${a.card} from the discard`;
  if (t === "draft_wonder") return `take the Wonder ${a.wonder}`;
  if (t === "choose_progress" || t === "choose_box_token") return `take ${a.token}`;
  if (t === "destroy") return `destroy ${a.card}`;
  if (t === "choose_starter") return `let seat ${a.seat + 1} start`;
  if (t === "keep_island") return `keep ${a.island}`;
  return t.replace(/_/g, " ");
}

export function reviewPanel({ code, gameId, token, name, game, goTo }) {
  const box = h("section", { class: "review", id: "review", "aria-label": "Review by the search bot" });
  const start = h("button", { type: "button", class: "secondary", id: "review-open" }, ["Review by the search bot"]);
  box.append(start);
  let review = null;
  let at = 0;
  const stepBox = h("div", { class: "review-step", "aria-live": "polite" });
  const handsBox = h("div", { class: "review-hands" });

  async function load() {
    start.disabled = true;
    start.textContent = "The search bot reviews the game…";
    for (;;) {
      let body;
      try {
        body = await api("GET", `/api/rooms/${code}/games/${gameId}/review`, undefined, token);
      } catch (e) {
        start.disabled = false;
        start.textContent = "Review by the search bot";
        box.append(h("p", { class: "error" }, [`The review could not be made: ${e.message}`]));
        return;
      }
      if (body.status === "done") {
        review = body;
        draw();
        return;
      }
      if (body.status === "failed") {
        box.replaceChildren(h("p", { class: "error" }, [`The review failed: ${body.error || "unknown"}`]));
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  function draw() {
    const rows = review.seats.map((s) => h("tr", {}, [
      h("th", { scope: "row" }, [name(s.seat)]),
      h("td", {}, [String(s.points_lost)]),
      h("td", {}, s.swings.length ? s.swings.map((w) => h("button", {
        type: "button", class: "link review-swing", onclick: () => goTo(w.step + 1),
        "aria-label": `Step ${w.step + 1}: ${w.points_lost} points lost by ${name(s.seat)}`,
      }, [`step ${w.step + 1} (−${w.points_lost})`])) : ["none"]),
    ]));
    box.replaceChildren(
      h("h4", {}, ["Review by the search bot"]),
      h("p", { class: "muted" }, [`Points lost: how much better, in final score against the best other player, the search bot's choice did in games played out from what each player knew (${review.budget_ms} ms of search a decision).`]),
      h("table", { class: "review-totals" }, [
        h("thead", {}, [h("tr", {}, [h("th", {}, ["Player"]), h("th", {}, ["Points lost"]), h("th", {}, ["Biggest swings"])])]),
        h("tbody", {}, rows),
      ]),
      stepBox,
      handsBox,
    );
    update(at);
  }

  async function update(step) {
    at = step;
    if (!review) return;
    const decision = at > 0 ? review.seats.flatMap((s) => s.decisions.map((d) => ({ ...d, seat: s.seat }))).find((d) => d.step === at - 1) : null;
    if (!decision) stepBox.replaceChildren(h("p", { class: "muted" }, [at ? "No decision at this step." : "The start: no decision yet."]));
    else {
      const agreed = decision.points_lost === 0;
      stepBox.replaceChildren(h("p", { class: agreed ? "review-good" : "review-lost" }, [
        h("strong", {}, [name(decision.seat)]), ` chose to ${actionWords(decision.action)}; `,
        agreed ? "the search bot agrees (no points lost)." : `the search bot preferred to ${actionWords(decision.best)}: ${decision.points_lost} points lost.`,
      ]));
    }
    if (game === "duel") return;
    const seats = review.seats.map((s) => s.seat);
    const views = await Promise.all(seats.map((s) => api("GET", `/api/rooms/${code}/game/history?game=${gameId}&at=${at}&seat=${s}`, undefined, token).then((r) => r.view, () => null)));
    if (step !== at) return;
    handsBox.replaceChildren(h("h5", {}, ["Every hand at this step"]), h("ul", { class: "review-hand-list" }, seats.map((s, i) => {
      const hand = (views[i] && views[i].hand) || [];
      return h("li", {}, [h("strong", {}, [name(s)]), ": ", hand.length ? hand.join(", ") : "no cards"]);
    })));
  }

  start.addEventListener("click", load);
  return { element: box, update };
}
