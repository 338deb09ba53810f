"""The server renders a version's views from the engine's shared public part (once) and each seat's
own part: the text is exactly the engine's view."""

import json
import random

import pytest

from app.engine import GameConfig, new_game
from app.json_text import joined_objects, to_json
from app.rooms.frames import make_frame
from tests.engine.test_views import CONFIGS, config_id


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_a_frame_renders_each_seats_view_from_the_shared_part(config: GameConfig) -> None:
    game = new_game(config.model_copy(update={"seed": 7}))
    rng = random.Random(7)
    for _ in range(12):
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    frame = make_frame(None, game, [], None)
    for seat in [*range(game.config.seats), None]:
        assert json.loads(frame.view_text(seat)) == game.view(seat)
    assert frame.public_json == to_json(game.public_view())


def test_joined_objects() -> None:
    assert json.loads(joined_objects('{"a":1}', '{"b":[2]}')) == {"a": 1, "b": [2]}
    assert joined_objects("{}", '{"b":2}') == '{"b":2}'
    assert joined_objects('{"a":1}', "{}") == '{"a":1}'
    assert joined_objects("{}", "{}") == "{}"
