import random

from app.engine import GameConfig, new_game


def test_random_game_finishes_with_a_winner():
    game = new_game(GameConfig(players=4, seed=3))
    rng = random.Random(3)
    while not game.is_over:
        for seat in game.to_act:
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    result = game.result()
    assert result["winners"]
    assert all(s["total"] == sum(s["categories"].values()) for s in result["scores"])
