// The room's chat beside the log: every message once, in order, with who said it and when; a seat
// writes (Enter sends), a spectator reads; the host may delete a message. Messages come on the
// room's websocket (`chat`, one again with `deleted` when the host deleted it); sending goes on it too.
import { api } from "./api.js";
import { $, announce, h } from "./ui.js";

const CHAT_ERRORS = new Set(["bad_chat", "chat_too_fast", "spectator"]);

export class RoomChat {
  // page: {code, send(text) -> bool, seat() -> {seat, token} | null, isHost() -> bool}
  constructor(page) {
    this.page = page;
    this.messages = new Map(); // id -> message, in the order they came
    this.unread = 0;
    $("chat-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = $("chat-text").value.trim();
      if (!text) return;
      if (this.page.send(text)) {
        $("chat-text").value = "";
        $("chat-error").textContent = "";
      } else {
        $("chat-error").textContent = "Not connected: your message was not sent.";
      }
    });
    $("chat-details").addEventListener("toggle", () => {
      if ($("chat-details").open) this.markRead();
    });
  }

  // Whether this error is the chat's (shown under it, not as the page's error).
  static owns(error) {
    return CHAT_ERRORS.has(error.code);
  }

  error(message) {
    $("chat-error").textContent = message;
  }

  // A seat writes; a spectator only reads.
  render() {
    $("chat-form").hidden = !this.page.seat();
    for (const item of document.querySelectorAll("#chat-list li")) {
      const button = item.querySelector("button.delete");
      if (button) button.hidden = !this.page.isHost();
    }
  }

  receive(m) {
    const known = this.messages.get(m.id);
    this.messages.set(m.id, m);
    const item = this.item(m);
    const old = known && $(`chat-${m.id}`);
    if (old) old.replaceWith(item);
    else {
      $("chat-list").append(item);
      if (!$("chat-details").open) this.unread += 1;
      else if (!this.page.seat() || m.seat !== this.page.seat().seat) announce(`${m.name} says: ${m.text}`);
    }
    item.scrollIntoView({ block: "nearest" });
    this.showUnread();
  }

  item(m) {
    const at = new Date(m.at);
    const time = h("time", { datetime: m.at, class: "muted" }, [at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })]);
    if (m.kind === "hint") return h("li", { id: `chat-${m.id}`, class: "hint-used" }, ["Hint: ", h("strong", {}, [m.name]), " ", time, " ", h("em", {}, [m.text])]);
    const text = m.deleted ? h("em", { class: "muted" }, ["deleted by the host"]) : h("span", { class: "chat-text" }, [m.text]);
    const remove = h("button", { type: "button", class: "delete link", "aria-label": `Delete ${m.name}'s message` }, ["Delete"]);
    remove.hidden = m.deleted || !this.page.isHost();
    remove.addEventListener("click", async () => {
      try {
        await api("DELETE", `/api/rooms/${this.page.code}/chat/${m.id}`, undefined, this.page.seat().token);
      } catch (e) {
        this.error(e.message);
      }
    });
    return h("li", { id: `chat-${m.id}`, class: m.deleted ? "deleted" : "" }, [h("strong", {}, [m.name]), " ", time, " ", text, " ", remove]);
  }

  markRead() {
    this.unread = 0;
    this.showUnread();
  }

  showUnread() {
    $("chat-unread").textContent = this.unread ? ` (${this.unread} new)` : "";
  }
}
