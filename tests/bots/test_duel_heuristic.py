"""The Duel heuristic reads costs and the structure exactly as the engine does, takes (or denies)
the card of a supremacy, and beats the greedy bot."""

import copy
from typing import Any

from app.bots import make_bot
from app.bots.duel_box import duel_cards, duel_science_symbols, duel_wonders
from app.bots.duel_heuristic import DuelJudge, Weights
from app.engine import GameConfig, new_game
from tests.bots.test_bots import play


def play_views(seeds: range, kind: str = "random"):
    """(view, legal actions) of every decision of random Duel games at these seeds."""
    for seed in seeds:
        game = new_game(GameConfig(game="duel", seed=seed))
        bots = [make_bot(kind, seed=seed * 2 + i) for i in range(2)]
        while not game.is_over:
            for seat in game.to_act:
                view, legal = game.view(seat), game.legal_actions(seat)
                yield view, legal
                game.apply(seat, bots[seat].choose(view, legal))


def test_costs_and_accessible_cards_are_the_engines() -> None:
    """Over every decision of 15 random games: each build's and Wonder's cost as the bot computes it
    from the view equals the legal action's, and the cards the bot finds accessible are the view's."""
    checked = 0
    for view, legal in play_views(range(15)):
        if view["phase"] != "play":
            continue
        judge = DuelJudge(view, view["seat"], Weights())
        me = judge.sides[view["seat"]]
        assert sorted(judge.accessible_after(None)) == sorted(s["card"] for s in view["structure"] if s["accessible"])
        for action in legal:
            if action["type"] == "build":
                assert me.cost(duel_cards()[action["card"]]) == action["cost"], action
                checked += 1
            elif action["type"] == "wonder":
                assert me.cost(duel_wonders()[action["wonder"]], wonder=True) == action["cost"], action
                checked += 1
    assert checked > 1000


def a_play_view() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The first decision of the play phase of a Duel at seed 2 (after the Wonder draft)."""
    return next((v, a) for v, a in play_views(range(2, 3)) if v["phase"] == "play")


def one_symbol_from_science(whose: str) -> tuple[dict[str, Any], list[dict[str, Any]], str]:
    """A play view where `whose` ("me" or "opponent") has 5 different science symbols and an
    accessible card gives the 6th; the view, the legal actions and that card."""
    view, legal = a_play_view()
    builds = {a["card"] for a in legal if a["type"] == "build"}
    green = sorted(n for n in builds if duel_cards()[n].has("science"))
    assert green, "the test needs an accessible science card"
    symbol = next(e["symbol"] for e in duel_cards()[green[0]].effects if e["type"] == "science")
    view = copy.deepcopy(view)
    seat = view["seat"] if whose == "me" else 1 - view["seat"]
    view["players"][seat]["science"] = dict.fromkeys([s for s in duel_science_symbols() if s != symbol][:5], 1)
    return view, legal, green[0]


def test_the_heuristic_takes_the_symbol_that_wins_by_science() -> None:
    view, legal, card = one_symbol_from_science("me")
    chosen = make_bot("heuristic", seed=1).choose(view, legal)
    assert chosen["type"] == "build" and chosen["card"] == card


def test_the_heuristic_denies_the_symbol_that_would_win_the_opponent_the_game() -> None:
    view, legal, card = one_symbol_from_science("opponent")
    chosen = make_bot("heuristic", seed=1).choose(view, legal)
    assert chosen["card"] == card  # built, discarded or tucked under a Wonder: gone either way


def test_the_greedy_bot_counts_duel_costs() -> None:
    view, _ = a_play_view()
    cheap = {"type": "build", "card": "Lumber Yard", "cost": 0}
    dear = {"type": "build", "card": "Baths", "cost": 4}
    assert make_bot("greedy", seed=3).choose(view, [dear, cheap]) == cheap


def test_the_heuristic_beats_the_greedy_bot_at_duel() -> None:
    won = 0.0
    for g in range(30):
        kinds = ["heuristic", "greedy"] if g % 2 == 0 else ["greedy", "heuristic"]
        result = play(kinds, seed=100 + g, game="duel")
        hero = g % 2
        won += (hero in result["winners"]) / len(result["winners"])
    assert won / 30 >= 0.75
