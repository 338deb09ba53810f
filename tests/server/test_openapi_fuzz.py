"""Schemathesis against the app's own OpenAPI document, on a real uvicorn: no answer is a 5xx, and
every answer fits the document (status, content type, body schema, headers).

Two passes. Each operation alone, with data made from its schema (valid, and invalid for the
negative checks), on real rooms: the path's room code is one of a few rooms in every state (open,
playing 7 Wonders with Armada, playing Duel, finished) and the token is that room's host's or none,
so requests reach the rules and not only the 404 of a made-up code. Then the stateful pass: the
document's links lead from a created or joined room (its code and seat) to every operation on it,
the token of the room's host going along."""

import random
from collections.abc import Iterator
from typing import Any

import hypothesis
import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, given
from hypothesis import strategies as st
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.server.conftest import make_settings
from tests.server.live import LiveServer

CHECKS = [
    schemathesis.checks.not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]
EXAMPLES = 15  # per operation and mode
QUICK = hypothesis.settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
    phases=[hypothesis.Phase.explicit, hypothesis.Phase.generate],
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("openapi") / "wonders.db"
    # long polls answer within 0.05 s: the fuzzer sends every valid `wait` up to 30 s
    live = LiveServer(make_settings(f"sqlite:///{db}", bot_delay_ms=0, long_poll_max_seconds=0.05))
    live.start()
    try:
        yield live
    finally:
        live.stop()


def post(server: LiveServer, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = requests.post(server.url + path, json=body, headers=headers, timeout=30)
    assert r.status_code in (200, 201), r.text
    return r.json()


@pytest.fixture(scope="module")
def rooms(server: LiveServer) -> dict[str, str]:
    """Rooms in every state: {code: the host's token}."""
    out = {}
    open_room = post(server, "/api/rooms", {"name": "Ada", "players": 4, "bots": [{"kind": "random", "seat": 3}]})
    out[open_room["code"]] = open_room["token"]
    for body in (
        {"name": "Ada", "players": 3, "expansions": ["armada"], "bots": [{"kind": "random"}] * 2, "seed": 5},
        {"name": "Ada", "game": "duel", "bots": [{"kind": "random"}], "seed": 6},
    ):
        room = post(server, "/api/rooms", body)
        post(server, f"/api/rooms/{room['code']}/start", {}, room["token"])
        out[room["code"]] = room["token"]
    finished = post(server, "/api/rooms", {"name": "Ada", "game": "duel", "bots": [{"kind": "random"}], "seed": 7})
    code, token = finished["code"], finished["token"]
    post(server, f"/api/rooms/{code}/start", {}, token)
    play_to_the_end(server, code, token)
    out[code] = token
    return out


def play_to_the_end(server: LiveServer, code: str, token: str) -> None:
    """Seat 0 plays random legal actions over REST until the game is over (the bot plays the other)."""
    rng = random.Random(1)
    headers = {"Authorization": f"Bearer {token}"}
    for _ in range(500):
        state = requests.get(f"{server.url}/api/rooms/{code}/game", headers=headers, timeout=30).json()
        if state["status"] == "finished":
            return
        if 0 in state["to_act"]:
            body = {"action": rng.choice(state["legal_actions"]), "version": state["version"]}
            requests.post(f"{server.url}/api/rooms/{code}/game/actions", json=body, headers=headers, timeout=30)
    raise AssertionError("the Duel did not end")


def operations(schema: Any) -> list[Any]:
    return [result.ok() for result in schema.get_all_operations()]


def fuzz(operation: Any, mode: GenerationMode, rooms: dict[str, str], session: requests.Session) -> None:
    """EXAMPLES cases of one operation in one mode; valid cases on a real room, with or without its token."""
    takes_code = any(p.name == "code" for p in operation.path_parameters)
    positive = mode is GenerationMode.POSITIVE
    checks = CHECKS if positive else [*CHECKS, negative_data_rejection]

    @QUICK
    @given(case=operation.as_strategy(generation_mode=mode), room=st.sampled_from(sorted(rooms)), token=st.booleans())
    def run(case: Any, room: str, token: bool) -> None:
        case.headers = {k: v for k, v in (case.headers or {}).items() if k.lower() != "authorization"}
        if positive and takes_code:
            case.path_parameters["code"] = room
        if positive and token:
            case.headers["Authorization"] = f"Bearer {rooms[room]}"
        case.call_and_validate(session=session, checks=checks)

    run()


def test_every_operation_alone(server: LiveServer, rooms: dict[str, str]) -> None:
    schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json")
    session = requests.Session()
    tested = []
    for operation in operations(schema):
        takes_input = bool(list(operation.iter_parameters())) or bool(list(operation.body))
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE) if takes_input else (GenerationMode.POSITIVE,):
            fuzz(operation, mode, rooms, session)
            tested.append((operation.label, mode))
    assert len(tested) > 40  # every operation of the document; both modes where it takes input


def test_stateful_links(server: LiveServer) -> None:
    schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json")
    schema.config.generation.update(modes=[GenerationMode.POSITIVE])  # valid steps, so rooms get made
    tokens: dict[str, str] = {}  # room code -> the token its creator (or a joiner) got

    class Links(schema.as_state_machine()):  # type: ignore[misc]
        def before_call(self, case: Any) -> None:
            code = (case.path_parameters or {}).get("code")
            if code in tokens:
                case.headers = {**(case.headers or {}), "Authorization": f"Bearer {tokens[code]}"}

        def after_call(self, response: Any, case: Any) -> None:
            super().after_call(response, case)
            if response.status_code in (200, 201) and case.method == "POST" and case.path.endswith(("rooms", "join")):
                body = response.json()
                tokens.setdefault(body["code"], body["token"])

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            case.validate_response(response, checks=CHECKS)

    Links.run(
        settings=hypothesis.settings(
            max_examples=30,
            stateful_step_count=6,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
            phases=[hypothesis.Phase.generate],
        )
    )
    assert tokens  # rooms were made, and their links followed
