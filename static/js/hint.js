// The table's Hint button (rooms with the `hints` setting on): asks GET /game/hint for the seat's
// move and shows up to three actions, best first, with their points against the best one and the
// search bot's sentence why. Everyone in the room sees that a hint was used (the server says so in
// the chat, and the log shows it): nothing here is secret.
import { api } from "./api.js";
import { announce, h } from "./ui.js";

export class HintBox {
  constructor(root, { code }) {
    this.root = root;
    this.code = code;
    this.shown = null; // {game_id, version, actions}
    this.asking = false;
    this.error = "";
  }

  // room: the room; state: the seat's state; seat: {seat, token} or null; mine: the seat owes a move
  render({ room, state, seat, mine }) {
    const on = Boolean(room && room.settings && room.settings.hints && seat && state && state.status === "running");
    this.root.hidden = !on;
    if (!on) return;
    const current = this.shown && this.shown.game_id === state.game_id && this.shown.version === state.version;
    const button = h("button", {
      type: "button", class: "secondary hint-button", id: "hint-button", disabled: !mine || this.asking,
      title: "The search bot suggests moves (everyone sees that you asked)",
    }, [this.asking ? "Thinking…" : "Hint"]);
    button.addEventListener("click", () => this.ask(seat, state));
    const parts = [h("div", { class: "hint-bar" }, [button, h("span", { class: "muted" }, [mine ? " Everyone in the room sees that you asked." : " A hint comes with your move."])])];
    if (this.error) parts.push(h("p", { class: "error" }, [this.error]));
    if (current && this.shown.actions.length) {
      parts.push(h("ol", { class: "hint-list", "aria-label": "Suggested moves, best first" }, this.shown.actions.map((a, i) => h("li", {}, [
        h("strong", {}, [i === 0 ? "Best" : `${a.points} points`]), " ", h("span", {}, [a.why]),
      ]))));
    }
    this.root.replaceChildren(...parts);
  }

  async ask(seat, state) {
    this.asking = true;
    this.error = "";
    this.render(this.last || {});
    try {
      this.shown = await api("GET", `/api/rooms/${this.code}/game/hint`, undefined, seat.token);
      announce(`Hint: ${this.shown.actions.map((a) => a.why).join(" ")}`);
    } catch (e) {
      this.error = e.message;
    }
    this.asking = false;
    this.render(this.last || {});
  }

  update(args) {
    this.last = args;
    this.render(args);
  }
}
