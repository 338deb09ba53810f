"""Trading with the bank: prices against the opponent's production, fixed prices, choice
production, chains, Economy, Masonry and Architecture; and discard income."""

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.common.resources import INDEX, N_RESOURCES
from app.engine.duel.trading import trade_cost
from tests.duel.helpers import build, build_wonder, coins, drafted, give, give_token, legal_of, put_in_reach, set_coins

WONDERS = (
    ["The Pyramids", "The Sphinx", "Piraeus", "The Colossus"],
    ["Circus Maximus", "The Mausoleum", "The Great Library", "The Appian Way"],
)


def test_price_is_two_plus_the_opponents_brown_production():
    game = drafted(1, WONDERS)
    give(game, 1, "Shelf Quarry", "Quarry")  # the opponent produces 3 stone
    give(game, 0, "Stone Pit")
    set_coins(game, 0, 12)
    assert game.view(0)["players"][0]["trade_prices"]["stone"] == 5
    build(game, "Aqueduct", cost=10)  # 3 stone: 1 produced, 2 bought at 2 + 3
    assert coins(game) == [2, 7]


def test_yellow_cards_and_wonders_of_the_opponent_do_not_raise_prices():
    game = drafted(1, WONDERS)
    give(game, 1, "Caravansery", "Forum")
    game.players[1].built[game.data.wonder_ids["Piraeus"]] = game.data.card_ids["Altar"]
    assert game.view(0)["players"][0]["trade_prices"] == {"wood": 2, "clay": 2, "stone": 2, "glass": 2, "papyrus": 2}


def test_fixed_price_cards_buy_at_one_coin():
    game = drafted(1, WONDERS)
    give(game, 1, "Shelf Quarry", "Glassworks", "Glassblower")
    give(game, 0, "Stone Reserve", "Customs House")
    assert game.view(0)["players"][0]["trade_prices"] == {"wood": 2, "clay": 2, "stone": 1, "glass": 1, "papyrus": 1}
    build(game, "Aqueduct", cost=3)
    assert coins(game) == [4, 7]


def test_choice_production_covers_the_dearest_unit():
    game = drafted(1, WONDERS)
    give(game, 1, "Clay Pool", "Clay Pit")  # clay costs 4, wood 2
    give(game, 0, "Caravansery")
    build(game, "Horse Breeders", cost=2)  # clay from the Caravansery, wood bought


def test_a_chain_makes_a_card_free_and_urbanism_pays_four():
    game = drafted(1, WONDERS)
    give(game, 0, "Stable")
    give_token(game, 0, "Urbanism")
    set_coins(game, 0, 0)
    events = build(game, "Horse Breeders", cost=0, free="chain")
    assert coins(game) == [4, 7]
    assert {"type": "coins", "seat": 0, "amount": 4, "reason": "chain"} in events


def test_economy_receives_what_the_opponent_spends_trading_but_not_printed_coins():
    game = drafted(1, WONDERS)
    give_token(game, 1, "Economy")
    build(game, "Forum", cost=5)  # 3 printed coins + 1 clay bought for 2
    assert coins(game) == [2, 9]


def test_economy_also_receives_fixed_price_purchases():
    game = drafted(1, WONDERS)
    give_token(game, 1, "Economy")
    give(game, 0, "Clay Reserve")
    build(game, "Forum", cost=4)
    assert coins(game) == [3, 8]


def test_masonry_waives_the_two_dearest_units_of_a_blue_card():
    game = drafted(1, WONDERS)
    give(game, 1, "Glassworks", "Glassblower")  # glass costs 4
    assert _cost(game, "Palace") == 14  # clay, stone, wood at 2 and 2 glass at 4
    give_token(game, 0, "Masonry")
    assert _cost(game, "Palace") == 6
    assert _cost(game, "Temple") == 0  # wood and papyrus, both waived
    assert _cost(game, "Walls") == 4  # red cards are not discounted


def test_architecture_waives_two_units_of_a_wonder():
    game = drafted(1, WONDERS)
    give(game, 1, "Press")  # papyrus costs 3
    set_coins(game, 0, 10)
    assert _wonder_cost(game, "The Pyramids") == 9  # 3 stone at 2 and a papyrus at 3
    give_token(game, 0, "Architecture")
    assert _wonder_cost(game, "The Pyramids") == 4
    build_wonder(game, "The Pyramids")
    assert coins(game) == [6, 7]


def test_discard_brings_two_plus_one_per_yellow_card():
    game = drafted(1, WONDERS)
    give(game, 0, "Tavern", "Clay Reserve")
    assert game.view(0)["players"][0]["discard_gain"] == 4
    card = legal_of(game, "discard")[0]["card"]
    events = game.apply(0, {"type": "discard", "card": card})
    assert events[0] == {"type": "discarded", "seat": 0, "card": card, "coins": 4}
    assert coins(game) == [11, 7]
    assert game.view(None)["discard"] == [card]


def _cost(game, name):
    """What building the card costs, read from the legal actions (coins are raised to afford it)."""
    set_coins(game, game.current, 99)
    put_in_reach(game, name)
    return next(a["cost"] for a in legal_of(game, "build") if a["card"] == name)


def _wonder_cost(game, name):
    return next(a["cost"] for a in legal_of(game, "wonder") if a["wonder"] == name)


CHOICE_CARDS = [("glass", "papyrus"), ("wood", "clay", "stone"), ("wood", "clay", "stone"), ("glass", "papyrus")]
DUEL = ("wood", "clay", "stone", "glass", "papyrus")


def brute_force(need, choices, price, waive):
    best = None
    for picks in product(*[(None, *c) for c in choices]):
        rest = list(need)
        for r in picks:
            if r is not None and rest[r]:
                rest[r] -= 1
        units = sorted((price[r] for r in range(N_RESOURCES) for _ in range(rest[r])), reverse=True)
        paid = sum(units[waive:])
        best = paid if best is None else min(best, paid)
    return best


@settings(max_examples=300, deadline=None)
@given(
    need=st.lists(st.integers(0, 3), min_size=5, max_size=5),
    cards=st.lists(st.integers(0, 3), max_size=4, unique=True),
    price=st.lists(st.integers(1, 7), min_size=5, max_size=5),
    waive=st.integers(0, 2),
)
def test_trade_cost_is_the_cheapest_purchase(need, cards, price, waive):
    vector = [0] * N_RESOURCES
    prices = [99] * N_RESOURCES
    for name, n, p in zip(DUEL, need, price, strict=True):
        vector[INDEX[name]] = n
        prices[INDEX[name]] = p
    choices = tuple(tuple(sorted(INDEX[r] for r in CHOICE_CARDS[i])) for i in cards)
    items = tuple((r, n) for r, n in enumerate(vector) if n)
    fixed = (0,) * N_RESOURCES
    assert trade_cost(items, fixed, choices, tuple(prices), waive) == brute_force(vector, choices, prices, waive)
