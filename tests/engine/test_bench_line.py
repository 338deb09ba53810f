"""The engine benchmark's JSON line: its fields and figures that must hold whatever the machine."""

import json

import pytest

from bench.engine import main


def test_the_engine_benchmark_prints_one_line_per_player_count(capsys):
    main(["--games", "3", "--players", "3", "4"])
    main(["--games", "3", "--players", "3", "--armada"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(line["players"], line["expansions"]) for line in lines] == [(3, []), (4, []), (3, ["armada"])]
    base, armada = lines[0], lines[2]
    for line in lines:
        assert line["games"] == 3 and line["games_per_s"] > 0 and line["decisions_per_s"] > 0
    # a base game: 3 Ages of 6 picks per player (plus the odd extra decision); Armada: 7 picks an Age
    assert 18 * 3 <= base["decisions_per_game"] < 18 * 3 + 6
    assert 21 * 3 <= armada["decisions_per_game"] < 21 * 3 + 9
    # every decision lists at least one action; Armada lists more (naval steps, yellow discards)
    assert armada["actions_per_game"] > base["actions_per_game"] >= base["decisions_per_game"]
    assert {line["listing"] for line in lines} == {"lazy"}


def test_built_listings_play_the_same_games(capsys):
    """--built reads legal_actions (every action made) instead of lazy_legal_actions: the same
    random games, so the same decisions, listed actions and victories."""
    for argv in (["--players", "4"], ["--players", "3", "--armada"], ["--game", "duel"]):
        main(["--games", "4", *argv])
        main(["--games", "4", "--built", *argv])
        lazy, built = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert (lazy["listing"], built["listing"]) == ("lazy", "built")
        for key in ("decisions_per_game", "actions_per_game", "victories"):
            assert lazy.get(key) == built.get(key)


def test_the_engine_benchmark_refuses_counts_it_cannot_run(capsys):
    for argv, said in (
        (["--games", "0"], "argument --games: must be at least 1, not 0"),
        (["--games", "3", "--players", "9"], "--players 9: Value error, classic is played by 3 to 7 players, not 9"),
        (["--game", "duel", "--players", "3", "--games", "3"], "--players 3"),
    ):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2
        out, err = capsys.readouterr()
        assert out == "" and said in err
