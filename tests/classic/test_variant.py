"""Armada is a variant of the classic game (app/engine/classic/armada subclasses ClassicGame): a base
game runs none of its code, in any part of a game's life."""

import random
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import app.engine.classic.armada as armada_package
from app.engine import GameConfig, new_game

ARMADA = str(Path(armada_package.__file__).parent)


def files_run(work: Any) -> set[str]:
    """The source files of every Python function called while `work()` runs."""
    seen: set[str] = set()

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call":
            seen.add(frame.f_code.co_filename)

    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(None)
    return seen


def whole_game(config: GameConfig) -> None:
    rng = random.Random(config.seed)
    game = new_game(config)
    while not game.is_over:
        seat = rng.choice(game.to_act)
        game.view(seat)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        game.clone().snapshot()
        if len(game.log) % 8 == 0:
            game.determinize(seat, rng)
    game.result()


def test_a_base_game_runs_no_armada_code() -> None:
    for players in (3, 7):
        ran = files_run(lambda players=players: whole_game(GameConfig(game="classic", players=players, seed=players)))
        assert any(f.endswith("classic/game.py") for f in ran)  # the profile sees the engine
        assert not [f for f in ran if f.startswith(ARMADA)]


def test_an_armada_game_does_run_it() -> None:  # the check above can fail
    ran = files_run(lambda: whole_game(GameConfig(game="classic", players=3, seed=1, expansions=["armada"])))
    assert {Path(f).name for f in ran if f.startswith(ARMADA)} >= {"game.py", "naval.py", "effects.py"}
