// The engine's public events in words, with names (never seat numbers or internal ids), for the
// log of all three games. `ctx.name(seat)` gives a player's name.
import { freeWords } from "./cards.js";
import { cardInfo, islandInfo } from "./catalog.js";
import { ageName, listWords, plural, signed, words } from "./ui.js";

// Military victory tokens of the classic game by Age (the loser always takes -1).
const VICTORY_TOKEN = { 1: 1, 2: 3, 3: 5 };

// The seat a payment to `side` goes to, as the engine seats a game of n: a seat's left neighbour is
// the next seat, its right neighbour the one before, Armada's far sides two seats away. For the
// log and the replay read from a game's history, which has seat numbers but no players' views.
const SIDE_STEPS = { left: 1, right: -1, far_left: 2, far_right: -2 };

export function seatAtSide(n, from, side) {
  return (((from + (SIDE_STEPS[side] || 0)) % n) + n) % n;
}

function paid(cost, ctx, seat) {
  if (!cost || typeof cost !== "object") return "";
  const parts = [];
  if (cost.bank) parts.push(`${plural(cost.bank, "coin")} to the bank`);
  for (const side of ["left", "right", "far_left", "far_right"]) {
    if (cost[side]) parts.push(`${plural(cost[side], "coin")} to ${ctx.name(ctx.sideSeat(seat, side))}`);
  }
  return parts.length ? `, paying ${listWords(parts)}` : "";
}

function naval(m) {
  const out = [];
  if (m.naval) out.push("with a naval step");
  if (m.moves && m.moves.length) out.push(`moving the ${listWords(m.moves)} ship${m.moves.length > 1 ? "s" : ""}`);
  return out.length ? ` ${listWords(out)}` : "";
}

// One classic move (of a reveal, or Babylon's last card) in words.
export function moveWords(m, ctx) {
  const who = ctx.name(m.seat);
  if (m.type === "build") {
    const free = m.free ? ` for free (${freeWords(m.free)})` : "";
    return `${who} built ${m.card}${free}${paid(m.cost, ctx, m.seat)}${naval(m)}.`;
  }
  if (m.type === "wonder") return `${who} built stage ${m.stage ?? ""} of their wonder${paid(m.cost, ctx, m.seat)}${naval(m)}.`.replace("stage  of", "a stage of");
  if (m.type === "discard") {
    return m.reward === "yellow" ? `${who} discarded a card and moved the yellow ship.` : `${who} discarded a card for 3 coins.`;
  }
  return `${who}: ${words(m.type)}.`;
}

function battleWords(b, age, ctx) {
  const [a, c] = b.seats;
  const [sa, sc] = b.shields;
  const landing = b.landing ? "Landing: " : "";
  if (b.winner === null || b.winner === undefined) {
    return `${landing}${ctx.name(a)} and ${ctx.name(c)} tie with ${plural(sa, "shield")} each: no tokens.`;
  }
  const loser = b.winner === a ? c : a;
  const ws = b.winner === a ? sa : sc;
  const ls = b.winner === a ? sc : sa;
  return `${landing}${ctx.name(b.winner)} (${plural(ws, "shield")}) beat ${ctx.name(loser)} (${plural(ls, "shield")}): ` +
    `${ctx.name(b.winner)} takes a victory token (+${VICTORY_TOKEN[age] || "?"}), ${ctx.name(loser)} a defeat token (−1).`;
}

function navalWords(e, ctx) {
  const order = e.strengths.map((s, seat) => ({ seat, s })).sort((x, y) => y.s - x.s);
  const ranking = order.map(({ seat, s }) => {
    const token = e.tokens[seat];
    const got = token === null || token === undefined ? "no token" : `${signed(token)}`;
    return `${ctx.name(seat)} (strength ${s}, ${got})`;
  });
  return `Naval conflict of ${ageName(e.age)}, strongest first: ${ranking.join(", ")}.`;
}

function classicEvent(e, ctx) {
  switch (e.type) {
    case "chosen":
      return [];
    case "reveal":
      return [`${ageName(e.age)}, turn ${e.turn}:`, ...e.moves.map((m) => moveWords(m, ctx))];
    case "military":
      return [`Military conflicts of ${ageName(e.age)}:`, ...e.battles.map((b) => battleWords(b, e.age, ctx))];
    case "naval_conflict":
      return [navalWords(e, ctx)];
    case "age_started":
      return [`${ageName(e.age)} begins: hands pass to the ${e.age === 2 ? "right" : "left"}.`];
    case "decision": {
      const who = listWords((e.seats || [e.seat]).map(ctx.name));
      if (e.kind === "last_card") return [`${who} may play the last card of the Age (Babylon).`];
      if (e.kind === "build_from_discard") return [`${who} may build a card from the discard pile for free (Halikarnassos).`];
      if (e.kind === "keep_island") return [`${who} must keep one of the islands drawn.`];
      return [`${who} must decide: ${words(e.kind)}.`];
    }
    case "last_card_played":
      return [moveWords(e.move, ctx).replace(/\.$/, " (the last card of the Age)."), ];
    case "built_from_discard":
      return [`${ctx.name(e.seat)} built ${e.card} from the discard pile${naval({ moves: e.moves })}.`];
    case "discard_build_passed":
      return [`${ctx.name(e.seat)} built nothing from the discard pile.`];
    case "discard_build_skipped":
      return [`${ctx.name(e.seat)} had nothing to build from the discard pile.`];
    case "coin_losses": {
      const lost = e.lost.map((n, s) => (n ? `${ctx.name(s)} loses ${plural(n, "coin")}` : null)).filter(Boolean);
      return [lost.length ? `Taxes and piracy: ${listWords(lost)}.` : "Taxes and piracy: nobody loses coins."];
    }
    case "exploration":
      return [`${ctx.name(e.seat)} explores the level ${e.level} islands: draws ${plural(e.drawn, "island")} and keeps one.`];
    case "island_kept": {
      const info = islandInfo(e.island);
      return [`${ctx.name(e.seat)} keeps ${e.island}${info ? ` (${info.text.replace(/\.$/, "")})` : ""}${naval({ moves: e.moves })}.`];
    }
    case "game_over":
      return [overWords(e.result, ctx)];
    default:
      return [genericWords(e, ctx)];
  }
}

function duelCoins(e, ctx) {
  const who = ctx.name(e.seat);
  if (e.reason === "trade") return `${who} receives ${plural(e.amount, "coin")} that the opponent paid for trading (Economy).`;
  if (e.reason === "chain") return `${who} takes ${plural(e.amount, "coin")} for building by chain (Urbanism).`;
  return e.amount < 0 ? `${who} loses ${plural(-e.amount, "coin")}.` : `${who} takes ${plural(e.amount, "coin")}.`;
}

function duelEvent(e, ctx) {
  const who = e.seat === undefined ? "" : ctx.name(e.seat);
  switch (e.type) {
    case "wonder_drafted":
      return [`${who} takes ${e.wonder}.`];
    case "draft_round":
      return [`Second draft round: ${listWords(e.wonders)}.`];
    case "age_started":
      return [`${ageName(e.age)} begins; ${ctx.name(e.starter)} plays first.`];
    case "built":
      return [`${who} built ${e.card}${e.cost ? ` for ${plural(e.cost, "coin")}` : " for free"}.`];
    case "discarded":
      return [`${who} discarded ${e.card} for ${plural(e.coins, "coin")}.`];
    case "wonder_built":
      return [`${who} built ${e.wonder} (with ${e.card})${e.cost ? ` for ${plural(e.cost, "coin")}` : " for free"}.`];
    case "military": {
      const where = e.pawn === 0 ? "back in the centre"
        : `${plural(Math.abs(e.pawn), "space")} toward ${ctx.name(e.pawn > 0 ? 1 : 0)}'s capital`;
      return [`${who} adds ${plural(e.shields, "shield")}: the conflict pawn is ${where}.`];
    }
    case "loot":
      return [`${who} loses ${plural(e.lost, "coin")} to the ${e.token}-coin loot token.`];
    case "card_revealed":
      return [`${e.card} is turned face up.`];
    case "coins":
      return [duelCoins(e, ctx)];
    case "skipped":
      return [`${who}'s ${words(e.kind)} does nothing: ${e.reason}.`];
    case "wonder_returned":
      return [`${who}'s ${e.wonder} goes back to the box: seven wonders are built.`];
    case "destroyed":
      return [`${who} destroyed ${ctx.name(e.owner)}'s ${e.card}.`];
    case "built_from_discard":
      return [`${who} built ${e.card} from the discard pile for free.`];
    case "progress_token":
      return [`${who} takes the ${e.token} progress token.`];
    case "play_again":
      return [`${who} plays again.`];
    case "age_over":
      return [`${ageName(e.age)} is over.`];
    case "starter_chosen":
      return [`${who} chooses ${e.starter === e.seat ? "to start" : `${ctx.name(e.starter)} to start`} the next Age.`];
    case "decision": {
      const choices = {
        choose_progress: "chooses a progress token (a pair of science symbols)",
        choose_box_token: "chooses one of three progress tokens from the box (The Great Library)",
        destroy: "chooses a card of the opponent's to destroy",
        build_from_discard: "chooses a card of the discard pile to build for free (The Mausoleum)",
        choose_starter: "chooses who starts the next Age",
      };
      return [`${who} ${choices[e.kind] || `must decide: ${words(e.kind)}`}.`];
    }
    case "game_over":
      return [overWords(e.result, ctx)];
    default:
      return [genericWords(e, ctx)];
  }
}

function genericWords(e, ctx) {
  const who = e.seat !== undefined ? `${ctx.name(e.seat)}: ` : "";
  return `${who}${words(e.type)}${e.card ? ` ${e.card}` : ""}.`;
}

export function overWords(result, ctx) {
  if (!result) return "The game is over.";
  const winners = result.winners.map(ctx.name);
  const totals = result.scores.map((s) => s.total);
  const best = Math.max(...totals);
  if (result.victory && result.victory !== "civilian") {
    return `${listWords(winners)} wins by ${words(result.victory)} supremacy.`;
  }
  return `The game is over: ${listWords(winners)} ${winners.length > 1 ? "share the victory" : "wins"} with ${plural(best, "point")}.`;
}

// Lines for one event of the game kind: an array of strings (empty for events the log skips).
export function eventLines(game, event, ctx) {
  if (!event) return [];
  return game === "duel" ? duelEvent(event, ctx) : classicEvent(event, ctx);
}

// What each player did this turn, for the summary after a reveal: {seat: text}.
export function turnSummary(reveal, ctx) {
  return reveal.moves.map((m) => ({ seat: m.seat, text: moveWords(m, ctx), card: m.card || null, type: m.type }));
}

export function cardColor(game, name) {
  const info = cardInfo(game, name);
  return info ? info.color : null;
}

// A seat's clock ran out and the server decided for it (the step's own lines follow).
export function timeoutLines(seat, bot, ctx) {
  return [`${ctx.name(seat)}'s time ran out: ${bot ? `the ${bot} bot` : "a bot"} decided for them.`];
}
