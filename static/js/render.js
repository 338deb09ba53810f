// Turning the engine's JSON (actions, events, results) into words and elements.

export function el(tag, props = {}, children = []) {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of children) {
    if (child === null || child === undefined || child === "") continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function bought(side) {
  return Object.entries(side || {}).map(([r, n]) => (n > 1 ? `${n} ${r}` : r)).join(" + ");
}

export function costLabel(action) {
  if (action.free) return `free (${action.free.replaceAll("_", " ")})`;
  const cost = action.cost;
  if (cost === undefined || cost === null) return "";
  if (typeof cost === "number") return cost ? `${cost} coin${cost > 1 ? "s" : ""}` : "free";
  const parts = [];
  if (cost.bank) parts.push(`${cost.bank} to the bank`);
  const trade = action.trade || {};
  for (const side of Object.keys(cost)) {
    if (side === "bank" || !cost[side]) continue;
    parts.push(`${cost[side]} to the ${side.replaceAll("_", " ")}${trade[side] ? ` (${bought(trade[side])})` : ""}`);
  }
  return parts.length ? parts.join(", ") : "free";
}

export function actionLabel(action) {
  const naval = action.naval ? " + naval step" : "";
  const cost = costLabel(action);
  const paid = cost ? ` — ${cost}` : "";
  switch (action.type) {
    case "build":
      return `Build${naval}${paid}`;
    case "wonder":
      return `${action.wonder ? `Build ${action.wonder}` : `Wonder stage ${action.stage ?? ""}`}${naval}${paid}`;
    case "discard":
      return action.reward === "yellow_ship" ? "Discard: move the yellow ship" : "Discard for coins";
    case "build_from_discard":
      return `Build ${action.card} from the discard`;
    case "pass":
      return "Pass";
    default: {
      const detail = Object.entries(action).filter(([k]) => k !== "type").map(([, v]) => (typeof v === "object" ? JSON.stringify(v) : v));
      return `${action.type.replaceAll("_", " ")}${detail.length ? ": " + detail.join(", ") : ""}`;
    }
  }
}

export function describeEvent(event, seatName) {
  if (!event) return [];
  switch (event.type) {
    case "reveal":
      return event.moves.map((m) => {
        const who = seatName(m.seat);
        if (m.type === "build") return `${who} built ${m.card}.`;
        if (m.type === "wonder") return `${who} built a wonder stage.`;
        return `${who} discarded a card.`;
      });
    case "military":
      return [`Military conflicts of Age ${event.age}.`];
    case "age_started":
      return [`Age ${event.age} begins.`];
    case "built_from_discard":
      return [`${seatName(event.seat)} built ${event.card} from the discard.`];
    case "last_card_played":
      return describeEvent({ type: "reveal", moves: [event.move] }, seatName);
    case "game_over":
      return [];
    default: {
      const who = event.seat !== undefined ? `${seatName(event.seat)}: ` : "";
      const what = event.card || event.wonder || event.token || "";
      return [`${who}${event.type.replaceAll("_", " ")}${what ? ` ${what}` : ""}`];
    }
  }
}

export function scoreTable(result, seatName) {
  const scores = result.scores;
  const winners = new Set(result.winners);
  const head = el("tr", {}, [el("th", {}, [""]), ...scores.map((s) => el("th", { className: winners.has(s.seat) ? "winner" : "" }, [seatName(s.seat)]))]);
  const rows = result.categories.map((cat) => el("tr", {}, [el("td", {}, [cat]), ...scores.map((s) => el("td", {}, [s.categories[cat]]))]));
  const total = el("tr", {}, [el("th", {}, ["total"]), ...scores.map((s) => el("th", { className: winners.has(s.seat) ? "winner" : "" }, [s.total]))]);
  const caption = el("caption", {}, [`Won by ${[...winners].map(seatName).join(" and ")}${result.victory ? ` (${result.victory} victory)` : ""}`]);
  return el("table", { className: "scores" }, [caption, head, ...rows, total]);
}
