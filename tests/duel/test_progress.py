"""Progress tokens: taking one for a pair of symbols, and each token's effect.

Architecture, Economy, Masonry and Urbanism are exercised in test_trading, Theology in test_wonders.
"""

import pytest

from tests.duel.helpers import (
    act,
    build,
    build_wonder,
    coins,
    drafted,
    give,
    give_token,
    points,
    put_on_board,
    set_coins,
    with_wonder,
)

BOARD = ("Agriculture", "Law", "Mathematics", "Philosophy", "Strategy")


def paired(seed: int = 1):
    """Seat 0 has a Workshop and builds a Laboratory: a pair of plumb lines."""
    game = drafted(seed)
    put_on_board(game, *BOARD)
    give(game, 0, "Workshop")
    events = build(game, "Laboratory", cost=6)
    return game, events


def test_a_pair_of_symbols_lets_the_player_take_a_token_from_the_board():
    game, events = paired()
    assert {"type": "decision", "kind": "choose_progress", "seat": 0} in events
    view = game.view(0)
    assert view["phase"] == "choose_progress" and game.to_act == [0]
    assert view["decision"] == {"kind": "choose_progress", "seat": 0, "options": list(BOARD)}
    assert "options" not in game.view(1)["decision"]
    assert [a["token"] for a in game.legal_actions(0)] == list(BOARD)


def test_agriculture_gives_six_coins_and_four_points():
    game, _ = paired()
    assert coins(game) == [1, 7]
    events = act(game, {"type": "choose_progress", "token": "Agriculture"})
    assert events[:2] == [
        {"type": "progress_token", "seat": 0, "token": "Agriculture"},
        {"type": "coins", "seat": 0, "amount": 6},
    ]
    assert coins(game) == [7, 7]
    assert game.view(None)["progress_tokens_board"] == ["Law", "Mathematics", "Philosophy", "Strategy"]
    assert points(game, 0)["progress"] == 4
    assert game.to_act == [1]


def test_a_third_symbol_or_an_empty_board_gives_no_token():
    game = drafted(1)
    game.board_tokens = []
    give(game, 0, "Workshop")
    events = build(game, "Laboratory")
    assert not any(e["type"] == "decision" for e in events)
    assert game.to_act == [1]


def test_philosophy_is_worth_seven_points_and_mathematics_three_per_token():
    game = drafted(1)
    give_token(game, 0, "Philosophy")
    assert points(game, 0)["progress"] == 7
    give_token(game, 0, "Mathematics")
    give_token(game, 0, "Agriculture")
    assert points(game, 0)["progress"] == 7 + 4 + 3 * 3


def test_law_is_a_science_symbol_that_counts_toward_supremacy():
    game = drafted(1)
    put_on_board(game, *BOARD)
    give(game, 0, "Workshop", "Apothecary", "Scriptorium", "Pharmacist", "Academy")
    build(game, "Library", cost=0, free="chain")  # a second quill
    events = act(game, {"type": "choose_progress", "token": "Law"})
    assert events[-1]["type"] == "game_over" and events[-1]["victory"] == "science"
    assert game.is_over and game.result()["winners"] == [0] and game.result()["victory"] == "science"
    assert game.view(0)["players"][0]["science"]["law"] == 1


def test_strategy_adds_a_shield_to_red_cards_only():
    game = with_wonder("The Colossus", coins=20)
    give_token(game, 0, "Strategy")
    events = build(game, "Guard Tower", cost=0)
    assert {"type": "military", "seat": 0, "shields": 2, "pawn": 2} in events
    act(game, {"type": "discard", "card": game.legal_actions(1)[-1]["card"]})
    build_wonder(game, "The Colossus")
    assert game.view(None)["conflict_pawn"] == 4


def test_six_different_symbols_win_at_once():
    game = drafted(1)
    give(game, 0, "Workshop", "Apothecary", "Scriptorium", "Pharmacist", "Academy")
    set_coins(game, 0, 10)
    events = build(game, "University", cost=6)  # clay, glass and papyrus: the sixth symbol
    assert events[-1]["type"] == "game_over" and events[-1]["victory"] == "science"
    assert game.is_over and game.to_act == []
    assert game.result()["winners"] == [0] and game.result()["victory"] == "science"


def test_the_opponent_can_win_by_science_too():
    game = drafted(1)
    give(game, 1, "Workshop", "Apothecary", "Scriptorium", "Pharmacist", "Academy")
    act(game, {"type": "discard", "card": game.legal_actions(0)[-1]["card"]})
    set_coins(game, 1, 10)
    build(game, "Observatory", cost=6)
    assert game.result()["winners"] == [1] and game.result()["victory"] == "science"


@pytest.mark.parametrize(("token", "gain"), [("Urbanism", 6), ("Agriculture", 6), ("Masonry", 0), ("Economy", 0)])
def test_tokens_taken_for_a_pair_give_their_coins_at_once(token, gain):
    game = drafted(1)
    put_on_board(game, token)
    give(game, 0, "Workshop")
    set_coins(game, 0, 6)
    build(game, "Laboratory", cost=6)
    act(game, {"type": "choose_progress", "token": token})
    assert coins(game) == [gain, 7]
    assert game.view(None)["progress_tokens_board"] == []
