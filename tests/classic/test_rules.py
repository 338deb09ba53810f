"""Rulebook examples with exact numbers, and the classic bugs of other engines.

Seats in a 3-player game: seat 0's left neighbour is seat 1 and its right neighbour seat 2.
"""

import pytest

from app.engine import IllegalAction
from app.engine.classic import scoring
from app.engine.common.science import science_points
from tests.classic.helpers import coins, deal, discard_all, finish_age, give, give_stages, new, option, play, to_turn

# ----- science, military, treasury --------------------------------------------------------------


def test_science_example_from_the_rules_is_13():
    assert science_points((2, 1, 1)) == 13
    game = new()
    give(game, 0, "Apothecary", "Dispensary", "Workshop", "Scriptorium")
    assert scoring.score_seat(game, 0)["science"] == 13


def test_any_symbol_is_placed_for_the_best_score():
    game = new()
    give(game, 0, "Apothecary", "Dispensary", "Workshop", "Scriptorium", "Scientists Guild")
    assert scoring.score_seat(game, 0)["science"] == 18  # the third compass: 9 + 1 + 1 + 7
    assert science_points((1, 1, 0), 2) == 13  # two wildcards complete a set and a pair


def test_military_tokens_over_three_ages_and_treasury():
    game = new()
    give(game, 0, "Guard Tower", "Barracks")  # 2 shields
    give(game, 1, "Stockade")  # 1 shield
    expected = {
        1: [[1, 1], [-1, 1], [-1, -1]],
        2: [[1, 1, 3, 3], [-1, 1, -1, 3], [-1, -1, -1, -1]],
        3: [[1, 1, 3, 3, 5, 5], [-1, 1, -1, 3, -1, 5], [-1, -1, -1, -1, -1, -1]],
    }
    for age in (1, 2, 3):
        events = finish_age(game)
        military = next(e for e in events if e["type"] == "military")
        assert military["age"] == age
        assert [sorted(p.tokens) for p in game.players] == [sorted(t) for t in expected[age]]
    assert game.is_over
    result = game.result()
    assert [s["categories"]["military"] for s in result["scores"]] == [18, 6, -6]
    # 18 discards at 3 coins on top of the 3 starting coins: 57 coins, 19 points
    assert [s["coins"] for s in result["scores"]] == [57, 57, 57]
    assert [s["categories"]["treasury"] for s in result["scores"]] == [19, 19, 19]


def test_rhodos_stage_shields_count_in_military():
    game = new(wonders=["Rhodos", "Gizah", "Ephesos"])
    give_stages(game, 0, 2)  # day stage 2: 2 shields
    give(game, 1, "Guard Tower")
    finish_age(game)
    assert sorted(game.players[0].tokens) == [1, 1]


# ----- building and paying ------------------------------------------------------------------------


def test_chain_builds_free():
    game = new()
    give(game, 0, "Baths")
    deal(game, 0, "Aqueduct", "Altar", "Loom", "Press", "Glassworks", "Tavern", "Well")
    coins(game, s0=0)
    action = option(game, 0, type="build", card="Aqueduct")
    assert action["free"] == "chain" and action["cost"] == {"bank": 0, "left": 0, "right": 0}
    play(game, {0: action, 1: None, 2: None})
    assert "Aqueduct" in game.view(0)["players"][0]["city"]
    assert game.players[0].coins == 0


def test_payment_split_between_neighbours_with_a_trading_post():
    """Seat 0 buys 2 ore: raw from the left costs 1 (West Trading Post), from the right 2."""
    game = new()  # Gizah (stone), Rhodos (ore), Ephesos (papyrus)
    give(game, 0, "West Trading Post", "Glassworks")
    give(game, 1, "Ore Vein")  # left: 2 ore
    give(game, 2, "Mine")  # right: stone or ore
    deal(game, 0, "Dispensary", "Altar", "Loom", "Press", "Tavern", "Well", "Baths")
    coins(game, s0=3, s1=0, s2=0)
    offered = [a for a in game.legal_actions(0) if a.get("card") == "Dispensary" and a["type"] == "build"]
    assert [(a["trade"], a["cost"]) for a in offered] == [
        ({"left": {"ore": 2}, "right": {}}, {"bank": 0, "left": 2, "right": 0}),
        ({"left": {"ore": 1}, "right": {"ore": 1}}, {"bank": 0, "left": 1, "right": 2}),
    ]
    play(game, {0: offered[1], 1: None, 2: None})
    # seat 0 paid 3; seat 1 got 1 and seat 2 got 2 on top of their 3 discard coins
    assert [p.coins for p in game.players] == [0, 4, 5]


def test_coins_spent_must_be_held_at_the_start_of_the_turn():
    game = new()
    deal(game, 0, "Barracks", "Altar", "Loom", "Press", "Tavern", "Well", "Baths")
    coins(game, s0=0)
    assert not [a for a in game.legal_actions(0) if a.get("card") == "Barracks" and a["type"] == "build"]
    with pytest.raises(IllegalAction, match="would cost 2 coins with that trade; you have 0"):
        game.apply(0, {"type": "build", "card": "Barracks", "trade": {"left": {"ore": 1}}})


def test_one_buys_only_what_one_lacks():
    """Gizah produces stone: buying a neighbour's stone for Baths (1 stone) is refused, so no coins
    pass to the neighbour for nothing; a stone Gizah lacks, for Walls (3 stone), may be bought."""
    game = new()
    give(game, 1, "Stone Pit")  # seat 0's left neighbour sells stone
    deal(game, 0, "Baths", "Walls", "Loom", "Press", "Tavern", "Well", "Altar")
    before = game.snapshot()
    with pytest.raises(IllegalAction, match="you produce the stone that trade buys for Baths: buy only what you lack"):
        game.apply(0, {"type": "build", "card": "Baths", "trade": {"left": {"stone": 1}}})
    assert game.snapshot() == before
    give(game, 0, "Timber Yard")  # stone or wood: with Gizah's stone, two of the three for Walls
    play(game, {0: {"type": "build", "card": "Walls", "trade": {"left": {"stone": 1}}}, 1: None, 2: None})
    assert [p.coins for p in game.players] == [1, 3 + 3 + 2, 3 + 3]


def test_a_neighbours_resource_is_not_used_up_by_selling_it():
    game = new()  # seat 1 (Rhodos) produces ore and is the neighbour of seats 0 and 2
    deal(game, 0, "Barracks", "Altar", "Loom", "Press", "Tavern", "Well", "Baths")
    deal(game, 2, "Barracks", "Altar", "Loom", "Press", "Tavern", "Well", "Baths")
    buy_left = {"type": "build", "card": "Barracks", "trade": {"left": {"ore": 1}, "right": {}}}
    buy_right = {"type": "build", "card": "Barracks", "trade": {"left": {}, "right": {"ore": 1}}}
    play(game, {0: buy_left, 1: None, 2: buy_right})
    assert [p.coins for p in game.players] == [1, 3 + 3 + 4, 1]


def test_yellow_and_wonder_choice_production_cannot_be_bought():
    game = new(wonders=["Gizah", "Alexandria", "Ephesos"])
    give(game, 1, "Forum")  # glass/papyrus/loom, untradable
    give_stages(game, 1, 2)  # Alexandria day stage 2: a raw material of choice, untradable
    give(game, 2, "Tree Farm")  # brown choice: tradable
    deal(game, 0, "Loom", "Barracks", "Stockade", "Apothecary", "Tavern", "Well", "Altar")
    buildable = {a["card"] for a in game.legal_actions(0) if a["type"] == "build"}
    assert "Barracks" not in buildable  # ore only from Alexandria's stage
    assert "Apothecary" not in buildable  # loom only from the Forum
    assert "Stockade" in buildable  # wood from the Tree Farm


def test_vineyard_counts_brown_cards_built_the_same_turn():
    game = new()
    give(game, 0, "Stone Pit")
    give(game, 2, "Clay Pool")
    deal(game, 0, "Vineyard", "Altar", "Loom", "Press", "Tavern", "Well", "Baths")
    deal(game, 1, "Lumber Yard", "Altar", "Loom", "Press", "Tavern", "Well", "Baths")
    coins(game, s0=0)
    play(
        game,
        {
            0: option(game, 0, type="build", card="Vineyard"),
            1: option(game, 1, type="build", card="Lumber Yard"),
            2: None,
        },
    )
    assert game.players[0].coins == 3  # own Stone Pit, right's Clay Pool, left's new Lumber Yard


def test_never_two_cards_of_one_name():
    game = new()
    give(game, 0, "Altar")
    deal(game, 0, "Altar", "Loom", "Press", "Tavern", "Well", "Baths", "Stockade")
    assert not [a for a in game.legal_actions(0) if a["type"] == "build" and a["card"] == "Altar"]
    with pytest.raises(IllegalAction, match="already have Altar"):
        game.apply(0, {"type": "build", "card": "Altar"})


def test_a_pick_may_change_until_the_last_seat_picks():
    game = new()
    deal(game, 0, "Altar", "Loom", "Press", "Tavern", "Well", "Baths", "Stockade")
    game.apply(0, {"type": "build", "card": "Altar"})
    events = game.apply(0, {"type": "discard", "card": "Loom"})
    assert events == [{"type": "chosen", "seat": 0, "changed": True}]
    assert game.to_act == [1, 2]
    assert game.view(1)["players"][0]["has_chosen"] and "pick" not in str(game.view(1)["players"])
    events = discard_all(game)
    reveal = next(e for e in events if e["type"] == "reveal")
    assert reveal["moves"][0] == {"seat": 0, "type": "discard"}
    assert "Altar" not in game.view(0)["players"][0]["city"]


def test_illegal_actions_change_nothing():
    game = new()
    deal(game, 0, "Altar", "Loom", "Press", "Tavern", "Well", "Baths", "Barracks")
    before = game.snapshot()
    bad = [
        (0, {"type": "build", "card": "Palace"}),
        (0, {"type": "fly", "card": "Altar"}),
        (0, {"type": "build", "card": "Altar", "colour": "blue"}),
        (0, {"type": "build", "card": "Barracks", "trade": {"left": {"ore": 2}}}),
        (
            0,
            {
                "type": "build",
                "card": "Barracks",
                "trade": {"left": {"ore": 1}},
                "cost": {"bank": 0, "left": 1, "right": 0},
            },
        ),
        (0, {"type": "build", "card": "Barracks", "trade": {"left": {"unobtainium": 1}}}),
        (0, {"type": "build", "card": "Altar", "trade": {"left": {"wood": 1}}}),
        (0, {"type": "wonder", "card": "Altar", "stage": 3}),
        (0, ["build"]),
        (5, {"type": "discard", "card": "Altar"}),
        ("0", {"type": "discard", "card": "Altar"}),
    ]
    for seat, action in bad:
        with pytest.raises(IllegalAction):
            game.apply(seat, action)
    assert game.snapshot() == before
    assert game.log == []


def test_discard_gives_three_coins_and_the_seventh_card_gives_none():
    game = new()
    finish_age(game)
    assert [p.coins for p in game.players] == [3 + 18] * 3
    assert len(game.discard) == 21


# ----- wonder abilities -----------------------------------------------------------------------------


def test_halikarnassos_builds_from_the_end_of_age_discard_before_military():
    """Stage 2 built on turn 6: the 7th cards discarded at the end of the Age are on offer,
    and the card built counts in that Age's military."""
    game = new(wonders=["Halikarnassos", "Gizah", "Rhodos"])
    give_stages(game, 0, 1)
    give(game, 0, "Glassworks", "Press")
    to_turn(game, 6)
    deal(game, 0, "Altar", "Loom")
    deal(game, 1, "Stockade", "Guard Tower")
    deal(game, 2, "Baths", "Tavern")
    stage = option(game, 0, type="wonder", card="Altar")
    events = play(game, {0: stage, 1: "Stockade", 2: "Tavern"})
    assert game.phase == "discard_build" and game.to_act == [0]
    assert {"type": "decision", "kind": "build_from_discard", "seats": [0]} in events
    options = {a.get("card") for a in game.legal_actions(0)}
    assert {"Guard Tower", "Baths", "Stockade", "Tavern"} <= options  # 7th cards and this turn's discards
    assert "Loom" in options  # seat 0's own 7th card
    events = game.apply(0, {"type": "build_from_discard", "card": "Guard Tower"})
    assert {"type": "built_from_discard", "seat": 0, "card": "Guard Tower"} in events
    military = next(e for e in events if e["type"] == "military")
    assert military["age"] == 1
    assert sorted(game.players[0].tokens) == [1, 1]
    assert game.age == 2 and game.phase == "pick"


def test_halikarnassos_may_pass_and_is_skipped_when_nothing_can_be_built():
    game = new(wonders=["Halikarnassos", "Gizah", "Rhodos"])
    give_stages(game, 0, 1)
    give(game, 0, "Glassworks", "Press")
    deal(game, 0, "Altar", "Loom", "Press", "Tavern", "Well", "Baths", "Stockade")
    events = play(
        game,
        {
            0: option(game, 0, type="wonder", card="Altar"),
            1: None,
            2: None,
        },
    )
    assert game.phase == "discard_build"
    game.apply(0, {"type": "pass"})
    assert game.phase == "pick" and game.turn == 2
    # with an empty discard pile the decision does not come up at all
    game2 = new(wonders=["Halikarnassos", "Gizah", "Rhodos"])
    give_stages(game2, 0, 1)
    give(game2, 0, "Glassworks", "Press")
    deal(game2, 0, "Altar", "Loom", "Press", "Tavern", "Well", "Baths", "Stockade")
    deal(game2, 1, "Lumber Yard", "Loom", "Press", "Tavern", "Well", "Baths", "Stockade")
    deal(game2, 2, "Clay Pool", "Loom", "Press", "Tavern", "Well", "Baths", "Stockade")
    events = play(
        game2,
        {
            0: option(game2, 0, type="wonder", card="Altar"),
            1: option(game2, 1, type="build", card="Lumber Yard"),
            2: option(game2, 2, type="build", card="Clay Pool"),
        },
    )
    assert {"type": "discard_build_skipped", "seat": 0, "reason": "nothing in the discard pile can be built"} in events
    assert game2.phase == "pick" and game2.turn == 2


def test_babylon_plays_its_last_card():
    game = new(wonders=["Babylon", "Gizah", "Rhodos"], side="night")
    give_stages(game, 0, 1)  # play the last card of each Age
    to_turn(game, 6)
    deal(game, 0, "Clay Pool", "Lumber Yard")
    events = play(
        game,
        {
            0: option(game, 0, type="build", card="Clay Pool"),
            1: None,
            2: None,
        },
    )
    assert game.phase == "last_card" and game.to_act == [0]
    assert not any(e["type"] == "military" for e in events)
    assert {a["type"] for a in game.legal_actions(0)} == {"build", "discard"}  # stage 2 needs 3 clay + glass
    events = game.apply(0, option(game, 0, type="build", card="Lumber Yard"))
    assert "Lumber Yard" in game.view(0)["players"][0]["city"]
    assert any(e["type"] == "military" for e in events) and game.age == 2
    # seats 1 and 2 discarded on each of the 6 turns and lost their 7th card; Babylon discarded on 5
    assert len(game.discard) == 5 + 6 * 2 + 2


def test_babylon_can_play_the_last_card_in_the_age_it_builds_the_stage():
    game = new(wonders=["Babylon", "Gizah", "Rhodos"], side="night")
    give(game, 0, "Quarry")
    to_turn(game, 6)
    deal(game, 0, "Altar", "Baths")
    play(
        game,
        {
            0: option(game, 0, type="wonder", card="Altar"),
            1: None,
            2: None,
        },
    )
    assert game.phase == "last_card"
    game.apply(0, option(game, 0, type="build", card="Baths"))
    assert "Baths" in game.view(0)["players"][0]["city"]


@pytest.mark.parametrize("babylon_builds", [True, False])
def test_babylon_last_card_and_halikarnassos_share_the_discard(babylon_builds):
    """Babylon plays its 7th card before Halikarnassos looks at the discard: a card Babylon
    builds is not on offer; a card Babylon sells is."""
    game = new(wonders=["Babylon", "Halikarnassos", "Gizah"], side=["night", "day", "day"])
    give_stages(game, 0, 1)
    give_stages(game, 1, 1)
    give(game, 1, "Glassworks", "Press")
    to_turn(game, 6)
    deal(game, 0, "Lumber Yard", "Temple")
    deal(game, 1, "Stockade", "Loom")
    deal(game, 2, "Clay Pool", "Ore Vein")
    play(
        game,
        {
            0: option(game, 0, type="build", card="Lumber Yard"),
            1: option(game, 1, type="wonder", card="Stockade"),
            2: "Clay Pool",
        },
    )
    assert game.phase == "last_card" and game.to_act == [0]
    if babylon_builds:
        give(game, 0, "Clay Pit")  # wood, clay and glass for the Temple
        game.players[0].coins = 10
        game.market_cache = {}
        temple = next(a for a in game.legal_actions(0) if a["type"] == "build")
        game.apply(0, temple)
    else:
        game.apply(0, {"type": "discard", "card": "Temple"})
    assert game.phase == "discard_build" and game.to_act == [1]
    on_offer = {a.get("card") for a in game.legal_actions(1)}
    assert ("Temple" in on_offer) is not babylon_builds
    assert {"Ore Vein", "Clay Pool"} <= on_offer


def test_olympia_day_builds_the_first_card_of_each_colour_free():
    game = new(wonders=["Olympia", "Gizah", "Rhodos"])
    give_stages(game, 0, 2)
    give(game, 0, "Guard Tower")
    deal(game, 0, "Temple", "Stockade", "Loom", "Press", "Tavern", "Well", "Baths")
    coins(game, s0=0)
    temple = option(game, 0, type="build", card="Temple")
    assert temple["free"] == "first_of_color"
    assert not [a for a in game.legal_actions(0) if a.get("card") == "Stockade" and a["type"] == "build"]
    play(game, {0: temple, 1: None, 2: None})
    assert "Temple" in game.view(0)["players"][0]["city"] and game.players[0].coins == 0
    deal(game, 0, "Altar", "Baths", "Loom", "Press", "Tavern", "Well")
    coins(game, s0=5)
    baths = option(game, 0, type="build", card="Baths")  # blue is taken now: buy the stone
    assert "free" not in baths and baths["cost"] == {"bank": 0, "left": 2, "right": 0}  # Gizah's stone


def test_olympia_night_builds_the_first_and_last_card_of_each_age_free():
    game = new(wonders=["Olympia", "Gizah", "Rhodos"], side="night")
    give_stages(game, 0, 2)
    deal(game, 0, "Temple", "Stockade", "Loom", "Press", "Tavern", "Well", "Baths")
    coins(game, s0=0)
    assert option(game, 0, type="build", card="Temple")["free"] == "first_of_age"
    play(
        game,
        {
            0: option(game, 0, type="build", card="Temple"),
            1: None,
            2: None,
        },
    )
    deal(game, 0, "Barracks", "Stockade", "Loom", "Press", "Tavern", "Well")
    assert not [a for a in game.legal_actions(0) if a.get("card") == "Barracks" and a["type"] == "build"]
    to_turn(game, 6)
    deal(game, 0, "Barracks", "Courthouse")
    assert option(game, 0, type="build", card="Courthouse")["free"] == "last_of_age"
    play(
        game,
        {
            0: option(game, 0, type="build", card="Courthouse"),
            1: None,
            2: None,
        },
    )
    assert {"Temple", "Courthouse"} <= set(game.view(0)["players"][0]["city"])
    assert game.age == 2


# ----- scoring ----------------------------------------------------------------------------------------


def test_gizah_night_has_four_stages_worth_20():
    game = new(wonders=["Gizah", "Rhodos", "Ephesos"], side="night")
    assert game.view(0)["players"][0]["stages_total"] == 4
    give_stages(game, 0, 4)
    assert scoring.score_seat(game, 0)["wonder"] == 3 + 5 + 5 + 7


def test_guilds_and_commerce_score_at_the_end():
    game = new(wonders=["Gizah", "Rhodos", "Ephesos"])
    give(game, 0, "Workers Guild", "Decorators Guild", "Builders Guild", "Lighthouse", "Marketplace")
    give(game, 1, "Lumber Yard", "Stone Pit")
    give(game, 2, "Clay Pool")
    give_stages(game, 0, 3)
    give_stages(game, 1, 1)
    points = scoring.score_seat(game, 0)
    assert points["guilds"] == 3 + 7 + 4  # neighbours' brown; complete wonder; stages of all three
    assert points["commercial"] == 2  # Lighthouse: 1 per yellow, itself included
    assert points["wonder"] == 3 + 5 + 7


def test_ties_go_to_coins_then_are_shared():
    game = new()
    finish_age(game)
    finish_age(game)
    finish_age(game)
    result = game.result()
    assert result["winners"] == [0, 1, 2]  # same points, same coins: a shared victory
    game2 = new()
    finish_age(game2)
    finish_age(game2)
    to_turn(game2, 6)
    game2.players[1].coins += 2  # 59 coins: still 19 treasury points, but the most coins
    finish_age(game2)
    result = game2.result()
    assert [s["total"] for s in result["scores"]] == [19, 19, 19]
    assert result["winners"] == [1]


def test_totals_are_the_sum_of_categories():
    game = new()
    give(game, 0, "Palace", "Apothecary", "Haven", "Spies Guild", "Arsenal")
    result = game.result()
    for score in result["scores"]:
        assert score["total"] == sum(score["categories"].values())
    assert result["categories"] == ["military", "treasury", "wonder", "civilian", "commercial", "guilds", "science"]


def test_hands_pass_left_in_ages_one_and_three_and_right_in_age_two():
    game = new()
    for age, receiver_of_seat_0 in ((1, 1), (2, 2), (3, 1)):
        assert game.age == age and game.view(0)["direction"] == ("right" if age == 2 else "left")
        before = [list(h) for h in game.hands]
        discard_all(game)
        passed = [c for c in before[0] if c in game.hands[receiver_of_seat_0]]
        assert len(passed) == 6 and passed == game.hands[receiver_of_seat_0]
        finish_age(game)


def test_stage_coins_arrive_with_the_turn():
    game = new(wonders=["Ephesos", "Gizah", "Rhodos"])
    give_stages(game, 0, 1)
    give(game, 0, "Lumber Yard", "Timber Yard")  # 2 wood for day stage 2: 9 coins
    deal(game, 0, "Altar", "Loom", "Press", "Tavern", "Well", "Baths", "Stockade")
    play(game, {0: option(game, 0, type="wonder", card="Altar"), 1: None, 2: None})
    assert game.players[0].coins == 3 + 9
    assert game.view(1)["players"][0]["stages_built"] == 2
