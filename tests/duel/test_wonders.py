"""Each of the 12 Wonders, the 7th-Wonder rule, and play-again (Theology, end of an Age).

Without production anywhere, every resource costs 2 coins at the bank.
"""

from tests.duel.helpers import (
    act,
    build,
    build_wonder,
    coins,
    drafted,
    give,
    give_token,
    leave_last_card,
    legal_of,
    points,
    put_in_reach,
    set_coins,
    take_out,
    with_wonder,
)


def wonder_action(game, wonder):
    return next(a for a in legal_of(game, "wonder") if a["wonder"] == wonder)


def built_event(events):
    return next(e for e in events if e["type"] == "wonder_built")


def test_the_appian_way_takes_three_coins_from_the_opponent_and_plays_again():
    game = with_wonder("The Appian Way", coins=12)
    set_coins(game, 1, 5)
    events = build_wonder(game, "The Appian Way")
    assert built_event(events)["cost"] == 10  # papyrus, 2 clay, 2 stone
    assert coins(game) == [12 - 10 + 3, 2]
    assert {"type": "play_again", "seat": 0} in events
    assert game.to_act == [0]
    assert points(game, 0)["wonders"] == 3


def test_the_opponent_loses_only_the_coins_they_have():
    game = with_wonder("The Appian Way", coins=10)
    set_coins(game, 1, 2)
    build_wonder(game, "The Appian Way")
    assert coins(game) == [3, 0]


def test_circus_maximus_destroys_a_grey_card_and_gives_a_shield():
    game = with_wonder("Circus Maximus", coins=10)
    give(game, 1, "Glassworks", "Press", "Lumber Yard")
    events = build_wonder(game, "Circus Maximus")
    assert built_event(events)["cost"] == 10  # glass at 3, wood at 3, 2 stone at 2
    assert coins(game) == [0, 7]
    assert game.view(None)["conflict_pawn"] == 1
    assert {"type": "decision", "kind": "destroy", "seat": 0} in events
    assert game.view(0)["decision"] == {"kind": "destroy", "seat": 0, "options": ["Glassworks", "Press"]}
    assert legal_of(game, "destroy") == [
        {"type": "destroy", "card": "Glassworks"},
        {"type": "destroy", "card": "Press"},
    ]
    events = act(game, {"type": "destroy", "card": "Press"})
    assert events[0] == {"type": "destroyed", "seat": 0, "owner": 1, "card": "Press"}
    view = game.view(None)
    assert view["players"][1]["city"] == ["Glassworks", "Lumber Yard"]
    assert view["players"][1]["production"] == {"wood": 1, "glass": 1}
    assert view["discard"] == ["Press"]
    assert view["players"][0]["trade_prices"]["papyrus"] == 2
    assert game.to_act == [1]
    assert points(game, 0)["wonders"] == 3


def test_the_colossus_gives_two_shields():
    game = with_wonder("The Colossus", coins=8)
    events = build_wonder(game, "The Colossus")
    assert built_event(events)["cost"] == 8
    assert {"type": "military", "seat": 0, "shields": 2, "pawn": 2} in events
    assert game.view(None)["conflict_pawn"] == 2
    assert points(game, 0)["military"] == 2 and points(game, 0)["wonders"] == 3
    assert game.to_act == [1]


def test_the_great_library_offers_three_tokens_from_the_box_to_its_builder_only():
    game = with_wonder("The Great Library", coins=10)
    box = game.snapshot()["box_tokens"]
    events = build_wonder(game, "The Great Library")
    assert coins(game) == [0, 7]
    assert {"type": "decision", "kind": "choose_box_token", "seat": 0} in events
    offer = game.view(0)["decision"]["options"]
    assert offer == box[:3]
    assert [a["token"] for a in game.legal_actions(0)] == offer
    for seat in (1, None):
        shown = str(game.view(seat))
        assert all(token not in shown for token in box)
    assert all(token not in str(events) for token in box)
    events = act(game, {"type": "choose_box_token", "token": offer[1]})
    assert events[0] == {"type": "progress_token", "seat": 0, "token": offer[1]}
    assert game.view(None)["players"][0]["progress_tokens"] == [offer[1]]
    assert game.snapshot()["box_tokens"] == [t for t in box if t != offer[1]]
    assert game.view(0)["decision"] is None
    assert points(game, 0)["wonders"] == 4


def test_the_great_lighthouse_produces_one_raw_material_of_choice_without_raising_prices():
    game = with_wonder("The Great Lighthouse", coins=8)
    build_wonder(game, "The Great Lighthouse")
    view = game.view(None)
    assert view["players"][0]["choices"] == [["wood", "clay", "stone"]]
    assert view["players"][1]["trade_prices"]["stone"] == 2
    act(game, legal_of(game, "discard")[0])
    build(game, "Baths", cost=0)
    assert points(game, 0)["wonders"] == 4


def test_the_hanging_gardens_give_six_coins_and_another_turn():
    game = with_wonder("The Hanging Gardens", coins=8)
    events = build_wonder(game, "The Hanging Gardens")
    assert built_event(events)["cost"] == 8
    assert coins(game) == [6, 7]
    assert game.to_act == [0]
    assert points(game, 0)["wonders"] == 3


def test_the_mausoleum_builds_a_discarded_card_for_free():
    game = with_wonder("The Mausoleum", coins=10)
    for name in ("Tavern", "Scriptorium"):
        game.discard.append(take_out(game, name))
    events = build_wonder(game, "The Mausoleum")
    assert coins(game) == [0, 7]
    assert {"type": "decision", "kind": "build_from_discard", "seat": 0} in events
    assert legal_of(game, "build_from_discard") == [
        {"type": "build_from_discard", "card": "Tavern"},
        {"type": "build_from_discard", "card": "Scriptorium"},
    ]
    events = act(game, {"type": "build_from_discard", "card": "Tavern"})
    assert events[0] == {"type": "built_from_discard", "seat": 0, "card": "Tavern"}
    view = game.view(None)
    assert view["players"][0]["city"] == ["Tavern"]
    assert view["players"][0]["coins"] == 4  # the Tavern's coins
    assert view["discard"] == ["Scriptorium"]
    assert game.to_act == [1]
    assert points(game, 0)["wonders"] == 2


def test_the_mausoleum_with_an_empty_discard_pile_does_nothing_more():
    game = with_wonder("The Mausoleum", coins=10)
    events = build_wonder(game, "The Mausoleum")
    assert {"type": "skipped", "seat": 0, "kind": "build_from_discard", "reason": "empty discard pile"} in events
    assert game.to_act == [1] and game.view(None)["phase"] == "play"


def test_piraeus_produces_glass_or_papyrus_and_plays_again():
    game = with_wonder("Piraeus", coins=8)
    build_wonder(game, "Piraeus")
    assert game.view(None)["players"][0]["choices"] == [["glass", "papyrus"]]
    assert game.to_act == [0]
    build(game, "Workshop", cost=0)  # a papyrus from Piraeus
    assert points(game, 0)["wonders"] == 2


def test_the_pyramids_are_worth_nine_points():
    game = with_wonder("The Pyramids", coins=8)
    events = build_wonder(game, "The Pyramids")
    assert built_event(events)["cost"] == 8
    assert coins(game) == [0, 7]
    assert game.to_act == [1]
    assert points(game, 0)["wonders"] == 9


def test_the_sphinx_plays_again_and_is_worth_six():
    game = with_wonder("The Sphinx", coins=8)
    build_wonder(game, "The Sphinx")
    assert game.to_act == [0]
    assert points(game, 0)["wonders"] == 6


def test_the_statue_of_zeus_destroys_a_brown_card():
    game = with_wonder("The Statue of Zeus", coins=15)
    give(game, 1, "Lumber Yard", "Clay Pool", "Press")
    events = build_wonder(game, "The Statue of Zeus")
    assert built_event(events)["cost"] == 14  # 2 papyrus at 3, wood at 3, clay at 3, stone at 2
    assert coins(game) == [1, 7]
    assert game.view(None)["conflict_pawn"] == 1
    assert [a["card"] for a in legal_of(game, "destroy")] == ["Lumber Yard", "Clay Pool"]
    act(game, {"type": "destroy", "card": "Clay Pool"})
    assert game.view(None)["players"][1]["city"] == ["Lumber Yard", "Press"]
    assert points(game, 0)["wonders"] == 3


def test_the_statue_of_zeus_without_a_brown_card_to_destroy():
    game = with_wonder("The Statue of Zeus", coins=10)
    events = build_wonder(game, "The Statue of Zeus")
    assert {"type": "skipped", "seat": 0, "kind": "destroy", "reason": "no card of that colour"} in events
    assert game.to_act == [1]


def test_the_temple_of_artemis_gives_twelve_coins_and_another_turn():
    game = with_wonder("The Temple of Artemis", coins=8)
    build_wonder(game, "The Temple of Artemis")
    assert coins(game) == [12, 7]
    assert game.to_act == [0]
    assert points(game, 0)["wonders"] == 0


def test_the_card_used_for_a_wonder_leaves_the_structure():
    game = with_wonder("The Pyramids", coins=8)
    put_in_reach(game, "Altar")
    events = build_wonder(game, "The Pyramids", card="Altar")
    assert built_event(events)["card"] == "Altar"
    view = game.view(None)
    assert "Altar" not in str(view["structure"]) and view["players"][0]["city"] == []
    assert game.snapshot()["players"][0]["built"] == {"The Pyramids": "Altar"}


def test_only_seven_wonders_are_built_and_the_last_goes_back_to_the_box():
    game = drafted(2)
    data = game.data
    mine, theirs = (game.players[s].unbuilt[:] for s in (0, 1))
    spare = iter(game.removed)
    for seat, wonders in ((0, mine[:3]), (1, theirs[:3])):
        for w in wonders:
            game.players[seat].built[w] = next(spare)
            game.players[seat].unbuilt.remove(w)
            game.wonders_total += 1
    set_coins(game, 0, 30)
    seventh, eighth = data.wonders[mine[3]].name, data.wonders[theirs[3]].name
    assert game.view(None)["wonders_built"] == 6
    events = build_wonder(game, seventh)
    assert {"type": "wonder_returned", "seat": 1, "wonder": eighth} in events
    view = game.view(None)
    assert view["wonders_built"] == 7
    assert eighth not in [w["name"] for w in view["players"][1]["wonders"]]
    assert len(view["players"][1]["wonders"]) == 3
    assert eighth in game.snapshot()["wonder_box"]
    if game.to_act == [0]:
        act(game, legal_of(game, "discard")[0])
    set_coins(game, 1, 30)
    assert legal_of(game, "wonder") == []


def test_theology_gives_every_wonder_another_turn_but_only_one():
    game = with_wonder("The Pyramids", coins=20)
    give_token(game, 0, "Theology")
    build_wonder(game, "The Pyramids")
    assert game.to_act == [0]
    build_wonder(game, "The Sphinx")
    assert game.to_act == [0]
    act(game, legal_of(game, "discard")[0])
    assert game.to_act == [1]


def test_play_again_is_lost_at_the_end_of_an_age():
    game = with_wonder("The Sphinx", coins=8)
    leave_last_card(game, "Altar")
    events = build_wonder(game, "The Sphinx", card="Altar")
    assert not any(e["type"] == "play_again" for e in events)
    assert {"type": "age_over", "age": 1} in events
    assert game.view(None)["phase"] == "choose_starter"
    assert game.to_act == [0]  # the pawn is in the centre: the last to act chooses
