"""What the server renders for every connection: a version's views, from the engine's shared public
part (once) and each seat's own part, are exactly the engine's views; the event messages are
exactly their models' shapes."""

import json
import random
from collections import deque

import pytest

from app.api.render import event_texts
from app.api.ws_messages import server_message
from app.engine import GameConfig, new_game
from app.json_text import joined_objects, to_json
from app.rooms.frames import make_frame
from app.rooms.games import GameRuntime
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


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_every_event_message_is_exactly_its_models_shape(config: GameConfig) -> None:
    """Event messages are rendered from plain data: each must parse as its ServerMessage model and
    hold no field the model does not (a model's dump of it is the same JSON)."""
    game = new_game(config.model_copy(update={"seed": 3}))
    rng = random.Random(3)
    frame = make_frame(None, game, [], None)
    rt = GameRuntime(41, 1, "ABCDE", game.config, frame, deque())
    kinds: set[str] = set()
    while not frame.over:
        state = frame.game.clone()
        seat = state.to_act[0]
        events = state.apply(seat, rng.choice(state.legal_actions(seat)))
        frame = make_frame(frame, state, events, seat, by_timeout=rng.random() < 0.1)
        for text in event_texts(rt, frame):
            message = server_message.validate_json(text)
            assert message.model_dump(mode="json") == json.loads(text)
            kinds.add(message.type)
    assert {"event", "timeout", "game_over"} <= kinds
    assert kinds & {"chosen", "reveal"} or config.game == "duel"
