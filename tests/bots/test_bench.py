"""bench.bots and bench.tournament print figures that agree with the games they played."""

import json
import re

import pytest

from app.bots import make_bot
from app.engine import GameConfig
from bench import bots as bench_bots
from bench import tournament
from bench.bots import Match, play_table, wilson

NUMBER = r"([+-]?\d+(?:\.\d+)?)"


def test_bench_bots_prints_the_figures_of_its_games(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--game", "classic", "--players", "3", "--bot", "heuristic", "--vs", "random", "--games", "6"]
    bench_bots.main(argv)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "classic 3 players random: heuristic vs 2 random, 6 games from seed 1, seats rotated"
    win_line = re.fullmatch(rf"win rate {NUMBER} \(95% {NUMBER} to {NUMBER}; fair share {NUMBER}\)", lines[1])
    margin_line = re.fullmatch(rf"mean margin {NUMBER} \(95% {NUMBER} to {NUMBER}\)", lines[2])
    assert win_line and margin_line, lines
    win, low, high, fair = map(float, win_line.groups())
    margin, m_low, m_high = map(float, margin_line.groups())
    assert re.fullmatch(r"decisions per second heuristic \d+, random \d+", lines[3])
    assert low <= win <= high and fair == 0.333 and m_low <= margin <= m_high
    # the same games, replayed here: the same win rate and margin
    match = Match(game="classic", players=3, bot="heuristic", vs="random")
    shares, margins = [], []
    for g in range(6):
        config = match.config(g)
        hero = g % 3
        kinds = ["heuristic" if s == hero else "random" for s in range(3)]
        result = play_table(config, [make_bot(k, seed=config.seed * 10 + s) for s, k in enumerate(kinds)]).result
        totals = [s["total"] for s in sorted(result["scores"], key=lambda s: s["seat"])]
        shares.append(1 / len(result["winners"]) if hero in result["winners"] else 0.0)
        margins.append(totals[hero] - max(t for s, t in enumerate(totals) if s != hero))
    assert win == round(sum(shares) / 6, 3)
    assert margin == round(sum(margins) / 6, 2)
    assert (low, high) == tuple(round(x, 3) for x in wilson(sum(shares) / 6, 6))


def test_bench_bots_json_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    bench_bots.main(["--game", "duel", "--games", "4", "--vs", "easy", "--json"])
    figures = json.loads(capsys.readouterr().out)
    assert figures["players"] == 2 and figures["games"] == 4 and figures["vs"] == "easy"
    assert figures["win_interval"][0] <= figures["win_rate"] <= figures["win_interval"][1]
    with pytest.raises(SystemExit):
        bench_bots.main(["--game", "duel", "--bot-option", "budget"])
    assert "a bot option is key=value, not 'budget'" in capsys.readouterr().err


def test_bench_tournament_prints_pairings_and_ratings(capsys: pytest.CaptureFixture[str]) -> None:
    tournament.main(["--game", "duel", "--games", "4", "--kinds", "random", "greedy", "heuristic"])
    lines = capsys.readouterr().out.splitlines()
    heading = "duel: round robin of random, greedy, heuristic, 4 games per pairing from seed 1, seats alternated"
    assert lines[0] == heading
    pairings = [re.fullmatch(rf"(\w+) vs (\w+): \1 scored {NUMBER} of 4 \({NUMBER}\)", line) for line in lines[1:4]]
    assert [(m.group(1), m.group(2)) for m in pairings] == [
        ("random", "greedy"),
        ("random", "heuristic"),
        ("greedy", "heuristic"),
    ]
    for m in pairings:
        assert 0 <= float(m.group(3)) <= 4 and float(m.group(4)) == round(float(m.group(3)) / 4, 3)
    assert lines[4] == "ratings (OpenSkill Plackett-Luce, ordinal = mu - 3 sigma):"
    rated = [re.fullmatch(rf"(\d)\. (\w+) mu {NUMBER} sigma {NUMBER} ordinal {NUMBER}", line) for line in lines[5:]]
    assert sorted(m.group(2) for m in rated) == ["greedy", "heuristic", "random"]
    ordinals = [float(m.group(5)) for m in rated]
    assert ordinals == sorted(ordinals, reverse=True)
    for m in rated:
        assert abs(float(m.group(3)) - 3 * float(m.group(4)) - float(m.group(5))) < 0.02
    # a bot that lost every game of its pairings is rated last
    if float(pairings[0].group(3)) == 0 and float(pairings[1].group(3)) == 0:
        assert rated[-1].group(2) == "random"


def test_a_table_of_bots_counts_each_seats_decisions() -> None:
    table = play_table(GameConfig(players=3, seed=2), [make_bot("random", seed=s) for s in range(3)])
    assert table.decisions == [18, 18, 18]  # 3 Ages of 6 turns, no wonder with extra decisions at this seed
