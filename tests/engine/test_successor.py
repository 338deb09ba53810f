"""Game.successor: the state an action makes, its source left as it was. ClassicGame's successors
share the parts a secret pick leaves alone with their source until one of them changes them:
these random games check that no state ever sees another's change, whichever of them moves first."""

import random
from typing import Any

import pytest

from app.engine import Game, GameConfig, new_game
from app.engine.classic.game import ClassicGame


def seen(game: Game) -> tuple[Any, ...]:
    """Everything a state shows: its whole snapshot, log, views and every seat's legal actions."""
    seats = range(game.config.seats)
    return (
        game.snapshot(),
        list(game.log),
        list(game.to_act),
        [game.view(s) for s in (None, *seats)],
        [game.legal_actions(s) for s in seats],
    )


def random_step(game: Game, rng: random.Random) -> tuple[int, dict[str, Any]]:
    seat = rng.choice(game.to_act)
    return seat, rng.choice(game.legal_actions(seat))


CONFIGS = [
    *(GameConfig(players=n, seed=40 + n, wonder_side=("day", "night", "random")[n % 3]) for n in range(3, 8)),
    *(GameConfig(players=n, seed=60 + n, expansions=["armada"]) for n in (3, 4, 7)),
    GameConfig(game="duel", seed=5),
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.game}-{c.players}-{'-'.join(c.expansions)}")
def test_each_successor_is_what_apply_makes_and_no_state_sees_another_change(config: GameConfig) -> None:
    rng = random.Random(config.seed)
    direct = new_game(config)  # changed in place: what each successor must equal
    state = new_game(config)
    kept: list[tuple[Game, tuple[Any, ...]]] = []  # earlier states, and what each showed then
    while not direct.is_over:
        seat, action = random_step(direct, rng)
        events = direct.apply(seat, action)
        before = seen(state)
        after, after_events = state.successor(seat, action)
        assert after_events == events
        assert seen(after) == seen(direct)
        assert seen(state) == before
        # a sibling made from the same state, and the state itself changed in place, touch neither
        # the successor nor any state kept earlier
        sibling, _ = state.successor(*random_step(state, rng))
        if not sibling.is_over:
            sibling.successor(*random_step(sibling, rng))
        if rng.random() < 0.2:
            kept.append((state, before))
        else:
            state.apply(*random_step(state, rng))
        state = after
        assert seen(state) == seen(direct)
        for old, then in kept[-3:]:
            assert seen(old) == then
    for old, then in kept:
        assert seen(old) == then
    assert state.result() == direct.result()


def test_a_pick_shares_the_cities_with_its_source_and_the_resolution_copies_them() -> None:
    """What a successor saves: a secret pick copies none of the players, hands or decks; the pick that
    resolves the turn copies them for its own state only."""
    game = new_game(GameConfig(players=3, seed=8))
    assert isinstance(game, ClassicGame)
    first, _ = game.successor(0, game.legal_actions(0)[0])
    assert isinstance(first, ClassicGame)
    assert first.players is game.players and first.hands is game.hands and first.decks is game.decks
    assert first.picks is not game.picks and first.log is not game.log
    second, _ = first.successor(1, first.legal_actions(1)[0])
    assert isinstance(second, ClassicGame)
    third, events = second.successor(2, second.legal_actions(2)[0])
    assert isinstance(third, ClassicGame)
    assert [e["type"] for e in events][:2] == ["chosen", "reveal"]
    assert third.players is not second.players and third.hands is not second.hands
    assert all(mine is not theirs for mine, theirs in zip(third.players, second.players, strict=True))
    assert second.players is game.players and sum(len(p.city) + len(p.tucked) for p in game.players) == 0
    copy = game.clone()
    assert copy.players is not game.players and copy.players[0] is not game.players[0]
