"""The conflict pawn, the loot tokens, military supremacy and military points."""

from tests.duel.helpers import act, build, coins, drafted, give_token, points, refused, set_coins, set_turn


def test_shields_push_the_pawn_toward_the_opponents_capital():
    game = drafted(1)
    build(game, "Guard Tower")
    assert game.view(None)["conflict_pawn"] == 1
    build(game, "Garrison", cost=2)  # seat 1 answers: clay bought for 2
    assert game.view(None)["conflict_pawn"] == 0
    build(game, "Stable", cost=2)
    assert game.view(None)["conflict_pawn"] == 1


def test_loot_tokens_are_taken_once_when_the_pawn_enters_their_zone():
    game = drafted(1)
    game.military.pawn = 2
    set_coins(game, 0, 30)
    events = build(game, "Guard Tower")
    assert {"type": "loot", "seat": 1, "token": 2, "lost": 2} in events
    assert coins(game) == [30, 5]
    assert game.view(None)["military_tokens"] == [
        {"seat": 0, "from": 3, "coins": 2},
        {"seat": 0, "from": 6, "coins": 5},
        {"seat": 1, "from": 6, "coins": 5},
    ]
    game.military.pawn = 2
    set_turn(game, 0)
    events = build(game, "Palisade", cost=2)
    assert not any(e["type"] == "loot" for e in events)
    assert coins(game) == [28, 5]


def test_crossing_both_zones_at_once_takes_both_tokens_up_to_the_coins_left():
    game = drafted(1)
    give_token(game, 0, "Strategy")
    game.military.pawn = 2
    set_coins(game, 0, 8)
    set_coins(game, 1, 6)
    events = build(game, "Pretorium", cost=8)  # 3 shields + 1: from 2 to 6
    assert [e for e in events if e["type"] == "loot"] == [
        {"type": "loot", "seat": 1, "token": 2, "lost": 2},
        {"type": "loot", "seat": 1, "token": 5, "lost": 4},
    ]
    assert coins(game) == [0, 0]
    assert points(game, 0)["military"] == 10 and points(game, 1)["military"] == 0


def test_military_supremacy_wins_at_once():
    game = drafted(1)
    game.military.pawn = -7
    set_turn(game, 1)
    set_coins(game, 1, 10)
    events = build(game, "Walls", cost=4)
    assert events[-1]["type"] == "game_over"
    assert events[-1]["victory"] == "military" and events[-1]["winners"] == [1]
    view = game.view(None)
    assert view["conflict_pawn"] == -9 and view["phase"] == "over" and view["to_act"] == []
    assert game.is_over and game.to_act == [] and game.legal_actions(0) == []
    result = game.result()
    assert result["victory"] == "military" and result["winners"] == [1]
    assert "game is over" in refused(game, 0, {"type": "discard", "card": "Altar"})


def test_military_points_by_zone():
    game = drafted(1)
    for pawn, zero, one in ((0, 0, 0), (1, 2, 0), (2, 2, 0), (3, 5, 0), (5, 5, 0), (6, 10, 0), (-8, 0, 10), (-4, 0, 5)):
        game.military.pawn = pawn
        game._result = None
        assert (points(game, 0)["military"], points(game, 1)["military"]) == (zero, one)
    act(game, game.legal_actions(0)[0])
