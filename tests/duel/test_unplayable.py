"""The Duel view says why an accessible card or a Wonder cannot be built: exact positions, and
over random games that a reason is given exactly when the build is not among the legal actions."""

import random

import pytest

from app.engine.duel.game import DuelGame
from tests.duel.helpers import (
    act,
    build_wonder,
    drafted,
    give,
    legal_of,
    new,
    put_in_reach,
    refresh,
    set_coins,
    with_wonder,
)

KEYS = ("unplayable", "wonders_unplayable")


def test_a_card_and_a_wonder_too_expensive():
    """The opponent's Quarry makes stone cost 3 coins at the bank: the Baths (1 stone) cost 3,
    the Pyramids (3 stone, 1 papyrus) 3 * 3 + 2 = 11."""
    game = with_wonder("The Pyramids", coins=2)
    give(game, 1, "Quarry")
    put_in_reach(game, "Baths")
    view = game.view(0)
    assert view["unplayable"]["Baths"] == {
        "build": {"reason": "coins", "cost": 3, "have": 2, "text": "costs 3 coins; you have 2"}
    }
    assert view["wonders_unplayable"]["The Pyramids"] == {
        "reason": "coins",
        "cost": 11,
        "have": 2,
        "text": "costs 11 coins; you have 2",
    }
    set_coins(game, 0, 3)
    view = game.view(0)
    assert "Baths" not in view["unplayable"]
    assert {"type": "build", "card": "Baths", "cost": 3} in legal_of(game, "build")
    set_coins(game, 0, 11)
    assert "The Pyramids" not in game.view(0)["wonders_unplayable"]


def test_no_wonder_once_seven_are_built():
    game = drafted(2)
    mine, theirs = (game.players[s].unbuilt[:] for s in (0, 1))
    spare = iter(game.removed)
    for seat, wonders in ((0, mine[:3]), (1, theirs[:3])):
        for w in wonders:
            game.players[seat].built[w] = next(spare)
            game.players[seat].unbuilt.remove(w)
            game.wonders_total += 1
    set_coins(game, 0, 30)
    assert game.view(0)["wonders_unplayable"] == {}
    # the engine's own bound, were a seventh Wonder built with Wonders still unbuilt
    game.wonders_total = 7
    refresh(game)
    name = game.data.wonders[mine[3]].name
    assert game.view(0)["wonders_unplayable"] == {
        name: {"reason": "max_wonders", "text": "seven wonders are already built"}
    }
    assert legal_of(game, "wonder") == []
    game.wonders_total = 6
    build_wonder(game, name)  # the seventh: the eighth goes back to the box
    if game.to_act == [0]:
        act(game, legal_of(game, "discard")[0])
    set_coins(game, 1, 30)
    assert game.view(1)["wonders_unplayable"] == {} and legal_of(game, "wonder") == []


def check_view(game: DuelGame, rng: random.Random, seen: dict[str, int]) -> None:
    for seat in (None, 0, 1):
        view = game.view(seat)
        if seat is None or seat != game.actor or game.phase != "play":
            assert not set(KEYS) & set(view)
            continue
        legal = game.legal_actions(seat)
        accessible = {e["card"] for e in view["structure"] if e["accessible"]}
        built = {a["card"] for a in legal if a["type"] == "build"}
        assert set(view["unplayable"]) == accessible - built
        unbuilt = {game.data.wonders[w].name for w in game.players[seat].unbuilt}
        wonders = {a["wonder"] for a in legal if a["type"] == "wonder"}
        assert set(view["wonders_unplayable"]) == unbuilt - wonders
        have = game.players[seat].coins
        reasons = [(("build", n), r["build"]) for n, r in view["unplayable"].items()]
        reasons += [(("wonder", n), r) for n, r in view["wonders_unplayable"].items()]
        for (kind, name), reason in reasons:
            seen[reason["reason"]] = seen.get(reason["reason"], 0) + 1
            assert reason["reason"] == "coins", reason  # seven built: the unbuilt ones are gone
            assert reason["have"] == have < reason["cost"]
            if rng.random() < 0.1:  # with exactly that many coins it is legal
                other = game.clone()
                other.players[seat].coins = reason["cost"]
                field = "card" if kind == "build" else "wonder"
                assert any(a["type"] == kind and a[field] == name for a in other.legal_actions(seat))


@pytest.mark.parametrize("first", [0, 1])
def test_reasons_match_the_legal_actions_in_random_games(first):
    rng = random.Random(first)
    seen: dict[str, int] = {}
    for i in range(75):
        game = new(9000 + 2 * i + first)
        while not game.is_over:
            check_view(game, rng, seen)
            seat = game.to_act[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        check_view(game, rng, seen)
    assert seen["coins"]
