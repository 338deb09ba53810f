"""The result says how scoring counted each science symbol of choice (Babylon's stage, the Scientists
Guild, Armada's Golden Archipelago): what it was counted as and what every other way would have
given, so a score sheet can tell a player why. Exact numbers, and the choice is always the score."""

import random

from app.engine import GameConfig, new_game
from app.engine.classic import scoring
from app.engine.classic.armada.scoring import science_with_most
from app.engine.common.science import science_choices
from tests.armada import helpers as armada
from tests.classic.helpers import give, give_stages, new


def test_one_symbol_of_choice_goes_where_it_scores_most():
    # a compass, a gear and two tablets: the third tablet gives 1 + 1 + 9 + 7 = 18, the others 16
    assert science_choices((1, 1, 2), 1) == [
        {"counted_as": {"tablet": 1}, "points": 18},
        {"counted_as": {"compass": 1}, "points": 16},
        {"counted_as": {"gear": 1}, "points": 16},
    ]


def test_equal_choices_keep_the_symbols_order():
    assert [c["counted_as"] for c in science_choices((0, 0, 0), 1)] == [{"compass": 1}, {"gear": 1}, {"tablet": 1}]
    assert {c["points"] for c in science_choices((0, 0, 0), 1)} == {1}


def test_babylon_and_the_scientists_guild_in_the_result():
    game = new(wonders=["Babylon", "Gizah", "Rhodos"])
    give_stages(game, 0, 2)  # Babylon (day): 3 points, then a science symbol of your choice
    give(game, 0, "Apothecary", "Workshop", "Scriptorium", "Library", "Scientists Guild")
    choice = scoring.science_choice(game, 0)
    assert choice == {
        "symbols": {"compass": 1, "gear": 1, "tablet": 2},
        "from": [{"wonder": "Babylon", "stage": 2}, {"card": "Scientists Guild"}],
        "choices": [
            {"counted_as": {"compass": 1, "gear": 1}, "points": 26},  # two full sets: 4 + 4 + 4 + 14
            {"counted_as": {"tablet": 2}, "points": 25},  # 1 + 1 + 16 + 7
            {"counted_as": {"compass": 2}, "points": 21},
            {"counted_as": {"compass": 1, "tablet": 1}, "points": 21},
            {"counted_as": {"gear": 2}, "points": 21},
            {"counted_as": {"gear": 1, "tablet": 1}, "points": 21},
        ],
    }
    assert scoring.score_seat(game, 0)["science"] == 26
    result = scoring.result(game)
    assert result["scores"][0]["science_choice"] == choice
    assert "science_choice" not in result["scores"][1]  # no symbol of choice, nothing to say


def test_armada_counts_the_most_common_symbol_after_the_choice():
    game = armada.new(wonders=["Babylon", "Gizah", "Rhodos"])
    armada.give_stages(game, 0, 1, 2)
    armada.give(game, 0, "Apothecary", "Workshop", "Scriptorium", "Library", "Cabinet of Explorers")
    armada.give_island(game, 0, "Golden Archipelago")
    choice = scoring.science_choice(game, 0)
    assert choice is not None
    assert choice["from"] == [{"wonder": "Babylon", "stage": 2}, {"island": "Golden Archipelago"}]
    # two of choice on (1, 1, 2), then one more tablet (the most common): tablets to 5 is 1 + 1 + 25 + 7
    assert choice["choices"][0] == {"counted_as": {"tablet": 2}, "points": 34}
    assert choice["choices"][0]["points"] == science_with_most((1, 1, 2), 2, 1)
    assert scoring.result(game)["scores"][0]["categories"]["science"] == 34


def test_the_choice_counted_is_the_science_scored_in_random_games():
    seen = 0
    for seed in range(60):
        expansions = ["armada"] if seed % 2 else []
        game = new_game(GameConfig(players=4, seed=seed, expansions=expansions))
        rng = random.Random(seed)
        while not game.is_over:
            for seat in game.to_act:
                game.apply(seat, rng.choice(game.legal_actions(seat)))
        for score in game.result()["scores"]:
            wild = game.players[score["seat"]].science[3]
            choice = score.get("science_choice")
            assert (choice is not None) == (wild > 0)
            if choice:
                seen += 1
                assert choice["choices"][0]["points"] == score["categories"]["science"]
                assert sum(choice["choices"][0]["counted_as"].values()) == wild == len(choice["from"])
    assert seen >= 5
