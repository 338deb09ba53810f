// 7 Wonders Duel's table (being written): a placeholder that lists the legal actions as buttons.
import { h } from "./ui.js";

export function renderDuel(ctx) {
  const buttons = (ctx.legal || []).map((a) => h("button", { type: "button", class: "act", onclick: () => ctx.send(a) }, [JSON.stringify(a)]));
  return { board: h("div", {}, buttons), decision: null };
}
