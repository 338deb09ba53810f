"""The crash soak, short: a real `python -m app` is killed with SIGKILL 5 times while games of bots
run with picks pending, started again on the same SQLite file each time, and every game is played
to its end; every action the server acknowledged is in the log, none is applied twice."""

from pathlib import Path

from bench.soak import arguments, ok, soak


async def test_five_kills_lose_no_acknowledged_action(tmp_path: Path) -> None:
    args = arguments().parse_args(
        ["--kills", "5", "--rooms", "2", "--max-play-s", "0.5", "--server-log", str(tmp_path / "server.log")]
    )
    result = await soak(args)
    assert result["kills"] == 5 and result["server_starts"] == 6
    assert result["kills_with_picks_pending"] == 5, result
    assert result["actions_acknowledged"] > 0
    assert result["actions_lost"] == 0, result["problems"]
    assert result["applied_twice"] == 0, result["problems"]
    assert result["steps_with_gaps"] == 0
    assert result["games"] >= 2 and result["games_finished"] == result["games"], result["problems"]
    assert result["problems"] == []
    assert ok(result)


async def test_graceful_stops_lose_no_acknowledged_action_and_end_on_their_own(tmp_path: Path) -> None:
    """SIGTERM, as a deploy sends it, while picks are pending: the server shuts down by itself
    (within the 10 s `docker stop` grants) with websockets open, and nothing acknowledged is lost."""
    args = arguments().parse_args(
        ["--kills", "3", "--signal", "term", "--rooms", "2", "--max-play-s", "0.5"]
        + ["--server-log", str(tmp_path / "server.log")]
    )
    result = await soak(args)
    assert result["signal"] == "term" and result["kills"] == 3 and result["server_starts"] == 4
    assert result["kills_with_picks_pending"] == 3, result
    assert result["stops_forced"] == 0, result["problems"]
    assert result["actions_lost"] == 0 and result["applied_twice"] == 0, result["problems"]
    assert result["games_finished"] == result["games"] and result["problems"] == []
    assert "Traceback" not in (tmp_path / "server.log").read_text()
