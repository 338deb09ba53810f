// 7 Wonders Duel's table: the wonder draft, the card structure (click an accessible card, then one of
// its uses), the military track with the pawn, its zones and the loot tokens still on it, the
// progress tokens on the board, each player's city, wonders, science and prices, the discard pile,
// and the decisions (destroy, build from the discard, choose a token, choose who starts).
//
// renderDuel(ctx) -> { board, decision }: room.js puts `board` in #board and `decision` (or nothing)
// in #decision; replay.js shows `board` only (ctx.interactive false: read-only, no buttons).
//
// The table as everyone sees it is duel-table.js; what you can do and what it costs you (the uses
// of a card, the decisions, the keyboard focus) is duel-actions.js; both write names and tiles
// with duel-tiles.js.
import { decisionPanel, keepFocus, keepSelection } from "./duel-actions.js";
import { duelBoard } from "./duel-table.js";

export function renderDuel(ctx) {
  const view = ctx.view;
  const legal = ctx.interactive ? ctx.legal || [] : [];
  const me = ctx.me === undefined ? null : ctx.me;
  const acting = ctx.interactive && me !== null && (view.to_act || []).includes(me) && legal.length > 0;
  // "(you)" and "Your prices" only at the live table (a replay viewed as a seat is someone else's game)
  const you = ctx.interactive ? me : null;
  const c = { ...ctx, view, legal, me, acting, you };
  keepSelection(c);

  const board = duelBoard(c);
  const decision = acting ? decisionPanel(c) : null;
  if (ctx.interactive) keepFocus();
  return { board, decision };
}
