"""Smoke test of the fleet balance benchmark: a couple of games, the shape of its JSON lines."""

import json

import pytest

from bench.armada_balance import FOCUSES, main

FOCUS_KEYS = {
    "players",
    "focus",
    "games",
    "seat_games",
    "win_rate",
    "fair_share",
    "mean_total",
    "se_total",
    "vs_others",
    "vs_best_other",
    "vs_none",
    "categories",
    "ships",
    "naval_strength",
    "commercial_level",
    "islands",
    "coins_lost",
    "actions",
    "dominates",
    "useless",
}
SUMMARY_KEYS = {
    "players",
    "summary",
    "games",
    "coins_lost_per_game",
    "islands_kept_per_game",
    "island_kept_rate",
    "dominates",
    "useless",
    "balanced",
}


def test_balance_script_prints_one_line_per_focus_and_a_summary(capsys):
    main(["--games", "2", "--players", "3", "4", "--seed", "5"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for players in (3, 4):
        mine = [line for line in lines if line["players"] == players]
        focus_lines = [line for line in mine if not line.get("summary")]
        summaries = [line for line in mine if line.get("summary")]
        assert len(summaries) == 1
        assert set(summaries[0]) >= SUMMARY_KEYS
        assert {line["focus"] for line in focus_lines} <= set(FOCUSES)
        for line in focus_lines:
            assert set(line) >= FOCUS_KEYS
            assert {"naval", "islands", "shipyard", "commercial"} <= set(line["categories"])
            assert set(line["ships"]) == {"red", "yellow", "blue", "green"}
        assert sum(line["win_rate"] for line in focus_lines) == pytest.approx(1, abs=1e-3)
        assert sum(line["seat_games"] for line in focus_lines) == 2 * players
