"""The actions' shapes (app/api/actions.py): every action the engine lists in random games of every
kind fits them unchanged, the OpenAPI document and the websocket schemas describe them as
discriminated unions per game kind, and what does not fit is refused by name."""

import random
from typing import Any

import httpx
import jsonschema_rs
import pytest
from pydantic import ValidationError

from app.api.actions import game_action, game_of
from app.engine import GameConfig, new_game

CONFIGS = [
    *(GameConfig(game="classic", players=3 + i % 5, seed=100 + i) for i in range(5)),
    *(GameConfig(game="classic", players=3 + i % 5, seed=200 + i, expansions=["armada"]) for i in range(5)),
    *(GameConfig(game="duel", seed=300 + i) for i in range(10)),
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.game}-{c.players}-{'-'.join(c.expansions)}-{c.seed}")
def test_every_legal_action_fits_its_games_shape(config: GameConfig) -> None:
    rng = random.Random(config.seed)
    game = new_game(config)
    kinds = set()
    while not game.is_over:
        for seat in game.to_act:
            actions = game.legal_actions(seat)
            for action in actions:
                assert game_action.validate_python(action) == action, action
                assert game_of(action) == ("duel" if config.game == "duel" else "classic") or action["type"] in (
                    "discard",
                    "build_from_discard",
                    "build",  # a Duel build without a cost fits 7 Wonders' shape as well
                ), action
                kinds.add(action["type"])
            game.apply(seat, rng.choice(actions))
    assert {"build", "discard"} <= kinds


def test_shapes_refuse_what_no_game_has() -> None:
    for action in (
        {"type": "build", "card": "Baths", "cost": {"bank": True}},
        {"type": "wonder", "card": "Baths", "stage": 0},
        {"type": "keep_island", "island": "x", "moves": ["purple"]},
        {"type": "choose_starter", "seat": 2},
        {"type": "pass", "card": "Baths"},
        {"type": "draft_wonder"},
        {"type": []},  # a type no set can hold: refused like any other, not a TypeError
        {"type": {"kind": "build"}},
    ):
        with pytest.raises(ValidationError):
            game_action.validate_python(action)


async def test_the_documents_describe_the_unions(sqlite_client: httpx.AsyncClient) -> None:
    openapi = (await sqlite_client.get("/openapi.json")).json()
    components = openapi["components"]["schemas"]
    action = components["ActionIn"]["properties"]["action"]
    games = action["anyOf"]  # a discard fits both games: anyOf, each game a oneOf on "type"
    assert len(games) == 2
    classic, duel = ({ref["$ref"].rsplit("/", 1)[1] for ref in g["oneOf"]} for g in games)
    assert classic == {
        "ClassicBuild",
        "ClassicWonder",
        "ClassicDiscard",
        "ClassicBuildFromDiscard",
        "ClassicPass",
        "KeepIsland",
    }
    assert {"DraftWonder", "DuelBuild", "DuelWonder", "ChooseProgress", "Destroy", "ChooseStarter"} <= duel
    assert all(g["discriminator"]["propertyName"] == "type" for g in games)
    assert components["ClassicBuild"]["properties"]["naval"]["type"] == "boolean"
    assert components["ClassicBuild"]["additionalProperties"] is False
    legal = components["StateOut"]["properties"]["legal_actions"]
    assert "oneOf" in str(legal)  # the legal actions of a state are typed the same way
    protocol = (await sqlite_client.get("/api/protocol")).json()
    assert "ClassicBuild" in protocol["client"]["$defs"] and "DuelWonder" in protocol["server"]["$defs"]
    assert protocol["limits"] == {
        "max_message_bytes": 65536,
        "max_frame_bytes": 1048576,
        "max_json_depth": 32,
        "rate_per_second": 30.0,
        "burst": 60,
    }


def openapi_legal_actions_validator() -> Any:
    from app.main import create_app
    from tests.server.conftest import make_settings

    document = create_app(make_settings("sqlite:///:memory:")).openapi()
    schema = {**document["components"]["schemas"]["StateOut"]["properties"]["legal_actions"]}
    return jsonschema_rs.validator_for({**schema, "components": document["components"]})


CONFIG_IDS = [f"{c.game}-{c.players}-{'-'.join(c.expansions)}-{c.seed}" for c in CONFIGS]


@pytest.mark.parametrize("config", CONFIGS[::2], ids=CONFIG_IDS[::2])
def test_the_documents_json_schema_takes_every_legal_action(config: GameConfig) -> None:
    """What the server sends fits the OpenAPI document as a JSON Schema validator reads it (a
    discard fits both games' shapes: the two unions are `anyOf`, a `oneOf` refused it)."""
    validator = openapi_legal_actions_validator()
    rng = random.Random(config.seed)
    game = new_game(config)
    while not game.is_over:
        for seat in game.to_act:
            actions = game.legal_actions(seat)
            assert validator.is_valid(actions), [a for a in actions if not validator.is_valid([a])][:3]
            game.apply(seat, rng.choice(actions))
