"""Properties over many random Armada games: 3-7 players, every variant of every action."""

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import GameConfig, new_game, replay
from app.engine.classic.game import ClassicGame
from tests.classic.test_properties import hidden_cards_renamed, places

GAMES_PER_COUNT = 200  # 1,000 games over 3-7 players
SIDES = ("day", "night", "random")


def armada(players: int, seed: int, side: str = "random") -> GameConfig:
    return GameConfig(players=players, seed=seed, wonder_side=side, expansions=["armada"])  # type: ignore[arg-type]


def choose(actions: list[dict], rng: random.Random) -> dict:
    """A random action of a random kind, so builds, naval steps and yellow discards all get played."""
    kinds: dict[tuple, list[dict]] = {}
    for a in actions:
        kinds.setdefault((a["type"], a.get("naval", False), a.get("reward")), []).append(a)
    return rng.choice(kinds[rng.choice(sorted(kinds, key=str))])


def island_places(game: ClassicGame) -> list[int]:
    ids = [i for deck in game.island_decks.values() for i in deck]
    ids += [i for offer in game.offers.values() for i in offer] + [i for _, i in game._returned]
    return ids + [i for f in game.fleets for i in f.islands]


def check_state(game: ClassicGame) -> None:
    assert game.armada is not None
    assert sorted(places(game)) == list(range(len(game.cards))), "a card is missing or in two places"
    assert sorted(island_places(game)) == list(range(len(game.armada.islands))), "an island is lost or doubled"
    assert all(p.coins >= 0 for p in game.players)
    assert all(0 <= pos <= 6 for f in game.fleets for pos in f.ships.values())


def view_leaks(game: ClassicGame, seat: int | None) -> bool:
    """Rename every card and island this seat may not see to SECRET-n, then look for SECRET in its view."""
    assert game.armada is not None
    other = hidden_cards_renamed(game, seat)
    unseen = {i for deck in game.island_decks.values() for i in deck}
    unseen |= {i for s, offer in game.offers.items() if s != seat for i in offer}
    unseen |= {i for _, i in game._returned}
    islands = [
        dataclasses.replace(island, name=f"SECRET-island-{i}") if i in unseen else island
        for i, island in enumerate(game.armada.islands)
    ]
    other.armada = dataclasses.replace(game.armada, islands=tuple(islands))
    return "SECRET" in json.dumps(other.view(seat))


def play_checked(config: GameConfig, rng: random.Random, secrecy: bool) -> ClassicGame:
    game = new_game(config)
    assert isinstance(game, ClassicGame)
    assert all(len(hand) == 8 for hand in game.hands)
    reveals = 0
    check_state(game)
    while not game.is_over:
        for seat in game.to_act:
            events = game.apply(seat, choose(game.legal_actions(seat), rng))
            reveals += sum(1 for e in events if e["type"] == "reveal")
            check_state(game)
            if secrecy:
                for viewer in [None, *range(config.seats)]:
                    assert not view_leaks(game, viewer)
    assert reveals == 21 and game.age == 3 and game.turn == 7
    result = game.result()
    assert result["categories"][-3:] == ["naval", "islands", "shipyard"]
    for score in result["scores"]:
        assert score["total"] == sum(score["categories"].values())
    assert replay(config, game.log).snapshot() == game.snapshot()
    return game


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_random_armada_games_keep_every_invariant(players):
    rng = random.Random(players)
    for i in range(GAMES_PER_COUNT):
        play_checked(armada(players, 5000 * players + i, SIDES[i % 3]), rng, secrecy=i % 50 == 0)


@settings(max_examples=15, deadline=None)
@given(st.integers(3, 7), st.integers(0, 2**32), st.randoms(use_true_random=False))
def test_hypothesis_armada_games(players, seed, rng):
    play_checked(armada(players, seed), rng, secrecy=True)


def test_clone_is_independent():
    game = new_game(armada(4, 9))
    copy = game.clone()
    rng = random.Random(9)
    for _ in range(40):
        for seat in game.to_act:
            game.apply(seat, choose(game.legal_actions(seat), rng))
    assert copy.snapshot() == new_game(armada(4, 9)).snapshot()
    assert copy.snapshot() != game.snapshot()
