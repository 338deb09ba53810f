"""Bots play whole games through the public API; the heuristic bot plays well."""

import pytest

from app.bots import make_bot
from app.engine import GameConfig, new_game


def play(kinds: list[str], seed: int, game: str = "classic") -> dict:
    config = GameConfig(game=game, players=len(kinds) if game == "classic" else 2, seed=seed)
    state = new_game(config)
    bots = [make_bot(kind, seed=seed * 10 + i) for i, kind in enumerate(kinds)]
    while not state.is_over:
        for seat in state.to_act:
            state.apply(seat, bots[seat].choose(state.view(seat), state.legal_actions(seat)))
    return state.result()


def wins(kinds: list[str], games: int) -> float:
    """Share of games won by the first kind, seats rotated between games."""
    won = 0.0
    for g in range(games):
        shift = g % len(kinds)
        order = kinds[shift:] + kinds[:shift]
        result = play(order, seed=g)
        hero = shift and len(kinds) - shift  # the seat the first kind sits in
        if hero in result["winners"]:
            won += 1 / len(result["winners"])
    return won / games


def test_heuristic_beats_random_players():
    assert wins(["heuristic", "random", "random", "random"], 20) >= 0.9


def test_heuristic_beats_greedy_players_more_often_than_its_share():
    assert wins(["heuristic", "greedy", "greedy", "greedy"], 30) > 0.4


@pytest.mark.parametrize("kind", ["random", "greedy", "heuristic"])
def test_every_bot_finishes_a_duel(kind):
    result = play([kind, kind], seed=3, game="duel")
    assert result["victory"] in ("military", "science", "civilian")


def test_unknown_bot_is_refused():
    with pytest.raises(ValueError, match="unknown bot 'genius'"):
        make_bot("genius")
