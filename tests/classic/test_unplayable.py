"""The view says why a card of the hand (or the wonder) cannot be built: exact positions, and
over random classic and Armada games that a reason is given exactly when no build is legal."""

import json
import random

import pytest

from app.engine import GameConfig, new_game
from app.engine.classic.game import ClassicGame
from tests.armada.helpers import give as armada_give
from tests.armada.helpers import new as armada_new
from tests.armada.helpers import produce
from tests.classic.helpers import card_def, coins, deal, give, give_stages, new, option, play, to_turn

KEYS = ("unplayable", "wonder_unplayable")


def build_reason(game: ClassicGame, seat: int, card: str) -> dict | None:
    found = game.view(seat)["unplayable"].get(card)
    return None if found is None else found["build"]


# ----- exact positions ---------------------------------------------------------------------------


def test_a_card_already_in_the_city():
    game = new()
    give(game, 0, "Baths")
    deal(game, 0, "Baths", "Altar")
    view = game.view(0)
    assert view["unplayable"] == {
        "Baths": {"build": {"reason": "already_built", "text": "you already have Baths in your city"}}
    }
    assert not [a for a in game.legal_actions(0) if a["type"] == "build" and a["card"] == "Baths"]


def test_a_card_needing_glass_that_nobody_makes():
    game = new(wonders=["Gizah", "Rhodos", "Ephesos"])  # stone, ore, papyrus
    deal(game, 0, "Workshop", "Barracks")
    coins(game, s0=20)
    game.view(0)["unplayable"]["Workshop"]["build"]["missing"]["glass"] = 5  # the caller's own copy
    assert game.view(0)["unplayable"] == {
        "Workshop": {
            "build": {
                "reason": "resources",
                "missing": {"glass": 1},
                "text": "needs 1 more glass than you and your neighbours can make",
            }
        }
    }


def test_a_card_whose_cheapest_trade_costs_more_than_the_coins_held():
    """The Statue needs 1 wood and 2 ore. Seat 0 (Gizah, stone) buys 2 ore from its left
    neighbour (Rhodos and an Ore Vein) at 1 coin each with the West Trading Post, and 1 wood
    from its right neighbour (Babylon) at 2: 4 coins, and seat 0 has 3."""
    game = new(wonders=["Gizah", "Rhodos", "Babylon"])
    give(game, 0, "West Trading Post")
    give(game, 1, "Ore Vein")
    deal(game, 0, "Statue", "Tree Farm", "Altar")
    coins(game, s0=3)
    assert build_reason(game, 0, "Statue") == {
        "reason": "coins",
        "cost": 4,
        "have": 3,
        "text": "costs 4 coins; you have 3",
    }
    assert build_reason(game, 0, "Tree Farm") is None  # 1 coin to the bank
    coins(game, s0=0)
    assert build_reason(game, 0, "Tree Farm") == {
        "reason": "coins",
        "cost": 1,
        "have": 0,
        "text": "costs 1 coin; you have 0",
    }
    coins(game, s0=4)
    assert build_reason(game, 0, "Statue") is None
    assert option(game, 0, type="build", card="Statue")["cost"] == {"bank": 0, "left": 2, "right": 2}


def test_choice_cards_that_cannot_cover_two_resources_at_once():
    """Stables needs 1 wood, 1 clay and 1 ore. Seat 0's Tree Farm makes wood or clay, nobody
    else makes either: each resource alone is within reach, both at once are not."""
    game = new(wonders=["Gizah", "Rhodos", "Ephesos"])
    give(game, 0, "Tree Farm")
    deal(game, 0, "Stables", "Altar")
    coins(game, s0=20)
    assert build_reason(game, 0, "Stables") == {
        "reason": "resources",
        "missing": {"wood": 1, "clay": 1},
        "at_once": True,
        "text": "your and your neighbours' choice cards cannot cover 1 wood and 1 clay at once",
    }


def test_a_chained_card_is_never_unplayable():
    game = new(wonders=["Rhodos", "Gizah", "Ephesos"])  # nobody has 3 stone
    give(game, 0, "Baths")
    deal(game, 0, "Aqueduct", "Walls")
    coins(game, s0=0)
    assert game.view(0)["unplayable"] == {
        "Walls": {
            "build": {
                "reason": "resources",
                "missing": {"stone": 2},
                "text": "needs 2 more stone than you and your neighbours can make",
            }
        }
    }


def test_the_wonder_stage_reason_and_a_complete_wonder():
    game = new(wonders=["Gizah", "Rhodos", "Ephesos"])  # stage 1 of Gizah: 2 wood
    deal(game, 0, "Altar", "Baths")
    assert game.view(0)["wonder_unplayable"] == {
        "reason": "resources",
        "missing": {"wood": 2},
        "text": "needs 2 more wood than you and your neighbours can make",
        "stage": 1,
    }
    give(game, 1, "Sawmill")  # the left neighbour sells 2 wood
    coins(game, s0=3)
    assert game.view(0)["wonder_unplayable"] == {
        "reason": "coins",
        "cost": 4,
        "have": 3,
        "text": "costs 4 coins; you have 3",
        "stage": 1,
    }
    coins(game, s0=4)
    assert game.view(0)["wonder_unplayable"] is None
    give_stages(game, 0, 3)
    assert game.view(0)["wonder_unplayable"] == {"reason": "wonder_complete", "text": "your wonder is complete"}


def test_only_the_seats_deciding_on_a_hand_get_reasons():
    """Babylon (night) plays its last card: only it decides, only its view holds reasons."""
    game = new(wonders=["Babylon", "Gizah", "Rhodos"], side="night")
    give_stages(game, 0, 1)
    to_turn(game, 6)
    deal(game, 0, "Clay Pool", "Workshop")
    for seat in range(3):
        assert set(KEYS) <= set(game.view(seat))  # the pick phase: every seat's hand
    assert not set(KEYS) & set(game.view(None))
    play(game, {0: option(game, 0, type="build", card="Clay Pool"), 1: None, 2: None})
    assert game.phase == "last_card"
    view = game.view(0)
    assert view["unplayable"] == {
        "Workshop": {
            "build": {
                "reason": "resources",
                "missing": {"glass": 1},
                "text": "needs 1 more glass than you and your neighbours can make",
            }
        }
    }
    assert view["wonder_unplayable"]["reason"] == "resources"  # stage 2: 3 clay and 1 glass
    for seat in (None, 1, 2):
        assert not set(KEYS) & set(game.view(seat))


def test_armada_a_far_seller_within_its_limit():
    """5 players, only seat 3 makes ore (3 units). Seat 0 owns the Eastern Emporium, which buys
    one unit a payment from seat 3: the Barracks (1 ore) can be built, the Statue (2 ore) cannot."""
    game = armada_new(5, wonders=["Gizah", "Ephesos", "Alexandria", "Rhodos", "Halikarnassos"])
    armada_give(game, 0, "Eastern Emporium")
    give(game, 3, "Foundry")
    produce(game, 0, card_def("Lumber Yard").effects.produce)  # the Statue's wood
    deal(game, 0, "Barracks", "Statue", "Altar", "Loom", "Press", "Tavern", "Well", "Baths")
    coins(game, s0=5)
    reasons = game.view(0)["unplayable"]
    assert "Barracks" not in reasons
    assert reasons["Statue"] == {
        "build": {
            "reason": "resources",
            "missing": {"ore": 1},
            "text": "needs 1 more ore than you and the cities you trade with can make",
        }
    }
    coins(game, s0=0)
    assert build_reason(game, 0, "Barracks") == {
        "reason": "coins",
        "cost": 1,
        "have": 0,
        "text": "costs 1 coin; you have 0",
    }


# ----- properties over random games ----------------------------------------------------------------


def deciding(game: ClassicGame, seat: int) -> bool:
    return game.phase == "pick" or (game.phase == "last_card" and seat in game.pending)


def check_reasons(game: ClassicGame, seat: int, seen: dict[str, int]) -> None:
    """A card has a reason iff no plain build of it is legal; the wonder iff no stage is; each
    coins reason gives the exact cheapest total, each resources reason holds whatever the coins."""
    view = game.view(seat)
    if not deciding(game, seat):
        assert not set(KEYS) & set(view)
        return
    legal = game.legal_actions(seat)
    hand = {game.cards[c].name for c in game.hands[seat]}
    built = {a["card"] for a in legal if a["type"] == "build" and not a.get("naval")}
    reasons = view["unplayable"]
    assert set(reasons) == hand - built
    assert (view["wonder_unplayable"] is None) == any(a["type"] == "wonder" for a in legal)
    have = game.players[seat].coins
    found = [(name, r["build"]) for name, r in reasons.items()]
    if view["wonder_unplayable"] is not None:
        found.append((None, view["wonder_unplayable"]))
    for name, reason in found:
        kind = reason["reason"]
        seen[kind] = seen.get(kind, 0) + 1
        assert isinstance(reason["text"], str) and reason["text"]
        if kind == "coins":
            assert reason["have"] == have < reason["cost"]
            if seen[kind] % 10 == 1:  # with exactly that many coins it is legal
                assert _legal_with(game, seat, name, reason["cost"])
                assert not _legal_with(game, seat, name, reason["cost"] - 1)
        elif kind == "resources":
            assert reason["missing"] and all(n > 0 for n in reason["missing"].values())
            if seen[kind] % 10 == 1:
                assert not _legal_with(game, seat, name, 999)
        elif kind == "already_built":
            assert name in game.players[seat].names
        else:
            assert kind == "wonder_complete" and name is None


def _legal_with(game: ClassicGame, seat: int, card: str | None, money: int) -> bool:
    other = game.clone()
    other.players[seat].coins = money
    if card is None:
        return any(a["type"] == "wonder" for a in other.legal_actions(seat))
    return any(a["type"] == "build" and a["card"] == card and not a.get("naval") for a in other.legal_actions(seat))


def play_checked(config: GameConfig, rng: random.Random, seen: dict[str, int]) -> None:
    game = new_game(config)
    assert isinstance(game, ClassicGame)
    while not game.is_over:
        for seat in range(game.n):
            check_reasons(game, seat, seen)
            own = game.view(seat).get("unplayable", {})
            assert set(own) <= {game.cards[c].name for c in game.hands[seat]}  # only its own hand
        assert not set(KEYS) & set(game.view(None))
        if game.phase == "last_card":
            seen["last_card"] = seen.get("last_card", 0) + 1
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    for seat in (None, *range(game.n)):
        assert not set(KEYS) & set(game.view(seat))
    json.dumps(game.view(0))


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_reasons_match_the_legal_actions_in_random_games(players):
    rng = random.Random(players)
    seen: dict[str, int] = {}
    for i in range(30):
        side = ("day", "night", "random")[i % 3]
        play_checked(GameConfig(players=players, seed=7000 + 100 * players + i, wonder_side=side), rng, seen)
    assert seen["coins"] and seen["resources"] and seen["already_built"] and seen["wonder_complete"]


@pytest.mark.parametrize("players", [3, 5, 7])
def test_reasons_match_the_legal_actions_in_random_armada_games(players):
    rng = random.Random(100 + players)
    seen: dict[str, int] = {}
    for i in range(20):
        config = GameConfig(players=players, seed=8000 + 100 * players + i, expansions=["armada"])
        play_checked(config, rng, seen)
    assert seen["coins"] and seen["resources"]
