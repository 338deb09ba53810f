// A room's websocket (docs/PROTOCOL.md): one connection per page, opened with `hello` (the seat's
// token, or none to watch), reopened with a growing delay when it drops, its messages parsed and
// handed to the page; one action in flight at a time, and a `sync` asked for when one was stale.
//
// new RoomSocket(code, {token, connecting, message, closed}): token() is the seat's token or null;
// connecting() runs as each connection opens; message(m) gets every message of the current
// connection; closed(event) says whether to try again (never after 4404: no such room).

// Close codes the page tells apart.
export const BAD_TOKEN = 4401;
export const SEAT_LOST = 4403; // or spectators refused (an `error` `spectators_off` comes first)
export const NO_ROOM = 4404;

const CHAT_ERRORS = new Set(["bad_chat", "chat_too_fast", "spectator"]); // not an action's answer

export class RoomSocket {
  constructor(code, handlers) {
    this.code = code;
    this.handlers = handlers;
    this.ws = null;
    this.retry = 500;
    this.sending = false;
  }

  // Opens the connection, closing the old one first (taking a seat replaces the spectator's).
  connect() {
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      old.onclose = null;
      old.close();
    }
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/rooms/${this.code}`);
    this.ws = ws;
    this.handlers.connecting();
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: this.handlers.token() }));
    ws.onmessage = (event) => {
      if (this.ws === ws) this.receive(JSON.parse(event.data));
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      if (!this.handlers.closed(event)) return;
      if (event.code !== NO_ROOM) setTimeout(() => { if (this.ws === ws) this.connect(); }, this.retry = Math.min(this.retry * 2, 8000));
    };
  }

  receive(m) {
    if (m.type === "welcome") this.retry = 500;
    if (m.type === "state" || m.type === "accepted" || (m.type === "error" && !CHAT_ERRORS.has(m.code))) this.sending = false;
    this.handlers.message(m);
    if (m.type === "error" && m.code === "stale") this.ws.send(JSON.stringify({ type: "sync" }));
  }

  // Sends an action made against `version`, unless one is still waiting for its answer or the
  // connection is not open: whether it was sent.
  sendAction(action, version) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || this.sending) return false;
    this.sending = true;
    const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    this.ws.send(JSON.stringify({ type: "action", action, version, action_id: id }));
    return true;
  }

  // Says something in the room's chat: whether it was sent.
  sendChat(text) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify({ type: "chat", text }));
    return true;
  }
}
