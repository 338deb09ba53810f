"""Face-down cards turning up, who starts the next Age, the last Age and civilian victory."""

from app.engine.duel.structure import Structure
from tests.duel.helpers import act, build, drafted, give, leave_last_card, set_coins, set_turn


def test_uncovered_cards_turn_face_up():
    game = drafted(4)
    structure = game.structure
    front = [game.cards[structure.cards[s]].name for s in (14, 15)]
    hidden = game.cards[structure.cards[9]].name
    act(game, {"type": "discard", "card": front[0]})
    assert game.view(None)["structure"][9] == {"slot": 9, "row": 3, "col": 2, "back": "age 1", "accessible": False}
    events = act(game, {"type": "discard", "card": front[1]})
    assert {"type": "card_revealed", "slot": 9, "card": hidden} in events
    assert game.view(None)["structure"][9] == {"slot": 9, "row": 3, "col": 2, "card": hidden, "accessible": True}
    assert game.view(None)["structure"][14] == {"slot": 14, "row": 4, "col": 1, "taken": True, "accessible": False}


def end_age_with(game, seat, pawn):
    game.military.pawn = pawn
    set_turn(game, seat)
    leave_last_card(game, "Altar")
    return act(game, {"type": "discard", "card": "Altar"})


def test_the_weaker_player_chooses_who_starts_the_next_age():
    game = drafted(4)
    events = end_age_with(game, seat=0, pawn=2)  # the pawn is on seat 1's half
    assert events[-1] == {"type": "decision", "kind": "choose_starter", "seat": 1}
    assert game.to_act == [1]
    assert game.legal_actions(1) == [{"type": "choose_starter", "seat": 0}, {"type": "choose_starter", "seat": 1}]
    events = act(game, {"type": "choose_starter", "seat": 1})
    assert events == [
        {"type": "starter_chosen", "seat": 1, "starter": 1},
        {"type": "age_started", "age": 2, "starter": 1},
    ]
    view = game.view(None)
    assert view["age"] == 2 and view["to_act"] == [1] and view["phase"] == "play"
    assert [s["slot"] for s in view["structure"] if s["accessible"]] == [18, 19]
    assert sum(1 for s in view["structure"] if s.get("back") == "age 2") == 8


def test_on_a_military_tie_the_last_player_to_act_chooses():
    game = drafted(4)
    end_age_with(game, seat=1, pawn=0)
    assert game.to_act == [1]
    act(game, {"type": "choose_starter", "seat": 0})
    assert game.to_act == [0] and game.age == 2


def test_the_player_ahead_does_not_choose():
    game = drafted(4)
    end_age_with(game, seat=1, pawn=-3)  # seat 0 is weaker
    assert game.to_act == [0]


def last_age(seed=4):
    """A game moved on to Age III: the earlier cards are set aside."""
    game = drafted(seed)
    game.removed += game.structure.remaining() + game.decks.pop(2)
    game.age = 3
    game.structure = Structure(3, game.data.layouts[3], game.decks.pop(3))
    return game


def test_the_end_of_age_three_is_a_civilian_victory_by_points():
    game = last_age()
    give(game, 0, "Palace")  # 7 civilian points
    give(game, 1, "Temple")  # 4
    set_coins(game, 0, 0)
    set_coins(game, 1, 10)
    set_turn(game, 1)
    leave_last_card(game, "Obelisk")
    events = act(game, {"type": "discard", "card": "Obelisk"})  # 2 more coins: 12, 4 points of treasury
    over = events[-1]
    assert over["type"] == "game_over" and over["victory"] == "civilian" and over["winners"] == [1]
    result = game.result()
    assert result["victory"] == "civilian" and result["winners"] == [1]
    assert [s["total"] for s in result["scores"]] == [7, 8]
    assert [s["coins"] for s in result["scores"]] == [0, 12]
    assert result["scores"][1]["categories"] == {
        "military": 0, "civilian": 4, "science": 0, "commercial": 0,
        "guilds": 0, "wonders": 0, "progress": 0, "treasury": 4,
    }  # fmt: skip


def test_a_tie_goes_to_more_civilian_points_then_is_shared():
    game = last_age()
    give(game, 0, "Palace")  # 7 civilian
    give(game, 1, "Temple", "Workshop")  # 4 civilian, 1 science
    set_coins(game, 0, 0)
    set_coins(game, 1, 4)  # after the discard below, 6 coins: 2 points
    set_turn(game, 1)
    leave_last_card(game, "Obelisk")
    act(game, {"type": "discard", "card": "Obelisk"})
    result = game.result()
    assert [s["total"] for s in result["scores"]] == [7, 7]
    assert result["winners"] == [0]

    game = last_age()
    give(game, 0, "Palace")
    give(game, 1, "Gardens", "Workshop")  # 6 civilian + 1 science
    set_coins(game, 0, 0)
    set_coins(game, 1, 0)
    set_turn(game, 1)
    leave_last_card(game, "Obelisk")
    act(game, {"type": "discard", "card": "Obelisk"})
    result = game.result()
    assert [s["total"] for s in result["scores"]] == [7, 7]
    assert [s["categories"]["civilian"] for s in result["scores"]] == [7, 6]
    assert result["winners"] == [0]
    assert game.legal_actions(0) == game.legal_actions(1) == []


def test_a_full_tie_is_shared():
    game = last_age()
    give(game, 0, "Palace")
    give(game, 1, "Town Hall")
    set_coins(game, 0, 0)
    set_coins(game, 1, 0)
    set_turn(game, 1)
    leave_last_card(game, "Obelisk")
    act(game, {"type": "discard", "card": "Obelisk"})
    result = game.result()
    assert [s["total"] for s in result["scores"]] == [7, 7]
    assert result["winners"] == [0, 1] and result["victory"] == "civilian"


def test_the_last_card_of_age_three_resolves_its_decisions_before_the_end():
    game = last_age()
    give(game, 0, "Workshop")
    game.board_tokens = [game.data.token_ids["Philosophy"]]
    set_coins(game, 0, 10)
    leave_last_card(game, "Laboratory")
    build(game, "Laboratory")
    assert not game.is_over and game.to_act == [0]
    events = act(game, {"type": "choose_progress", "token": "Philosophy"})
    assert game.is_over and events[-1]["victory"] == "civilian"


def test_face_down_guilds_show_the_guild_back():
    for seed in range(6):
        game = last_age(seed)
        snap = game.snapshot()["structure"]
        backs = [s.get("back") for s in game.view(0)["structure"]]
        for name, up, back in zip(snap["cards"], snap["up"], backs, strict=True):
            if not up:
                assert back == ("guild" if game.data.card_named(name).guild else "age 3")
        assert sum(game.data.card_named(n).guild for n in snap["cards"]) == 3
