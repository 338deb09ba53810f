// The coach of a learning game (a room whose settings say `lesson`: POST /api/rooms with learn: true).
// It watches the state the page already receives (the seat's view and legal actions: the public face
// of the game and the seat's own hand, nothing more) and, the first time each idea of the game
// matters, shows a short explanation that points at the part of the table it speaks of (outlined, and
// "Show me" scrolls to it and moves the keyboard focus there). The first few moves come with a
// suggested legal action and why ("Play it" sends it); after that the player plays freely, the
// explanations still come as ideas arise, and every one shown stays readable in "What you have
// learnt". Which ideas were shown and how many moves were suggested is kept in localStorage per room,
// so leaving and coming back resumes where the lesson was.
import { cardInfo, wonderInfo } from "./catalog.js";
import { announce, h } from "./ui.js";

const SUGGESTED_MOVES = 3;
const AGE = ["", "I", "II", "III"];

const total = (cost) => (typeof cost === "number" ? cost : cost ? (cost.bank || 0) + (cost.left || 0) + (cost.right || 0) : 0);
const words = (resources) => Object.entries(resources || {}).map(([r, n]) => `${n} ${r}`).join(" and ");
const counted = (science) => Object.entries(science || {}).filter(([k]) => k !== "any");
const symbols = (p) => counted(p.science).reduce((n, [, v]) => n + v, 0);
// the first city (yours first) with two science symbols: when science sets start to matter
const scientist = (c) => {
  const players = c.view.players || [];
  return [players[c.me], ...players].find((p) => p && symbols(p) >= 2) || null;
};

// ----- the ideas of 7 Wonders: each when it first matters, and where it is on the table ----------

const CLASSIC = [
  {
    id: "uses",
    title: "A card has three uses",
    when: (c) => c.mine && c.view.phase === "pick" && (c.view.hand || []).length > 0,
    target: "#hand-region",
    text: () => "Each turn you choose one card of your hand and do one of three things with it: build it in your city " +
      "(paying its cost, if it has one), use it to build the next stage of your wonder (the card is tucked face " +
      "down), or discard it for 3 coins. Everyone chooses at the same time; the choices are revealed together.",
  },
  {
    id: "neighbour",
    title: "Producing, and buying from a neighbour",
    when: (c) => c.legal.some((a) => a.type === "build" && a.cost && (a.cost.left || a.cost.right)),
    target: (c) => {
      const a = c.legal.find((x) => x.type === "build" && x.cost && (x.cost.left || x.cost.right));
      return `.player.neighbour.${a.cost.left ? "left" : "right"}, .neighbours`; // the neighbour who sells
    },
    text: (c) => {
      const a = c.legal.find((x) => x.type === "build" && x.cost && (x.cost.left || x.cost.right));
      const side = a.cost.left ? "left" : "right";
      const who = c.name(c.sideSeat(c.me, side));
      return `Your brown and grey cards and your wonder produce resources, which pay for cards. What your city ` +
        `lacks you may buy from a neighbour who produces it: ${a.card} needs ${words(a.trade[side])} from ` +
        `${who}, your ${side} neighbour, for ${a.cost[side]} coins (2 a resource, 1 with a trading post). ` +
        "The coins go to that neighbour, and buying does not take the resource away from them.";
    },
  },
  {
    id: "chain",
    title: "Chains: building for free",
    when: (c) => c.legal.some((a) => a.free === "chain"),
    target: "#hand-region",
    text: (c) => {
      const a = c.legal.find((x) => x.free === "chain");
      return `${a.card} is free for you: a card you built in an earlier Age chains to it. The detail panel of a ` +
        "card (tap its name) lists what it chains to; planning chains saves coins and resources.";
    },
  },
  {
    id: "wonder",
    title: "Your wonder's stages",
    when: (c) => c.legal.some((a) => a.type === "wonder"),
    target: ".your-city .wonder-board, .wonder-board",
    text: (c) => {
      const a = c.legal.find((x) => x.type === "wonder");
      return `You can build stage ${a.stage} of your wonder now: choose any card and its "Wonder" use. The card is ` +
        "tucked under the board (it is not built) and you pay the stage's cost instead. Stages are built in order " +
        "and give points, coins, shields or abilities.";
    },
  },
  {
    id: "passing",
    title: "Hands are passed",
    when: (c) => c.view.age >= 1 && c.view.turn >= 2 && c.view.phase === "pick",
    target: "#turn-info",
    text: (c) => `After each turn everyone passes the rest of their hand to a neighbour: in Ages I and III to the ` +
      `left, in Age II to the right (now: to the ${c.view.direction || "left"}). So a card you pass on may help ` +
      "your neighbour: sometimes it is worth taking a card just to keep it from them. The last card of an Age is discarded.",
  },
  {
    id: "military",
    title: "Military at the end of an Age",
    when: (c) => c.view.age >= 2 || (c.view.players || []).some((p) => (p.military_tokens || []).length),
    target: "#turn-summary .age-results, #turn-summary, .your-city",
    text: () => "At the end of each Age you compare your shields (red cards) with each neighbour's: more shields " +
      "win 1, 3 or 5 points (Ages I, II, III), fewer lose 1 point; a tie gives nothing. The tokens won show on " +
      "each city.",
  },
  {
    id: "science",
    title: "Science sets",
    when: (c) => Boolean(scientist(c)),
    target: (c) => `.player[data-seat="${scientist(c).seat}"], .your-city`, // the first city with a pair or two symbols
    text: (c) => `${scientist(c).seat === c.me ? "You have" : `${c.name(scientist(c).seat)} has`} ` +
      `${symbols(scientist(c))} science symbols. Green cards carry ` +
      "one of three science symbols (compass, gear, tablet). At the end each kind scores " +
      "its count squared (2 gears: 4 points, 3: 9), and each set of three different symbols 7 points more. Science " +
      "grows fast: a few of one kind, or complete sets.",
  },
  {
    id: "age2",
    title: "A new Age",
    when: (c) => c.view.age >= 2 && c.view.phase === "pick",
    target: "#turn-info",
    text: (c) => `Age ${AGE[c.view.age]}: a new hand of 7 cards, stronger and dearer. Hands now pass to the ` +
      `${c.view.direction || "right"}. Cards you built before may chain to these for free.`,
  },
  {
    id: "free",
    title: "Now you play freely",
    when: (c) => c.mine && c.suggestedAll,
    target: "#hint-box",
    text: () => "The suggestions are over: choose your own moves. The Hint button still asks the search bot for its " +
      "best moves (everyone sees that you asked), and tapping any card, stage or token explains it.",
  },
  {
    id: "score",
    title: "The score sheet",
    when: (c) => Boolean(c.state.result),
    target: "#result",
    text: () => "The game is over. Points come from military tokens, coins (1 point for 3), wonder stages, blue " +
      "cards, yellow cards, guilds (purple) and science. The most points wins; with a tie, the most coins. The " +
      "room's past games keep a replay, and the search bot's review says where points were lost.",
  },
];

// ----- the ideas of 7 Wonders Duel ---------------------------------------------------------------

const DUEL = [
  {
    id: "draft",
    title: "Choosing wonders",
    when: (c) => c.view.phase === "draft",
    target: ".duel-draft",
    text: () => "Before the first Age, the two players draft their wonders: four are shown, you take one, your " +
      "opponent two, you the last; then four more, the other way round. Each of you ends with four wonders, but " +
      "only seven can be built in all.",
  },
  {
    id: "structure",
    title: "The structure",
    when: (c) => c.view.phase !== "draft" && (c.view.structure || []).length > 0,
    target: ".duel-structure-area",
    text: () => "Each Age lays its cards out in a structure, some face down. You may take only a card no other card " +
      "covers; a card uncovered is turned face up. A card taken has three uses: build it (pay its cost), discard " +
      "it for 2 coins and 1 more per yellow card you have, or build one of your wonders with it.",
  },
  {
    id: "trade",
    title: "Buying from the bank",
    when: (c) => c.legal.some((a) => a.type === "build" && a.cost > 0),
    target: ".duel-prices",
    text: () => "What your city does not produce you buy from the bank: 2 coins a resource, plus 1 for each of that " +
      "resource your opponent produces with brown and grey cards. Yellow cards can fix a price at 1. Your prices " +
      "are shown under your city.",
  },
  {
    id: "pawn",
    title: "The conflict pawn and supremacy",
    when: (c) => (c.view.conflict_pawn || 0) !== 0,
    target: ".duel-military",
    text: () => "Each shield moves the conflict pawn one space toward your opponent's capital. Reaching a zone takes " +
      "its coin token from them; at the end the pawn's zone gives points. Reaching their capital wins the game at " +
      "once: military supremacy. Six different science symbols win at once too: scientific supremacy.",
  },
  {
    id: "tokens",
    title: "Progress tokens",
    when: (c) => (c.view.decision && c.view.decision.kind === "choose_progress") ||
      (c.view.players || []).some((p) => counted(p.science).some(([, v]) => v >= 2)),
    target: ".duel-tokens",
    text: () => "A pair of identical science symbols gives its player one of the progress tokens on the board: a " +
      "lasting advantage (cheaper buildings, more coins, points, another turn...). Watch your opponent's pairs too.",
  },
  {
    id: "wonder",
    title: "Building a wonder",
    when: (c) => c.legal.some((a) => a.type === "wonder"),
    target: ".duel-wonders",
    text: () => "You can build one of your wonders now: take a card and use it to build the wonder (the card is " +
      "tucked under it). Some wonders give another turn at once. When seven are built, the last one is left out.",
  },
  {
    id: "age2",
    title: "A new Age",
    when: (c) => c.view.age >= 2 && c.view.phase !== "draft",
    target: ".duel-structure-area",
    text: () => "A new Age, a new structure. The player weaker in military (or who played last) chooses who starts " +
      "it. Cards are dearer; many chain for free from the symbols of cards built before.",
  },
  {
    id: "free",
    title: "Now you play freely",
    when: (c) => c.mine && c.suggestedAll,
    target: "#hint-box",
    text: () => "The suggestions are over: choose your own moves. The Hint button still asks the search bot, and " +
      "tapping any card, wonder or token explains it.",
  },
  {
    id: "score",
    title: "The score sheet",
    when: (c) => Boolean(c.state.result),
    target: "#result",
    text: () => "The game is over. Without a supremacy, points decide: blue and green cards, wonders, progress " +
      "tokens, coins (1 point for 3), the conflict pawn's zone and guilds. The room's past games keep a replay " +
      "and the search bot's review.",
  },
];

// ----- suggested moves: a simple rule over the legal actions, with the reason ------------------

const COLOUR_WHY = {
  brown: "it produces a raw resource, which later cards cost and neighbours may buy from you",
  grey: "it produces a manufactured good, which few cities make",
  blue: "it is worth points at the end",
  green: "it carries a science symbol: symbols score more together",
  red: "its shields count in the military conflicts",
  yellow: "it brings coins or cheaper trade",
  purple: "a guild scores from what your neighbours built",
};

const DUEL_WHY = {
  brown: "it produces a raw resource, which later cards cost, and makes it dearer for your opponent to buy",
  grey: "it produces a manufactured good, which later cards cost, and makes it dearer for your opponent to buy",
  red: "its shields move the conflict pawn toward your opponent's capital",
  green: "it carries a science symbol: a pair of them wins a progress token",
};

export function suggest(game, legal) {
  if (game === "duel") {
    const draft = legal.find((a) => a.type === "draft_wonder");
    if (draft) {
      const w = wonderInfo("duel", draft.wonder);
      return { action: draft, text: `Take ${draft.wonder}${w && w.text ? `: ${w.text}` : ""}` };
    }
  }
  const builds = legal.filter((a) => a.type === "build");
  const rank = (a) => {
    const info = cardInfo(game, a.card) || {};
    const raw = info.color === "brown" || info.color === "grey" ? 2 : 0;
    return (a.free ? 4 : 0) + (total(a.cost) === 0 ? 3 : 0) + raw - total(a.cost) / 10;
  };
  const best = builds.sort((a, b) => rank(b) - rank(a))[0];
  if (best) {
    const info = cardInfo(game, best.card) || {};
    const why = (game === "duel" && DUEL_WHY[info.color]) || COLOUR_WHY[info.color] || "it is affordable now";
    const price = best.free ? "for free (a chain)" : total(best.cost) === 0 ? "without paying" : `for ${total(best.cost)} coins`;
    return { action: best, text: `Build ${best.card} ${price}: ${why}.` };
  }
  const other = legal.find((a) => a.type === "wonder") || legal.find((a) => a.type === "discard") || legal[0];
  if (!other) return null;
  const text = other.type === "wonder" ? `Build a stage of your wonder with ${other.card}.`
    : other.type === "discard" ? `Discard ${other.card} for coins: nothing here is affordable.`
      : "Take this choice.";
  return { action: other, text };
}

// ----- the panel -----------------------------------------------------------------------------------

export class Coach {
  constructor(root, { code, send }) {
    this.root = root;
    this.key = `wonders.lesson.${code}`;
    this.send = send;
    this.memory = this.load(); // {seen: [id], suggested: [turn key]}
    this.current = null; // the idea shown
    this.marked = null; // the element outlined
    this.lastArgs = null;
  }

  load() {
    try {
      const kept = JSON.parse(localStorage.getItem(this.key) || "{}");
      return { seen: kept.seen || [], suggested: kept.suggested || [], notes: kept.notes || {} };
    } catch {
      return { seen: [], suggested: [], notes: {} };
    }
  }

  save() {
    try {
      localStorage.setItem(this.key, JSON.stringify(this.memory));
    } catch { /* private browsing: the lesson starts over on a reload */ }
  }

  // room, state (the seat's), mine (the seat owes a move), ctx (the table's context: names, sides)
  update(args) {
    this.lastArgs = args;
    const { room, state, mine, ctx } = args;
    const on = Boolean(room && room.settings && room.settings.lesson && state && ctx && ctx.me !== null);
    this.root.hidden = !on;
    if (!on) {
      this.unmark();
      return;
    }
    const game = state.view.game;
    const ideas = game === "duel" ? DUEL : CLASSIC;
    const turnKey = `${state.game_id}:${state.view.age}:${game === "duel" ? state.version : state.view.turn}`;
    const asked = this.memory.suggested;
    // Duel's wonder draft has its own explanation: the suggested moves are the first cards taken
    const suggesting = mine && state.status === "running" && state.view.phase !== "draft" &&
      (asked.includes(turnKey) || asked.length < SUGGESTED_MOVES);
    const c = {
      ...ctx, state, view: state.view, mine, legal: state.status === "running" ? state.legal_actions || [] : [],
      suggestedAll: this.memory.suggested.length >= SUGGESTED_MOVES && !this.memory.suggested.includes(turnKey),
    };
    if (!this.current || this.memory.seen.includes(this.current.id)) {
      this.current = null;
      for (const idea of ideas) {
        if (this.memory.seen.includes(idea.id)) continue;
        let matters = false;
        try { matters = idea.when(c); } catch { matters = false; }
        if (matters) {
          const target = typeof idea.target === "function" ? idea.target(c) : idea.target;
          this.current = { id: idea.id, title: idea.title, text: idea.text(c), target };
          announce(`Lesson: ${idea.title}. ${this.current.text}`);
          break;
        }
      }
    }
    const suggestion = suggesting ? suggest(game, c.legal) : null;
    if (suggestion && !asked.includes(turnKey)) {
      asked.push(turnKey); // a move suggested counts, played or not
      this.save();
    }
    this.draw(ideas, suggestion, turnKey);
  }

  draw(ideas, suggestion, turnKey) {
    const parts = [];
    const idea = this.current;
    if (idea) {
      const show = h("button", { type: "button", class: "secondary", "data-key": "coach-show" }, ["Show me"]);
      show.addEventListener("click", () => this.showTarget(true));
      const done = h("button", { type: "button", "data-key": "coach-done" }, ["Got it"]);
      done.addEventListener("click", () => this.dismiss());
      parts.push(h("section", { class: "coach-idea", "aria-labelledby": "coach-title" }, [
        h("h2", { id: "coach-title", class: "coach-title" }, [idea.title]),
        h("p", {}, [idea.text]),
        h("div", { class: "coach-buttons" }, [show, done]),
      ]));
    }
    if (suggestion) {
      const n = this.memory.suggested.indexOf(turnKey) + 1;
      const play = h("button", { type: "button", class: "act coach-play", "data-key": "coach-play" }, ["Play it"]);
      play.addEventListener("click", () => this.send(suggestion.action));
      parts.push(h("section", { class: "coach-suggestion", "aria-label": "Suggested move" }, [
        h("h2", { class: "coach-title" }, [`Suggested move (${n} of ${SUGGESTED_MOVES})`]),
        h("p", {}, [suggestion.text, " Or choose another move yourself."]),
        h("div", { class: "coach-buttons" }, [play]),
      ]));
    }
    const seen = ideas.filter((i) => this.memory.seen.includes(i.id));
    if (seen.length) {
      const open = this.root.querySelector("details.coach-learnt");
      parts.push(h("details", { class: "coach-learnt", open: Boolean(open && open.open) }, [
        h("summary", {}, [`What you have learnt (${seen.length})`]),
        h("ul", {}, seen.map((i) => h("li", {}, [h("strong", {}, [i.title]), " ", this.memory.notes[i.id] || ""]))),
      ]));
    }
    const head = h("p", { class: "coach-head" }, ["Learning game"]);
    this.root.replaceChildren(head, ...parts);
    this.showTarget(false);
    for (const node of document.querySelectorAll(".coach-suggested")) node.classList.remove("coach-suggested");
    const card = suggestion && suggestion.action.card;
    if (card) {
      const tile = [...document.querySelectorAll("#hand [data-card], #board .duel-pyramid [data-card]")]
        .find((node) => node.dataset.card === card);
      if (tile) tile.classList.add("coach-suggested");
    }
  }

  target() {
    if (!this.current) return null;
    for (const sel of this.current.target.split(",")) {
      const node = document.querySelector(sel.trim());
      if (node && node.offsetParent !== null) return node;
    }
    return null;
  }

  showTarget(go) {
    this.unmark();
    const node = this.target();
    if (!node) return;
    node.classList.add("coach-target");
    this.marked = node;
    if (go) {
      if (!node.hasAttribute("tabindex")) node.setAttribute("tabindex", "-1");
      node.scrollIntoView({ block: "center", behavior: "smooth" });
      node.focus({ preventScroll: true });
    }
  }

  unmark() {
    if (this.marked) this.marked.classList.remove("coach-target");
    this.marked = null;
  }

  dismiss() {
    if (this.current && !this.memory.seen.includes(this.current.id)) {
      this.memory.seen.push(this.current.id);
      this.memory.notes[this.current.id] = this.current.text; // to read again in "What you have learnt"
    }
    this.save();
    this.current = null;
    if (this.lastArgs) this.update(this.lastArgs);
    const next = this.root.querySelector("button");
    if (next) next.focus({ preventScroll: true });
  }
}
