"""A game's saved state (app.engine.save_state / load_state): loaded again, it is the game that was
saved, in every kind, at every point of seeded random games, and it plays on the same; it shares
the process's data (the same objects); bytes of another engine version, or damaged, are refused."""

import pickle
import random

import pytest

from app.engine import Game, GameConfig, StateMismatch, load_state, new_game, save_state
from app.engine.classic.data import classic_data
from app.engine.classic.player import SIDE_NAMES

KINDS = [
    ("classic", 3, []),
    ("classic", 7, []),
    ("duel", 2, []),
    ("classic", 4, ["armada"]),
]


def same(a: Game, b: Game) -> None:
    assert a.snapshot() == b.snapshot()
    assert (a.to_act, a.version, a.is_over, a.log) == (b.to_act, b.version, b.is_over, b.log)
    for seat in [None, *range(a.config.seats)]:
        assert a.view(seat) == b.view(seat)
    for seat in range(a.config.seats):
        assert a.legal_actions(seat) == b.legal_actions(seat)


@pytest.mark.parametrize(("game", "players", "expansions"), KINDS, ids=[f"{g}{p}{''.join(e)}" for g, p, e in KINDS])
def test_a_saved_game_loads_as_the_game_it_was_and_plays_on_the_same(
    game: str, players: int, expansions: list[str]
) -> None:
    for seed in range(6):
        rng = random.Random(seed)
        original = new_game(GameConfig(game=game, players=players, seed=seed, expansions=expansions))
        while not original.is_over:
            if original.version % 5 == 0:
                loaded = load_state(save_state(original))
                same(original, loaded)
                ahead = original.clone()
                for _ in range(4):  # both play the next steps the same
                    if ahead.is_over:
                        break
                    seat = ahead.to_act[0]
                    action = random.Random(ahead.version).choice(ahead.legal_actions(seat))
                    assert ahead.apply(seat, action) == loaded.apply(seat, action)
                same(ahead, loaded)
            seat = original.to_act[0]
            original.apply(seat, rng.choice(original.legal_actions(seat)))
        same(original, load_state(save_state(original)))


def test_a_loaded_game_shares_the_processs_data() -> None:
    game = new_game(GameConfig(players=4, seed=3))
    game.apply(0, game.legal_actions(0)[0])
    loaded = load_state(save_state(game))
    assert loaded.data is classic_data()  # type: ignore[attr-defined]
    assert all(a is b for a, b in zip(loaded.cards, game.cards, strict=True))  # type: ignore[attr-defined]
    assert all(move.sides is SIDE_NAMES for move in loaded.picks.values())  # type: ignore[attr-defined]
    assert loaded.market_cache == {}  # type: ignore[attr-defined]  # caches start empty


def test_a_state_of_another_engine_or_damaged_is_refused() -> None:
    data = save_state(new_game(GameConfig(game="duel", seed=1)))
    fingerprint, rest = data.split(b" ", 1)
    with pytest.raises(StateMismatch, match="another version of the engine"):
        load_state(b"0" * len(fingerprint) + b" " + rest)
    with pytest.raises(StateMismatch, match="damaged"):
        load_state(data[: len(data) // 2])
    with pytest.raises(StateMismatch, match="damaged"):
        load_state(data.replace(b"app.engine.duel.game:DuelGame", b"app.engine.classic.game:ClassicGame"))
    with pytest.raises(StateMismatch):
        load_state(b"not a state at all")
    with pytest.raises(StateMismatch):  # only the engine's classes are ever named
        load_state(fingerprint + b" os:system\n" + rest.split(b"\n", 1)[1])
    header = data.split(b"\n", 1)[0]
    evil = pickle.dumps(print)  # a state that names another module's global
    with pytest.raises(StateMismatch, match=r"names builtins\.print"):
        load_state(header + b"\n" + evil)
