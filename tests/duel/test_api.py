"""The public face: action validation, the shapes of actions and views, clone, replay, the CLI."""

import json
import random

import pytest

from app.engine import GameConfig, IllegalAction, new_game, replay
from app.play import main
from tests.duel.helpers import act, drafted, legal_of, new, play_random, put_in_reach, refused, set_coins


def test_new_game_dispatches_to_duel():
    game = new_game(GameConfig(game="duel", seed=1))
    assert type(game).__name__ == "DuelGame"
    assert game.to_act == [game.view(None)["first_player"]]
    with pytest.raises(ValueError, match="2 to 2 players"):
        GameConfig(game="duel", players=3)


def test_play_actions_are_json_and_have_the_documented_shapes():
    game = drafted(3)
    actions = game.legal_actions(0)
    json.dumps(actions)
    kinds = {a["type"] for a in actions}
    assert kinds <= {"build", "wonder", "discard"} and "discard" in kinds
    for a in actions:
        expected = {"build": {"type", "card", "cost"}, "wonder": {"type", "card", "wonder", "cost"}}
        keys = expected.get(a["type"], {"type", "card"})
        assert set(a) == keys or (a["type"] == "build" and set(a) == keys | {"free"})
    assert game.legal_actions(1) == []


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"type": "discard", "card": "Pantheon"}, "not an accessible card"),
        ({"type": "discard", "card": 3}, "needs 'card' (str)"),
        ({"type": "discard"}, "needs 'card'"),
        ({"type": "discard", "card": "X", "extra": 1}, "unknown field(s) ['extra']"),
        ({"type": "choose_starter", "seat": 0}, "'choose_starter' is not legal now"),
        ({"type": "fly"}, "unknown action type 'fly'"),
        ({"card": "Altar"}, "needs a 'type'"),
        ("discard", "must be a JSON object"),
        ({"type": "wonder", "card": "Altar", "wonder": "The Colossus"}, "not one of your Wonders"),
    ],
)
def test_illegal_actions_are_refused_and_change_nothing(action, message):
    mine = ["The Pyramids", "The Sphinx", "Piraeus", "The Mausoleum"]
    theirs = ["The Colossus", "Circus Maximus", "The Great Library", "The Appian Way"]
    game = drafted(3, (mine, theirs))
    put_in_reach(game, "Altar")
    assert message in refused(game, 0, action)


def test_wrong_seat_and_out_of_turn():
    game = drafted(3)
    action = game.legal_actions(0)[0]
    assert "has nothing to decide now" in refused(game, 1, action)
    assert "there is no seat 2" in refused(game, 2, action)
    assert "seat must be an integer" in refused(game, "0", action)
    assert "seat must be an integer" in refused(game, True, action)
    with pytest.raises(IllegalAction):
        game.legal_actions(5)


def test_unaffordable_and_wrong_costs_are_refused():
    game = drafted(3)
    put_in_reach(game, "Pretorium")
    set_coins(game, 0, 7)
    assert "Pretorium costs you 8 coins and you have 7" in refused(game, 0, {"type": "build", "card": "Pretorium"})
    put_in_reach(game, "Altar")
    assert "wrong 'cost' 1" in refused(game, 0, {"type": "build", "card": "Altar", "cost": 1})
    assert "wrong 'cost' False" in refused(game, 0, {"type": "build", "card": "Altar", "cost": False})
    assert "'free' does not belong here" in refused(game, 0, {"type": "build", "card": "Altar", "free": "chain"})
    wonder = game.view(0)["players"][0]["wonders"][0]["name"]
    message = refused(game, 0, {"type": "wonder", "card": "Altar", "wonder": wonder, "cost": 99})
    assert "wrong 'cost' 99" in message or "costs you" in message


def test_restated_fields_may_be_left_out():
    game = drafted(3)
    put_in_reach(game, "Altar")
    events = game.apply(0, {"type": "build", "card": "Altar"})
    assert events[0] == {"type": "built", "seat": 0, "card": "Altar", "cost": 0}
    assert game.log[-1] == {"seat": 0, "action": {"type": "build", "card": "Altar"}}


def test_decisions_are_validated_too():
    game = drafted(3)
    game.board_tokens = [game.data.token_ids["Law"]]
    game.players[0].science["quill"] = 1
    put_in_reach(game, "Scriptorium")
    act(game, {"type": "build", "card": "Scriptorium", "cost": 2})
    assert game.view(0)["phase"] == "choose_progress"
    assert "is not a progress token on the board; choose one of ['Law']" in refused(
        game, 0, {"type": "choose_progress", "token": "Philosophy"}
    )
    assert "'discard' is not legal now" in refused(game, 0, {"type": "discard", "card": "Altar"})
    act(game, {"type": "choose_progress", "token": "Law"})
    assert game.to_act == [1]


def test_view_shape():
    game = drafted(3)
    for seat in (0, 1, None):
        view = game.view(seat)
        json.dumps(view)
        for key in (
            "age",
            "conflict_pawn",
            "players",
            "structure",
            "progress_tokens_board",
            "to_act",
            "phase",
            "version",
        ):
            assert key in view
        for p in view["players"]:
            assert {"coins", "city", "wonders", "progress_tokens"} <= set(p)
            assert all(set(w) == {"name", "built"} for w in p["wonders"])
    assert game.view(0)["version"] == len(game.log)


def test_legal_actions_can_be_changed_by_the_caller_without_harm():
    game = drafted(3)
    first = game.legal_actions(0)
    first[0]["cost"] = -5
    first[0]["card"] = "Nothing"
    second = game.legal_actions(0)
    assert second[0]["card"] != "Nothing"
    assert "wrong 'cost' -5" in refused(game, 0, {**second[0], "cost": -5})
    act(game, second[0])


def test_every_listed_action_is_accepted():
    rng = random.Random(9)
    for seed in range(30):
        game = new(seed)
        while not game.is_over:
            seat = game.to_act[0]
            actions = game.legal_actions(seat)
            for action in actions:
                other = game.clone()
                other.apply(seat, action)
            game.apply(seat, rng.choice(actions))


def test_clone_is_independent_and_replays_the_same():
    game = new(8)
    rng = random.Random(8)
    play_random(game, rng, steps=30)
    twin = game.clone()
    before = game.snapshot()
    play_random(twin, random.Random(1))
    assert game.snapshot() == before
    rng_a, rng_b = random.Random(5), random.Random(5)
    other = game.clone()
    play_random(game, rng_a)
    play_random(other, rng_b)
    assert other.snapshot() == game.snapshot()
    assert replay(game.config, game.log).snapshot() == game.snapshot()


def test_same_seed_same_game():
    a, b = new(21), new(21)
    assert a.snapshot() == b.snapshot()
    assert new(22).snapshot() != a.snapshot()


def test_play_cli_prints_a_duel_score_sheet(capsys):
    assert main(["--game", "duel", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "winner: seat" in out and " victory" in out and "treasury" in out
    assert main(["--game", "duel", "--seed", "4", "--bots", "random"]) == 0


def test_actions_after_the_draft_are_card_actions_only():
    game = drafted(3)
    assert legal_of(game, "draft_wonder") == []
