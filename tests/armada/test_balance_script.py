"""The fleet balance benchmark: the shape of its JSON lines over a couple of games, and its fleet bots' rules."""

import json

import pytest

from app.bots.armada import ArmadaValues
from app.bots.classic_heuristic import HeuristicBot
from app.engine import GameConfig, new_game
from app.engine.classic.armada.data import TRACKS
from bench.armada_balance import FOCUSES, FleetBot, focus_of, main

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


def fleet_game(players: int, seed: int) -> list[tuple[str, dict, dict]]:
    """One Armada game of FleetBots: each choice with the bot's focus and the view it was made in."""
    game = new_game(GameConfig(players=players, seed=seed, expansions=["armada"]))
    bots = [FleetBot(focus_of(s, seed), seed * 10 + s) for s in range(players)]
    chosen = []
    while not game.is_over:
        for seat in game.to_act:
            view = game.view(seat)
            action = bots[seat].choose(view, game.legal_actions(seat))
            chosen.append((bots[seat].focus, view, action))
            game.apply(seat, action)
    return chosen


def test_fleet_bots_pay_steps_only_on_their_own_track():
    chosen = [c for seed in range(3) for c in fleet_game(5, seed)]
    paid = [(focus, FleetBot.paid_track(ArmadaValues(view, view["seat"]), a)) for focus, view, a in chosen]
    assert all(track in (None, focus) for focus, track in paid)
    assert not any(track for focus, track in paid if focus == "none")
    assert {focus for focus, track in paid if track == focus} == set(TRACKS)  # every fleet moves


def test_a_fleet_bot_adds_its_bonus_to_the_steps_of_its_own_ship():
    view = new_game(GameConfig(players=4, seed=4, expansions=["armada"])).view(0)
    plain = {"type": "build", "card": "Barracks", "cost": {"bank": 0, "left": 0, "right": 0}}
    red_step = {**plain, "naval": True}
    yellow = {"type": "discard", "card": "Barracks", "reward": "yellow"}
    heuristic = HeuristicBot(1)
    for focus in FOCUSES:
        bot = FleetBot(focus, 1, bonus=4.0, discard_bonus=0.5)
        extra = {a["type"]: bot.value(view, 0, a) - heuristic.value(view, 0, a) for a in (red_step, yellow)}
        assert extra["build"] == pytest.approx(4.0 if focus == "red" else 0.0)
        assert extra["discard"] == pytest.approx(0.5 if focus == "yellow" else 0.0)
        assert bot.value(view, 0, plain) == pytest.approx(heuristic.value(view, 0, plain))
