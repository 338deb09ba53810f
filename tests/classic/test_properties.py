"""Properties over many random legal games: 3-7 players, both sides, every payment option."""

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import GameConfig, new_game, replay
from app.engine.classic.game import ClassicGame

GAMES_PER_COUNT = 200  # 1,000 games over 3-7 players
SIDES = ("day", "night", "random")


def places(game: ClassicGame) -> list[int]:
    """Every card id in every place a card can be; each must appear exactly once."""
    ids: list[int] = []
    for deck in game.decks.values():
        ids += deck
    for hand in game.hands:
        ids += hand
    for p in game.players:
        ids += p.city
        ids += p.tucked
    return ids + game.discard


def check_state(game: ClassicGame) -> None:
    ids = places(game)
    assert sorted(ids) == list(range(len(game.cards))), "a card is missing or in two places"
    assert all(p.coins >= 0 for p in game.players)


def check_events(events: list[dict]) -> None:
    """Public events never name a card used for a wonder stage or discarded."""
    for event in events:
        moves = event.get("moves", []) + ([event["move"]] if "move" in event else [])
        for move in moves:
            if move["type"] in ("wonder", "discard"):
                assert "card" not in move


def tainted_view_leaks(game: ClassicGame, seat: int | None) -> bool:
    """Rename every card this seat may not see to SECRET-n, then look for SECRET in its view."""
    return "SECRET" in json.dumps(hidden_cards_renamed(game, seat).view(seat))


def hidden_cards_renamed(game: ClassicGame, seat: int | None) -> ClassicGame:
    """A copy of the game where every card this seat may not see is named SECRET-n."""
    other = game.clone()
    hidden = {c for s, hand in enumerate(game.hands) if s != seat for c in hand}
    hidden |= {c for p in game.players for c in p.tucked}
    if not (game.phase == "discard_build" and seat in game.pending):
        hidden |= set(game.discard)
    cards = list(other.cards)
    for card_id in hidden:
        cards[card_id] = dataclasses.replace(cards[card_id], name=f"SECRET-{card_id}")
    other.cards = tuple(cards)
    return other


def play_checked(config: GameConfig, rng: random.Random, secrecy: bool) -> ClassicGame:
    game = new_game(config)
    assert isinstance(game, ClassicGame)
    reveals = 0
    check_state(game)
    while not game.is_over:
        for seat in game.to_act:
            events = game.apply(seat, rng.choice(game.legal_actions(seat)))
            reveals += sum(1 for e in events if e["type"] == "reveal")
            check_events(events)
            check_state(game)
            if secrecy:
                for viewer in [None, *range(config.seats)]:
                    assert not tainted_view_leaks(game, viewer)
    assert reveals == 18 and game.age == 3 and game.turn == 6
    result = game.result()
    for score in result["scores"]:
        assert score["total"] == sum(score["categories"].values())
    best = max((s["total"], s["coins"]) for s in result["scores"])
    assert result["winners"] == [s["seat"] for s in result["scores"] if (s["total"], s["coins"]) == best]
    assert replay(config, game.log).snapshot() == game.snapshot()
    return game


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_random_games_keep_every_invariant(players):
    rng = random.Random(players)
    for i in range(GAMES_PER_COUNT):
        config = GameConfig(players=players, seed=1000 * players + i, wonder_side=SIDES[i % 3])
        play_checked(config, rng, secrecy=i % 40 == 0)


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 7), st.integers(0, 2**32), st.randoms(use_true_random=False))
def test_hypothesis_games(players, seed, rng):
    play_checked(GameConfig(players=players, seed=seed), rng, secrecy=True)


def test_views_never_hold_another_hand_or_hidden_things():
    game = new_game(GameConfig(players=4, seed=11))
    rng = random.Random(11)
    while not game.is_over:
        for seat in game.to_act:
            view = game.view(seat)
            assert view["hand"] == [game.cards[c].name for c in game.hands[seat]]
            assert set(view) >= {"hand", "players", "age", "turn", "phase", "to_act"}
            for p in view["players"]:
                assert {"wonder", "side", "coins", "city", "stages_built", "military_tokens", "has_chosen"} <= set(p)
                assert "hand" not in p and "tucked" not in p
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert game.view(None)["result"] == game.result()


def test_clone_is_independent():
    game = new_game(GameConfig(players=3, seed=5))
    copy = game.clone()
    rng = random.Random(5)
    for seat in game.to_act:
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert copy.snapshot() == new_game(GameConfig(players=3, seed=5)).snapshot()
    assert copy.snapshot() != game.snapshot()


@pytest.mark.parametrize("expansions", [[], ["armada"]])
def test_an_unchanged_epoch_means_unchanged_legal_actions(expansions):
    """The server reuses every seat's legal actions while the epoch stays: check that it may."""
    kept = 0
    for i in range(30):
        game = new_game(GameConfig(players=3 + i % 5, seed=700 + i, expansions=expansions))
        rng = random.Random(i)
        legal = [game.legal_actions(s) for s in range(game.config.seats)]
        while not game.is_over:
            epoch = game.epoch
            seat = rng.choice(game.to_act)
            game.apply(seat, rng.choice(legal[seat]))
            now = [game.legal_actions(s) for s in range(game.config.seats)]
            if game.epoch == epoch:
                assert now == legal
                kept += 1
            legal = now
    assert kept > 1000  # most picks keep the epoch
