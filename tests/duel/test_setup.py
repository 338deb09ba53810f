"""Setup and the Wonder draft."""

from collections import Counter

from tests.duel.helpers import act, drafted, new, refused


def test_starting_state():
    game = new(5)
    view = game.view(None)
    assert view["game"] == "duel" and view["phase"] == "draft" and view["age"] == 0
    assert [p["coins"] for p in view["players"]] == [7, 7]
    assert len(view["progress_tokens_board"]) == 5
    assert view["conflict_pawn"] == 0
    assert len(view["draft"]["offer"]) == 4
    assert view["structure"] == []
    snap = game.snapshot()
    assert len(snap["box_tokens"]) == 5
    assert len(snap["wonder_box"]) == 4
    assert set(snap["draft"]["pool"]).isdisjoint(snap["wonder_box"])


def test_setup_removes_three_cards_per_age_and_keeps_three_guilds():
    data = new().data
    for seed in range(20):
        snap = new(seed).snapshot()
        decks = snap["decks"]
        assert [len(decks[a]) for a in "123"] == [20, 20, 20]
        ages = Counter("guild" if data.card_named(n).guild else data.card_named(n).age for n in snap["removed"])
        assert ages == {1: 3, 2: 3, 3: 3, "guild": 4}
        assert sum(data.card_named(n).guild for n in decks["3"]) == 3


def test_draft_order_a_b_b_a_then_b_a_a_b():
    game = new(11)
    a = game.first
    b = 1 - a
    seats = []
    events = []
    while game.phase == "draft":
        seat = game.to_act[0]
        seats.append(seat)
        events += act(game, game.legal_actions(seat)[0])
    # the last Wonder of each round is not a decision: it goes to the player whose pick it is
    assert seats == [a, b, b, b, a, a]
    drafted_by = [e["seat"] for e in events if e["type"] == "wonder_drafted"]
    assert drafted_by == [a, b, b, a, b, a, a, b]
    assert [e.get("last_of_round", False) for e in events if e["type"] == "wonder_drafted"] == [
        False, False, False, True, False, False, False, True
    ]  # fmt: skip
    view = game.view(None)
    assert all(len(p["wonders"]) == 4 for p in view["players"])
    assert view["age"] == 1 and view["phase"] == "play" and view["to_act"] == [a]
    assert sum(1 for s in view["structure"] if s["accessible"]) == 6


def test_second_round_is_hidden_until_it_starts():
    game = new(3)
    snap = game.snapshot()
    second = snap["draft"]["pool"][4:]
    text = str(game.view(0)) + str(game.view(1)) + str(game.view(None))
    assert not any(name in text for name in second)
    while game.view(None)["draft"]["round"] == 1:
        act(game, game.legal_actions(game.to_act[0])[0])
    assert game.view(None)["draft"]["offer"] == second


def test_draft_refuses_a_wonder_not_on_offer():
    game = new(3)
    seat = game.to_act[0]
    hidden = game.snapshot()["draft"]["pool"][5]
    message = refused(game, seat, {"type": "draft_wonder", "wonder": hidden})
    assert "not one of the Wonders on offer" in message
    assert refused(game, 1 - seat, game.legal_actions(seat)[0]).startswith(f"seat {1 - seat} has nothing to decide")


def test_age_one_structure_view():
    game = drafted(2)
    structure = game.view(0)["structure"]
    assert len(structure) == 20
    for slot in structure:
        if slot["row"] % 2 == 0:
            assert "card" in slot
        else:
            assert slot["back"] == "age 1" and "card" not in slot
        assert slot["accessible"] == (slot["row"] == 4)
