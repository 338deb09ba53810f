"""Every view is its public part plus the seat's own part: view(seat) == {**public_view(),
**own_view(seat)}, the two share no key, and the public part is the same in every game that a seat
cannot tell apart from the real one (so it holds nothing hidden). The server renders the public
part once per version and the own part per seat (tests/server/test_rendered_views.py)."""

import random

import pytest

from app.engine import GameConfig, new_game
from app.engine.common.game import Game

CONFIGS = [
    GameConfig(game="classic", players=3),
    GameConfig(game="classic", players=4),
    GameConfig(game="classic", players=7),
    GameConfig(game="classic", players=3, expansions=["armada"]),
    GameConfig(game="classic", players=6, expansions=["armada"]),
    GameConfig(game="duel"),
]


def config_id(config: GameConfig) -> str:
    return f"{config.game}{config.players}{'-' + '-'.join(config.expansions) if config.expansions else ''}"


def check_parts(game: Game, rng: random.Random) -> None:
    public = game.public_view()
    for seat in [None, *range(game.config.seats)]:
        own = game.own_view(seat)
        assert not public.keys() & own.keys(), f"in both parts: {public.keys() & own.keys()}"
        assert {**public, **own} == game.view(seat)
    seat = rng.randrange(game.config.seats)
    assert game.determinize(seat, rng).public_view() == public


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_a_view_is_its_public_part_and_the_seats_own(config: GameConfig) -> None:
    for seed in range(3):
        game = new_game(config.model_copy(update={"seed": seed}))
        rng = random.Random(seed)
        steps = 0
        while not game.is_over:
            if steps % 3 == 0:
                check_parts(game, rng)
            seat = game.to_act[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            steps += 1
        check_parts(game, rng)  # the result is public
        assert "result" in game.public_view()
