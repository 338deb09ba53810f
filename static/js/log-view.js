// The log panel: one section per game of the room (newest first), its lines newest first. Lines come
// from the server's history (so the log survives a reload) and from live events; each step's lines
// are added once, whichever source brings them first.
import { h } from "./ui.js";

const KEPT = 600;

export class GameLog {
  constructor(root) {
    this.root = root;
    this.games = new Map(); // game id -> {section, list, steps: Map(version -> source), loaded}
  }

  has(gameId) {
    return this.games.has(gameId);
  }

  startGame(gameId, title) {
    if (this.games.has(gameId)) return;
    // not numbered: counting lines down, newest first, numbered the turn headings with the rest
    const list = h("ul", { class: "log-lines" });
    const section = h("section", { class: "log-game", "aria-label": title, dataset: { game: String(gameId) } }, [
      h("h3", { class: "log-title" }, [title]),
      list,
    ]);
    this.root.prepend(section);
    this.games.set(gameId, { section, list, steps: new Map(), loaded: 0 });
  }

  // Lines of one step (version) from `source` ("live" or "history"); a step already shown is skipped.
  add(gameId, version, lines, kind = "", source = "live") {
    const game = this.games.get(gameId);
    if (!game || !lines.length) return;
    const seen = game.steps.get(version);
    if (seen && seen !== source) return;
    game.steps.set(version, source);
    // newest first: a block of lines goes on top, in its own reading order
    // a block's heading ("Age I, turn 1:") stands out, its lines are indented under it
    const headed = lines.length > 1 && /:$/.test(lines[0]);
    const items = lines.map((text, i) => {
      const place = headed ? (i === 0 ? " head" : " under") : "";
      return h("li", { class: `log-line k-${kind}${place}`, dataset: { version: String(version) } }, [text]);
    });
    game.list.prepend(...items);
    while (game.list.children.length > KEPT) game.list.lastChild.remove();
  }

  loaded(gameId, version) {
    const game = this.games.get(gameId);
    if (game) game.loaded = Math.max(game.loaded, version);
  }

  loadedVersion(gameId) {
    const game = this.games.get(gameId);
    return game ? game.loaded : 0;
  }
}
