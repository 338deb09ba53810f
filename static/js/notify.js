// "Tell me when it is my move": where a seat's player is told (e-mail, Discord, ntfy, a webhook...;
// the server sends them), this browser's notifications while the table is open in the background, and
// Web Push to this device when the server has VAPID keys. The host also sets the room's group channel.
// Channel URLs are secrets: the server shows them back masked, and so does this page.
import { api } from "./api.js";
import { $, announce, h } from "./ui.js";

const EXAMPLES = "e.g. ann@example.org, mailto://user:password@gmail.com, discord://webhook_id/webhook_token, ntfys://ntfy.sh/my-topic";

function localKey(code) {
  return `wonders.notify.${code.toUpperCase()}`;
}

function lines(text) {
  return text.split(/[\n,]+/).map((s) => s.trim()).filter(Boolean);
}

export class NotifyPanel {
  // page: {code, seat() -> {seat, token} | null, isHost() -> bool}
  constructor(page) {
    this.page = page;
    this.loadedFor = null;
    this.pushKey = undefined;
    this.root = $("notify-panel");
  }

  async render() {
    const seat = this.page.seat();
    this.root.hidden = !seat;
    if (!seat) return;
    const key = `${seat.seat}:${this.page.isHost()}`;
    if (this.loadedFor === key) return;
    this.loadedFor = key;
    if (this.pushKey === undefined) {
      try {
        this.pushKey = (await api("GET", "/api/notify/push-key")).public_key;
      } catch {
        this.pushKey = null;
      }
    }
    const forms = [this.channelForm(`/api/rooms/${this.page.code}/seats/${seat.seat}/notify`, "notify-seat", "Send my turns to", true)];
    if (this.page.isHost()) {
      forms.push(this.channelForm(`/api/rooms/${this.page.code}/notify`, "notify-room", "The room's group channel (who is to move, the result)", false));
    }
    this.root.replaceChildren(
      h("details", { class: "notify", id: "notify-details" }, [
        h("summary", {}, [h("h3", { text: "Tell me when it is my move" })]),
        this.browserChoice(),
        ...forms,
      ]),
    );
  }

  // This browser's own notifications while the page is open but not looked at.
  browserChoice() {
    const supported = typeof Notification !== "undefined";
    const box = h("input", {
      type: "checkbox",
      id: "notify-browser",
      checked: supported && Notification.permission === "granted" && localStorage.getItem(localKey(this.page.code)) === "on",
      disabled: !supported,
      onchange: async (event) => {
        if (!event.target.checked) {
          localStorage.removeItem(localKey(this.page.code));
          return;
        }
        const answer = await Notification.requestPermission(); // asked only now that the player chose it
        if (answer === "granted") localStorage.setItem(localKey(this.page.code), "on");
        else {
          event.target.checked = false;
          announce("This browser does not allow notifications from this page.");
        }
      },
    });
    const parts = [h("p", {}, [h("label", { class: "check" }, [box, "In this browser, while this page is open in another tab"])])];
    if (this.pushKey) {
      parts.push(h("p", {}, [h("button", { type: "button", class: "secondary", id: "notify-push", onclick: () => this.subscribePush() }, ["Also when this page is closed (push to this device)"])]));
    }
    return h("div", {}, parts);
  }

  // The form of one set of channels (a seat's, or the room's group channel).
  channelForm(path, id, title, forSeat) {
    const status = h("p", { class: "hint", id: `${id}-status`, role: "status" });
    const error = h("p", { class: "error", id: `${id}-error`, role: "alert" });
    const urls = h("textarea", { id: `${id}-urls`, name: "urls", rows: "2", placeholder: EXAMPLES, spellcheck: "false", autocomplete: "off" });
    const when = h("select", { id: `${id}-when`, name: "when" }, [
      h("option", { value: "away", text: "only while I am not at the table" }),
      h("option", { value: "always", text: "every time" }),
    ]);
    const token = () => this.page.seat().token;
    const show = (answer) => {
      status.textContent = answer.urls.length || answer.push
        ? `Now sent to: ${[...answer.urls, ...(answer.push ? ["this device (push)"] : [])].join(", ")}`
        : "Nothing set.";
      when.value = answer.when;
      urls.value = "";
    };
    const form = h("form", {
      id,
      class: "notify-form",
      onsubmit: async (event) => {
        event.preventDefault();
        error.textContent = "";
        try {
          const body = { urls: lines(urls.value), when: when.value };
          show(await api("PUT", path, body, token()));
          announce("Saved: you will be told there.");
        } catch (e) {
          error.textContent = e.message.replace(/^urls\[(\d+)\]/, (_, n) => `Line ${Number(n) + 1}`);
        }
      },
    }, [
      h("label", { for: `${id}-urls` }, [title, h("span", { class: "hint" }, [" (one per line: an e-mail address or a notification URL; saving replaces what is set)"])]),
      urls,
      forSeat ? h("label", {}, ["Tell me ", when]) : null,
      h("div", { class: "row" }, [
        h("button", { type: "submit" }, ["Save"]),
        h("button", {
          type: "button",
          class: "secondary",
          onclick: async () => {
            error.textContent = "";
            try {
              show(await api("DELETE", path, undefined, token()));
            } catch (e) {
              error.textContent = e.message;
            }
          },
        }, ["Remove"]),
      ]),
      status,
      error,
    ]);
    api("GET", path, undefined, token()).then(show).catch(() => {});
    return form;
  }

  async subscribePush() {
    const error = $("notify-seat-error");
    try {
      const registration = await navigator.serviceWorker.register("/sw.js");
      const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: this.pushKey });
      const seat = this.page.seat();
      const path = `/api/rooms/${this.page.code}/seats/${seat.seat}/notify`;
      await api("PUT", path, { push: subscription.toJSON(), when: $("notify-seat-when").value }, seat.token); // the URLs set stay
      this.loadedFor = null;
      await this.render();
    } catch (e) {
      error.textContent = `Push could not be set up here: ${e.message}`;
    }
  }

  // The page says it became this seat's move: while the page is not looked at, a browser notification.
  yourMove(text) {
    if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
    if (localStorage.getItem(localKey(this.page.code)) !== "on" || !document.hidden) return;
    const note = new Notification(`Your move in room ${this.page.code}`, { body: text, tag: `wonders-${this.page.code}` });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  }
}
