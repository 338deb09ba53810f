"""The ismcts bot: it plays whole games of the three games through `choose(view, legal_actions)`,
its choices depend only on what its seat was shown, and make_bot passes its options."""

import random
from typing import Any

import pytest

from app.bots import IsmctsBot, make_bot
from app.bots.ismcts import action_key, distinct, reward
from app.engine import GameConfig, new_game
from app.engine.classic.game import ClassicGame
from app.engine.duel.game import DuelGame


@pytest.mark.parametrize(
    ("config", "options"),
    [
        (GameConfig(game="classic", players=3, seed=5), {}),
        (GameConfig(game="classic", players=3, seed=6, expansions=["armada"]), {}),
        (GameConfig(game="duel", seed=7), {}),
        (GameConfig(game="duel", seed=7), {"duel_plies": None}),
    ],
    ids=["classic", "armada", "duel", "duel-tree"],
)
def test_it_plays_whole_games_through_choose(config: GameConfig, options: dict[str, Any]) -> None:
    game = new_game(config)
    bot = make_bot("ismcts", seed=1, budget_ms=None, iterations=3, **options)
    others = random.Random(2)
    chosen = 0
    while not game.is_over:
        for seat in game.to_act:
            legal = game.legal_actions(seat)
            if seat == 0:
                action = bot.choose(game.view(0), legal)
                assert action in legal
                chosen += 1
            else:
                action = others.choice(legal)
            game.apply(seat, action)
    assert game.result()["winners"]
    assert chosen > 10
    assert bot.stats["decisions"] > 5 and bot.stats["iterations"] >= 3 * bot.stats["decisions"]


def test_its_choice_depends_only_on_what_the_seat_was_shown() -> None:
    """Two games alike in everything seat 0 saw and unlike in other hands, picks and decks: the
    same bot (same seed) makes the same choice in both."""
    game = new_game(GameConfig(game="classic", players=4, seed=21))
    assert isinstance(game, ClassicGame)
    rng = random.Random(3)
    bots = [make_bot("ismcts", seed=9, budget_ms=None, iterations=12) for _ in range(2)]
    for _ in range(2):  # two turns, the bots seeing seat 0's views
        for seat in game.to_act:
            legal = game.legal_actions(seat)
            if seat == 0:
                action = bots[0].choose(game.view(0), legal)
                assert bots[1].choose(game.view(0), legal) == action
            else:
                action = rng.choice(legal)
            game.apply(seat, action)
    game.apply(2, game.legal_actions(2)[0])
    twin = game.clone()
    twin.hands[3], twin.hands[2] = twin.hands[2], twin.hands[3]  # hands seat 0 never held
    twin.picks[2] = type(game.picks[2])("discard", twin.hands[2][0])
    twin.decks[2], twin.decks[3] = twin.decks[2][::-1], twin.decks[3][::-1]
    assert twin.view(0) == game.view(0) and twin.snapshot() != game.snapshot()
    first = bots[0].choose(game.view(0), game.legal_actions(0))
    second = bots[1].choose(twin.view(0), twin.legal_actions(0))
    assert first == second

    duel = new_game(GameConfig(game="duel", seed=8))
    assert isinstance(duel, DuelGame)
    while duel.phase != "play":
        duel.apply(duel.actor, rng.choice(duel.legal_actions(duel.actor)))  # type: ignore[arg-type]
    seat = duel.actor
    assert seat is not None
    twin_duel = duel.clone()
    s = twin_duel.structure
    assert s is not None
    down = [i for i, c in enumerate(s.cards) if c is not None and not s.up[i]]
    s.cards[down[0]], s.cards[down[-1]] = s.cards[down[-1]], s.cards[down[0]]
    twin_duel.decks[3] = twin_duel.decks[3][::-1]
    assert twin_duel.view(seat) == duel.view(seat) and twin_duel.snapshot() != duel.snapshot()
    a = make_bot("ismcts", seed=4, budget_ms=None, iterations=40).choose(duel.view(seat), duel.legal_actions(seat))
    b = make_bot("ismcts", seed=4, budget_ms=None, iterations=40).choose(
        twin_duel.view(seat), twin_duel.legal_actions(seat)
    )
    assert a == b


def test_make_bot_passes_options_and_refuses_bad_ones() -> None:
    bot = make_bot("ismcts", seed=1, budget_ms=50, iterations=7)
    assert isinstance(bot, IsmctsBot) and bot.budget_ms == 50 and bot.iterations == 7
    with pytest.raises(ValueError, match="bad options for the 'ismcts' bot"):
        make_bot("ismcts", seed=1, depth=3)
    with pytest.raises(ValueError, match="budget_ms, a number of iterations"):
        make_bot("ismcts", budget_ms=None)
    with pytest.raises(ValueError, match="bad options for the 'greedy' bot"):
        make_bot("greedy", seed=1, budget_ms=10)


def test_actions_that_differ_only_in_payment_are_one_choice() -> None:
    cheap = {"type": "build", "card": "Baths", "trade": {"left": {"stone": 1}}, "cost": {"left": 2, "right": 0}}
    dear = {"type": "build", "card": "Baths", "trade": {"right": {"stone": 1}}, "cost": {"left": 0, "right": 3}}
    stage = {"type": "wonder", "card": "Baths", "stage": 1}
    assert action_key(cheap) == action_key(dear) != action_key(stage)
    assert list(distinct([cheap, dear, stage]).values()) == [cheap, stage]


def test_the_reward_is_the_win_shared_and_a_little_of_the_margin() -> None:
    def result(totals: list[int], winners: list[int]) -> dict:
        return {"winners": winners, "scores": [{"seat": i, "total": t} for i, t in enumerate(totals)]}

    assert reward(result([50, 40, 30], [0]), 0) == pytest.approx(0.8 + 0.2 * (0.5 + 0.5 * 0.7615941559557649))
    assert reward(result([40, 40, 30], [0, 1]), 1) == pytest.approx(0.4 + 0.1)
    assert reward(result([30, 40, 30], [1]), 0) < 0.1
