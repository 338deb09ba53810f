"""Guilds (counting the city that has the most), commercial cards' coins, and the score sheet."""

import pytest

from tests.duel.helpers import build, coins, drafted, give, points, set_coins


def built_cost(events):
    return next(e for e in events if e["type"] == "built")["cost"]


def test_merchants_guild_counts_the_city_with_the_most_yellow_cards():
    game = drafted(1)
    give(game, 0, "Tavern")
    give(game, 1, "Stone Reserve", "Clay Reserve", "Wood Reserve")
    set_coins(game, 0, 8)
    events = build(game, "Merchants Guild", cost=8)  # 4 resources at 2
    assert {"type": "coins", "seat": 0, "amount": 3} in events  # 1 coin per yellow card of seat 1's city
    assert coins(game) == [3, 7]
    assert points(game, 0)["guilds"] == 3
    give(game, 1, "Customs House")
    assert points(game, 0)["guilds"] == 4  # points are counted at the end


def test_shipowners_guild_counts_brown_and_grey_together():
    game = drafted(1)
    give(game, 0, "Lumber Yard", "Press")
    give(game, 1, "Clay Pool", "Quarry", "Glassworks")
    set_coins(game, 0, 9)
    events = build(game, "Shipowners Guild", cost=9)  # clay, stone and glass at 3; papyrus produced
    assert coins(game) == [3, 7]
    assert {"type": "coins", "seat": 0, "amount": 3} in events
    assert points(game, 0)["guilds"] == 3


def test_builders_guild_counts_wonders_of_the_city_with_the_most():
    game = drafted(1)
    spare = iter(game.removed)
    for seat, count in ((0, 1), (1, 3)):
        p = game.players[seat]
        for w in p.unbuilt[:count]:
            p.built[w] = next(spare)
        p.unbuilt = p.unbuilt[count:]
    set_coins(game, 0, 12)
    events = build(game, "Builders Guild", cost=10)
    assert coins(game) == [2, 7]
    assert not any(e["type"] == "coins" for e in events)
    assert points(game, 0)["guilds"] == 6


def test_moneylenders_guild_counts_sets_of_three_coins_of_the_richer_city():
    game = drafted(1)
    set_coins(game, 0, 8)
    build(game, "Moneylenders Guild", cost=8)
    set_coins(game, 0, 5)
    set_coins(game, 1, 20)
    assert points(game, 0)["guilds"] == 6
    assert points(game, 0)["treasury"] == 1 and points(game, 1)["treasury"] == 6


@pytest.mark.parametrize(
    ("guild", "mine", "theirs", "count"),
    [
        ("Magistrates Guild", ["Altar", "Theater"], ["Baths"], 2),
        ("Scientists Guild", ["Workshop"], ["Apothecary", "Scriptorium", "Pharmacist"], 3),
        ("Tacticians Guild", ["Guard Tower", "Stable"], ["Garrison"], 2),
    ],
)
def test_colour_guilds_give_coins_and_points_per_card_of_the_city_with_the_most(guild, mine, theirs, count):
    game = drafted(1)
    give(game, 0, *mine)
    give(game, 1, *theirs)
    set_coins(game, 0, 10)
    events = build(game, guild)
    assert coins(game) == [10 - built_cost(events) + count, 7]
    assert points(game, 0)["guilds"] == count


@pytest.mark.parametrize(
    ("card", "owned", "gain"),
    [
        ("Chamber of Commerce", ["Glassworks", "Press"], 6),  # 3 per grey card
        ("Port", ["Lumber Yard", "Quarry", "Clay Pool"], 6),  # 2 per brown card
        ("Armory", ["Guard Tower", "Stable"], 2),  # 1 per red card
        ("Lighthouse", ["Clay Reserve", "Wood Reserve"], 3),  # 1 per yellow card, itself included
    ],
)
def test_commercial_cards_pay_per_card_of_the_own_city(card, owned, gain):
    game = drafted(1)
    give(game, 0, *owned)
    set_coins(game, 0, 20)
    events = build(game, card)
    assert {"type": "coins", "seat": 0, "amount": gain} in events
    assert coins(game) == [20 - built_cost(events) + gain, 7]
    assert points(game, 0)["commercial"] == 3


def test_arena_pays_two_per_own_wonder():
    game = drafted(1)
    p = game.players[0]
    for w, card in zip(p.unbuilt[:2], game.removed, strict=False):
        p.built[w] = card
    p.unbuilt = p.unbuilt[2:]
    set_coins(game, 0, 6)
    events = build(game, "Arena", cost=6)
    assert coins(game) == [4, 7]
    assert {"type": "coins", "seat": 0, "amount": 4} in events


def test_score_sheet_categories_and_totals():
    game = drafted(1)
    give(game, 0, "Palace", "Library", "Port", "Merchants Guild", "Stone Reserve")
    game.military.pawn = 4
    set_coins(game, 0, 10)
    result = game.result()
    assert result["categories"] == [
        "military", "civilian", "science", "commercial", "guilds", "wonders", "progress", "treasury"
    ]  # fmt: skip
    sheet = result["scores"][0]
    assert sheet["categories"] == {
        "military": 5, "civilian": 7, "science": 2, "commercial": 3,
        "guilds": 2, "wonders": 0, "progress": 0, "treasury": 3,
    }  # fmt: skip
    assert sheet["total"] == 22 and sheet["coins"] == 10 and sheet["seat"] == 0
    assert result["finished"] is False and result["victory"] is None
