"""lazy_legal_actions: the listing of legal_actions, each action made when read."""

import json
import random

import pytest

from app.engine import GameConfig, new_game
from app.engine.common.lazy_actions import LazyActions

KINDS = [
    GameConfig(players=3),
    GameConfig(players=5),
    GameConfig(players=7),
    GameConfig(players=3, expansions=["armada"]),
    GameConfig(players=6, expansions=["armada"]),
    GameConfig(game="duel"),
]


@pytest.mark.parametrize("config", KINDS, ids=lambda c: f"{c.game}-{c.players}-{'+'.join(c.expansions)}")
def test_the_lazy_listing_is_the_listing(config):
    """At every decision of random games, for every seat (those not to act list nothing): the same
    actions in the same order, key order included; a game played from lazy picks ends as the same
    game played from built ones."""
    for seed in range(12):
        game = new_game(config.model_copy(update={"seed": seed}))
        twin = game.clone()
        rng, twin_rng = random.Random(seed), random.Random(seed)
        decisions = lazy_listings = 0
        while not game.is_over:
            for seat in range(config.players or 2):
                listed = game.lazy_legal_actions(seat)
                lazy_listings += type(listed) is LazyActions
                assert json.dumps(list(listed)) == json.dumps(game.legal_actions(seat))
            for seat in game.to_act:
                game.apply(seat, rng.choice(game.lazy_legal_actions(seat)))
                twin.apply(seat, twin_rng.choice(twin.legal_actions(seat)))
                decisions += 1
        assert twin.result() == game.result() and twin.log == game.log
        assert decisions >= 20
        # Armada's picks are listed lazily; the base game's and Duel's actions are built lists
        assert lazy_listings >= (config.players * 21 if config.expansions else 0)


def lazy_listing() -> tuple[LazyActions, list[dict]]:
    game = new_game(GameConfig(players=3, seed=4, expansions=["armada"]))
    listed = game.lazy_legal_actions(0)
    assert type(listed) is LazyActions
    return listed, game.legal_actions(0)


def test_lazy_actions_read_as_a_list():
    listed, built = lazy_listing()
    n = len(built)
    assert n > 3 and len(listed) == n and bool(listed)
    assert listed[0] == built[0] and listed[-1] == built[-1] and listed[n - 2] == built[n - 2]
    assert listed[1:3] == built[1:3] and listed[::-1] == built[::-1] and listed[5:1] == []
    for wrong in (n, -n - 1):
        with pytest.raises(IndexError):
            listed[wrong]
    with pytest.raises(TypeError):
        listed["0"]
    assert built[2] in listed and listed.index(built[2]) == 2 and listed.count(built[0]) == 1
    assert {"type": "discard", "card": "nothing"} not in listed
    assert listed == built and built == listed and listed == tuple(built) and listed != built[:-1]
    assert listed not in ({"type": "discard"}, "x")  # compared, not equal
    assert repr(listed) == f"LazyActions({built!r})"


def test_an_action_read_twice_is_the_same_dict():
    """As in a list: what one reader changes in an action, the next reads (whether the listing was
    iterated first or not)."""
    listed, _ = lazy_listing()
    first = listed[1]
    assert listed[1] is first and next(x for i, x in enumerate(listed) if i == 1) is first
    everything = list(listed)
    assert all(listed[i] is action for i, action in enumerate(everything))
    assert listed.as_list() is listed.as_list()
