"""What building a card or a Wonder costs a seat now, and what discarding brings.

Costs are remembered per seat until something changes production, prices or reductions
(the game then drops them: `DuelGame._economy_changed`); chains are checked afresh since any build may add one.
"""

from typing import TYPE_CHECKING

from app.engine.duel.definitions import CardDef, WonderDef
from app.engine.duel.player import DuelPlayer
from app.engine.duel.trading import prices, trade_cost

if TYPE_CHECKING:
    from app.engine.duel.game import DuelGame


class SeatCosts:
    """What cards and Wonders cost one seat, filled in as asked."""

    __slots__ = ("price", "cards", "wonders")

    def __init__(self, price: tuple[int, ...], cards: int, wonders: int) -> None:
        self.price = price
        # lists indexed by id, None until asked: indexing a list is cheaper than dict.get
        self.cards: list[int | None] = [None] * cards  # coins spent trading (printed coins not included)
        self.wonders: list[int | None] = [None] * wonders  # coins (all for trading)

    def card_trade(self, p: DuelPlayer, card: CardDef) -> int:
        """Coins p (whose costs these are) would spend trading for card's resources."""
        trade = self.cards[card.id]
        if trade is None:
            reduction = p.reductions.get(card.color, 0)
            trade = self.cards[card.id] = trade_cost(card.cost_items, p.fixed, p.choices, self.price, reduction)
        return trade

    def wonder_cost(self, p: DuelPlayer, wonder: WonderDef) -> int:
        """Coins p would spend trading for a Wonder's resources (its whole cost: Wonders print no coins)."""
        cost = self.wonders[wonder.id]
        if cost is None:
            waive = p.reductions.get("wonder", 0)
            cost = self.wonders[wonder.id] = trade_cost(wonder.cost_items, p.fixed, p.choices, self.price, waive)
        return cost


def seat_prices(game: "DuelGame", seat: int) -> tuple[int, ...]:
    """What each resource costs seat at the bank now."""
    return prices(game.players[seat].caps, game.players[1 - seat].trade_fixed, game.data.trade_base_price)


def seat_costs(game: "DuelGame", seat: int) -> SeatCosts:
    found = game.cost_cache[seat]
    if found is None:
        found = game.cost_cache[seat] = SeatCosts(seat_prices(game, seat), len(game.cards), len(game.data.wonders))
    return found


def card_cost(game: "DuelGame", seat: int, card: CardDef) -> tuple[int, int, str | None]:
    """(total coins, coins of it spent on trading, free reason) to build a card."""
    p = game.players[seat]
    if card.chain_from and not card.chain_from.isdisjoint(p.names):
        return 0, 0, "chain"
    trade = seat_costs(game, seat).card_trade(p, card) if card.cost_items else 0
    return card.coin_cost + trade, trade, None


def wonder_cost(game: "DuelGame", seat: int, wonder: int) -> int:
    """Coins seat would spend trading for a Wonder's resources (its own cost: Wonders print no coins)."""
    return seat_costs(game, seat).wonder_cost(game.players[seat], game.data.wonders[wonder])


def discard_gain(game: "DuelGame", seat: int) -> int:
    data = game.data
    return data.discard_base_coins + game.players[seat].colors.get(data.discard_coins_per_color, 0)
