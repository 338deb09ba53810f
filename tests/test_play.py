"""`python -m app.play`: bad options say what is allowed in one line (exit 2, no traceback), and the
score sheet names every seat in full (its wonder and side in the classic game)."""

import pytest

from app.engine import GameConfig
from app.play import main, play


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "9"], "argument --players: classic is played by 3 to 7 players, not 9"),
        (["--players", "2"], "argument --players: classic is played by 3 to 7 players, not 2"),
        (["--players", "0"], "argument --players: classic is played by 3 to 7 players, not 0"),
        (["--game", "duel", "--players", "3"], "argument --players: duel is played by exactly 2 players, not 3"),
        (["--game", "duel", "--players", "1"], "argument --players: duel is played by exactly 2 players, not 1"),
        (["--bots", "smart"], "argument --bots: invalid choice: 'smart'"),
        (["--game", "duel", "--armada"], "argument --armada: Armada is an expansion of the classic game"),
    ],
)
def test_bad_options_say_what_is_allowed(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    errors = [line for line in err.splitlines() if "error:" in line]
    assert len(errors) == 1 and message in errors[0], err
    assert errors[0].startswith("python -m app.play: error: ")


def test_good_player_counts_still_play(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--players", "3"], ["--players", "7"], ["--game", "duel"], ["--game", "duel", "--players", "2"]):
        assert main([*argv, "--bots", "random"]) == 0
    assert capsys.readouterr().out.count("winner") == 4


def test_a_level_plays_as_its_bot(capsys: pytest.CaptureFixture[str]) -> None:
    """easy is the greedy bot: the same game, seat for seat, as --bots greedy."""
    assert main(["--players", "3", "--seed", "4", "--bots", "easy"]) == 0
    easy = capsys.readouterr().out
    assert main(["--players", "3", "--seed", "4", "--bots", "greedy"]) == 0
    assert capsys.readouterr().out == easy and "winner" in easy


def test_classic_sheet_names_every_seat_and_wonder_in_full(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--players", "7", "--seed", "3", "--bots", "random"]) == 0
    lines = capsys.readouterr().out.splitlines()
    result = play(GameConfig(players=7, seed=3), "random")  # the same game again
    scores = result["scores"]
    wonders = [s["wonder"] for s in scores]
    assert "Halikarnassos" in wonders  # every wonder of the base game is dealt to 7 players
    assert lines[0].split() == [word for s in scores for word in ("seat", str(s["seat"]))]
    assert lines[1].split() == wonders  # in full, in seat order
    assert lines[2].split() == [s["side"] for s in scores]
    assert set(lines[3]) == {"-", " "}
    assert not any(":" in line for line in lines[:-1])  # no "0:Halikarnasso" cells
    winner = scores[result["winners"][0]]
    assert lines[-1].startswith(f"winner: seat {winner['seat']} {winner['wonder']} ({winner['side']})")


def test_duel_sheet_heads_its_columns_by_seat_and_names_the_victory(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "duel", "--seed", "2", "--bots", "random"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert "0:" not in out and "1:" not in out
    assert lines[0].split() == ["seat", "0", "seat", "1"]
    assert set(lines[1]) == {"-", " "}
    result = play(GameConfig(game="duel", seed=2), "random")
    assert lines[-1] == f"winner: seat {result['winners'][0]}, {result['victory']} victory"
