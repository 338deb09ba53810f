"""Duel's action log is canonical, as the classic game's: each entry is the action as the engine
names it (its type and the fields saying what it is about, in that order; the restated cost and
free left out), whatever form was submitted; replaying a log rebuilds the identical game."""

import random
from typing import Any

import pytest

from app.engine import GameConfig, new_game, replay
from app.engine.duel.validate import KEY_FIELDS as ABOUT
from tests.duel.helpers import act, drafted, put_in_reach


def submitted_form(action: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action as a client may send it: restated fields kept or left out, keys in any order."""
    items = [(k, v) for k, v in action.items() if k in ("type", *ABOUT[action["type"]]) or rng.random() < 0.5]
    rng.shuffle(items)
    return dict(items)


def expected_entry(action: dict[str, Any]) -> dict[str, Any]:
    return {"type": action["type"], **{field: action[field] for field in ABOUT[action["type"]]}}


def test_the_log_keeps_the_canonical_form_of_what_was_submitted() -> None:
    game = drafted(3)
    put_in_reach(game, "Altar")
    act(game, {"cost": 0, "card": "Altar", "type": "build"})
    assert game.log[-1] == {"seat": 0, "action": {"type": "build", "card": "Altar"}}
    assert list(game.log[-1]["action"]) == ["type", "card"]


@pytest.mark.parametrize("seed", range(40))
def test_replaying_the_log_rebuilds_the_same_game_and_entries_are_canonical(seed: int) -> None:
    rng = random.Random(seed)
    config = GameConfig(game="duel", seed=seed)
    game = new_game(config)
    while not game.is_over:
        seat = game.to_act[0]
        chosen = rng.choice(game.legal_actions(seat))
        before = game.clone()
        game.apply(seat, submitted_form(chosen, rng))
        entry = game.log[-1]
        assert entry == {"seat": seat, "action": expected_entry(chosen)}
        before.apply(seat, entry["action"])  # the canonical entry applies and logs itself unchanged
        assert before.log[-1] == entry
        assert before.snapshot() == game.snapshot()
    again = replay(config, game.log)
    assert again.snapshot() == game.snapshot()
    assert again.log == game.log
    assert again.result() == game.result()
    for viewer in (0, 1, None):
        assert again.view(viewer) == game.view(viewer)
