"""One canonical log: the database keeps the engine's canonical form of each action, old logs that
kept a client's spelling of them still load, and a game loaded from its log (legal actions built
for its last steps only) is the same as one whose every step was framed."""

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.db.storage import Entry
from app.engine import Game, GameConfig, new_game
from app.rooms.clocks import Clock
from app.rooms.context import Services
from app.rooms.errors import Conflict
from app.rooms.frames import Frame, make_frame, rebuild
from tests.server.conftest import make_settings


async def three_people(services: Services, seed: int) -> int:
    joined = await services.rooms.create({"players": 3, "seed": seed}, "Ann")
    code = joined.room["code"]
    for name in ("Bo", "Cy"):
        await services.rooms.join(code, name)
    await services.rooms.start(await services.rooms.authenticate(code, joined.token))
    game_id, _ = await services.rooms.current_game(code)
    return game_id


def priced(game: Game, seat: int, rng: random.Random) -> dict[str, Any]:
    """A legal action as listed, preferring one that carries its cost (which the log leaves out)."""
    legal = game.legal_actions(seat)
    with_cost = [a for a in legal if "cost" in a]
    return rng.choice(with_cost or legal)


async def test_a_game_stored_with_raw_actions_loads_replays_and_goes_on_canonically(database_url: str) -> None:
    settings = make_settings(database_url)
    services = await Services.start(settings)
    try:
        game_id = await three_people(services, seed=61)
        stored = await services.store.game(game_id)
        assert stored is not None
        truth = new_game(GameConfig.model_validate(stored.config))
        rng = random.Random(3)
        raw = []
        for seq in range(20):  # the log as an older server stored it: each action as the client sent it
            seat = rng.choice(truth.to_act)
            action = priced(truth, seat, rng)
            truth.apply(seat, action)
            raw.append(action)
            assert await services.store.append(Entry(game_id, seq, seat, action, None, datetime.now(UTC)))
        assert any("cost" in a for a in raw)
    finally:
        await services.stop()

    services = await Services.start(settings, migrate=False)
    try:
        await services.restored()
        assert services.games.runtimes == {}  # a running game is loaded when asked for, not at the start
        rt = await services.games.runtime(game_id)
        assert rt.version == 20 == truth.version
        for seat in range(3):
            assert rt.frame.view(seat) == truth.view(seat)
            assert rt.frame.legal(seat) == truth.legal_actions(seat)
        history = await services.games.history(game_id, at=20, seat=None, full=False)
        assert history["view"] == truth.view(None) and len(history["steps"]) == 20

        seat = truth.to_act[0]
        action = priced(truth, seat, rng)
        done = await services.games.submit(game_id, seat, action, rt.version)
        truth.apply(seat, action)
        stored = await services.store.game(game_id)
        assert stored is not None
        assert stored.steps[done.seq]["action"] == truth.log[-1]["action"]
        assert stored.steps[done.seq]["action"] == {k: v for k, v in action.items() if k != "cost"}
        assert [s["action"] for s in stored.steps[:20]] == raw  # the old steps are left as they were
        with pytest.raises(Conflict) as again:  # the same action resent: recognised as applied
            await services.games.submit(game_id, seat, action, done.seq)
        assert again.value.code == "duplicate"
    finally:
        await services.stop()

    services = await Services.start(settings, migrate=False)  # the canonical step replays too
    try:
        rt = await services.games.runtime(game_id)
        assert rt.version == 21 and all(rt.frame.view(s) == truth.view(s) for s in range(3))
        with pytest.raises(Conflict) as again:  # recognised from the stored canonical form alone
            await services.games.submit(game_id, seat, action, done.seq)
        assert again.value.code == "duplicate"
    finally:
        await services.stop()


def framed_every_step(game: Game, steps: list[dict[str, Any]], clock: Clock, started: float) -> Frame:
    frame = make_frame(None, game, [], None, clock=clock, at=started)
    for step in steps:
        state = frame.game.clone()
        events = state.apply(step["seat"], step["action"])
        at = step["created_at"].timestamp()
        frame = make_frame(frame, state, events, step["seat"], clock=clock, at=at, by_timeout=step["by_timeout"])
    return frame


CONFIGS = [
    {"game": "classic", "players": 4},
    {"game": "classic", "players": 3, "expansions": ["armada"]},
    {"game": "duel"},
]


@pytest.mark.parametrize("kind", CONFIGS, ids=["classic", "armada", "duel"])
def test_a_loaded_game_has_the_frame_of_a_game_framed_at_every_step(kind: dict[str, Any]) -> None:
    """Random games cut at random steps, with a time bank and some decisions made on timeout:
    rebuilding from the log gives the newest frame's legal actions, markers, clocks and events."""
    rng = random.Random(str(kind))
    clock = Clock(mode="bank", initial=100.0, increment=5.0)
    start = datetime(2030, 1, 1, tzinfo=UTC)
    for _ in range(6):
        config = GameConfig(**kind, seed=rng.randrange(2**32))
        game, steps, moment = new_game(config), [], start
        while not game.is_over:
            seat = rng.choice(game.to_act)
            action = rng.choice(game.legal_actions(seat))
            game.apply(seat, action)
            moment += timedelta(seconds=rng.random() * 20)
            steps.append({"seat": seat, "action": action, "created_at": moment, "by_timeout": rng.random() < 0.1})
        for cut in sorted({rng.randrange(len(steps) + 1) for _ in range(3)} | {len(steps)}):
            want = framed_every_step(new_game(config), steps[:cut], clock, start.timestamp())
            frames = rebuild(new_game(config), steps[:cut], clock=clock, started_at=start.timestamp())
            got = frames[-1]
            assert got.version == want.version == cut
            assert got.legal_json == want.legal_json
            assert got.markers == want.markers, (cut, got.markers, want.markers)
            assert (got.to_act, got.over, got.epoch) == (want.to_act, want.over, want.epoch)
            assert got.clocks == want.clocks
            assert (got.events, got.timeout_seat) == (want.events, want.timeout_seat)
            assert got.view(None) == want.view(None)
            assert len(frames) <= cut + 1
