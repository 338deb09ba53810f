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

// `trackOf(action)`: the ship track a naval step of this action advances (Armada), if known.
export function actionLabel(action, trackOf = () => null) {
  const track = action.naval ? trackOf(action) : null;
  const naval = action.naval ? ` + naval step${track ? ` (${track})` : ""}` : "";
  const moves = action.moves && action.moves.length ? `, move ships: ${action.moves.join(", ")}` : "";
  const cost = costLabel(action);
  const paid = cost ? ` — ${cost}` : "";
  switch (action.type) {
    case "build":
      return `Build${naval}${moves}${paid}`;
    case "wonder":
      return `${action.wonder ? `Build ${action.wonder}` : `Wonder stage ${action.stage ?? ""}`}${naval}${moves}${paid}`;
    case "discard":
      return action.reward === "yellow" ? "Discard: move yellow ship" : "Discard for 3 coins";
    case "build_from_discard":
      return `Build ${action.card} from the discard${moves}`;
    case "keep_island":
      return `Keep ${action.island}${moves}`;
    case "pass":
      return "Pass";
    default: {
      const detail = Object.entries(action).filter(([k]) => k !== "type").map(([, v]) => (typeof v === "object" ? JSON.stringify(v) : v));
      return `${action.type.replaceAll("_", " ")}${detail.length ? ": " + detail.join(", ") : ""}`;
    }
  }
}

function signed(n) {
  return n > 0 ? `+${n}` : `${n}`;
}

function moved(m) {
  const parts = [];
  if (m.naval) parts.push("a naval step");
  if (m.moves && m.moves.length) parts.push(`ships moved: ${m.moves.join(", ")}`);
  return parts.length ? ` (${parts.join("; ")})` : "";
}

export function describeEvent(event, seatName) {
  if (!event) return [];
  switch (event.type) {
    case "reveal":
      return event.moves.map((m) => {
        const who = seatName(m.seat);
        if (m.type === "build") return `${who} built ${m.card}${moved(m)}.`;
        if (m.type === "wonder") return `${who} built a wonder stage${moved(m)}.`;
        if (m.reward === "yellow") return `${who} discarded a card and moved the yellow ship.`;
        return `${who} discarded a card.`;
      });
    case "military": {
      if (!event.battles) return [`${seatName(event.seat)} adds ${event.shields} shield${event.shields === 1 ? "" : "s"}: the conflict pawn is at ${event.pawn}.`];
      const landings = (event.battles || []).filter((b) => b.landing).length;
      return [`Military conflicts of Age ${event.age}${landings ? ` (with ${landings} landing${landings > 1 ? "s" : ""})` : ""}.`];
    }
    case "naval_conflict": {
      const tokens = event.tokens.map((t, s) => (t === null ? null : `${seatName(s)} ${signed(t)}`)).filter(Boolean);
      return [`Naval conflict of Age ${event.age}: strengths ${event.strengths.join(", ")}${tokens.length ? `; ${tokens.join(", ")}` : "; no tokens"}.`];
    }
    case "exploration":
      return [`${seatName(event.seat)} explores: draws ${event.drawn} level ${event.level} island${event.drawn === 1 ? "" : "s"}.`];
    case "island_kept":
      return [`${seatName(event.seat)} keeps ${event.island}${event.moves ? ` (ships moved: ${event.moves.join(", ")})` : ""}.`];
    case "coin_losses": {
      const lost = event.lost.map((n, s) => (n ? `${seatName(s)} loses ${n}` : null)).filter(Boolean);
      return [`Taxes and piracy: ${lost.join(", ")}.`];
    }
    case "decision": {
      const seats = (event.seats || (event.seat !== undefined ? [event.seat] : [])).map(seatName).join(", ");
      if (event.kind === "keep_island") return [`${seats} must keep an island.`];
      return [`Waiting for ${seats} (${String(event.kind).replaceAll("_", " ")}).`];
    }
    case "age_started":
      return [`Age ${event.age} begins.`];
    case "built_from_discard":
      return [`${seatName(event.seat)} built ${event.card} from the discard${event.moves ? ` (ships moved: ${event.moves.join(", ")})` : ""}.`];
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

const CATEGORY_TITLES = {
  naval: "naval conflict tokens (Armada)",
  islands: "points of the islands kept (Armada)",
  shipyard: "points of the shipyard spaces reached (Armada)",
};

export function scoreTable(result, seatName) {
  const scores = result.scores;
  const winners = new Set(result.winners);
  const head = el("tr", {}, [el("th", {}, [""]), ...scores.map((s) => el("th", { className: winners.has(s.seat) ? "winner" : "" }, [seatName(s.seat)]))]);
  const rows = result.categories.map((cat) => el("tr", { className: CATEGORY_TITLES[cat] ? "armada" : "" }, [
    el("td", { title: CATEGORY_TITLES[cat] || "" }, [cat]),
    ...scores.map((s) => el("td", {}, [s.categories[cat]])),
  ]));
  const total = el("tr", {}, [el("th", {}, ["total"]), ...scores.map((s) => el("th", { className: winners.has(s.seat) ? "winner" : "" }, [s.total]))]);
  const caption = el("caption", {}, [`Won by ${[...winners].map(seatName).join(" and ")}${result.victory ? ` (${result.victory} victory)` : ""}`]);
  return el("table", { className: "scores" }, [caption, head, ...rows, total]);
}
