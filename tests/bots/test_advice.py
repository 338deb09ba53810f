"""Hints and reviews from the search bot (app/bots/advice.py): the taint test (a hint depends only
on what its seat was shown: twin games alike in that and unlike in hidden hands, picks, decks and
Duel's face-down cards give the same hint for the same seed, and no hint names a card the seat could
not know), the points' meaning, and a whole game's review."""

import random
from typing import Any

import pytest

from app.bots.advice import SUPREMACY_MARGIN, hint, hint_from_log, margin, review_game
from app.bots.ismcts import action_key
from app.engine import Game, GameConfig, new_game
from app.engine.classic.game import ClassicGame
from app.engine.duel.game import DuelGame
from tests.server.play import hidden_from, strings_in


def _names_nothing_hidden(hints: list[dict[str, Any]], game: Game, seat: int) -> None:
    hidden = hidden_from(game, seat)
    for h in hints:
        said = set(strings_in(h["action"]))
        assert not said & hidden, (said & hidden, h)
        assert not [name for name in hidden if name in h["why"]], h["why"]


class Seen:
    """A seat's views after every step and its answers, as the server replays them from the log."""

    def __init__(self, game: Game, seat: int) -> None:
        self.seat = seat
        self.views = [game.view(seat)]
        self.answers: list[Any] = [None]

    def step(self, game: Game, seat: int, action: dict[str, Any]) -> None:
        if seat == self.seat:
            self.answers[-1] = action
        game.apply(seat, action)
        self.views.append(game.view(self.seat))
        self.answers.append(None)


def test_a_hint_depends_only_on_what_the_seat_was_shown() -> None:
    game = new_game(GameConfig(game="classic", players=4, seed=21, expansions=["armada"]))
    assert isinstance(game, ClassicGame)
    rng = random.Random(3)
    seen = Seen(game, 0)
    for _ in range(9):  # into the second turn, with seat 3 picked and seat 0 to act
        for seat in game.to_act:
            seen.step(game, seat, rng.choice(game.legal_actions(seat)))
    seen.step(game, 3, game.legal_actions(3)[-1])
    twin = game.clone()
    twin.hands[2], twin.hands[3] = twin.hands[3], twin.hands[2]  # hands seat 0 never held
    twin.decks[2], twin.decks[3] = twin.decks[2][::-1], twin.decks[3][::-1]
    twin.picks[3] = type(game.picks[3])("discard", twin.hands[3][0])
    assert twin.view(0) == game.view(0) and twin.snapshot() != game.snapshot()
    ours = hint(seen.views, seen.answers, game.legal_actions(0), seed=5, budget_ms=None, iterations=60)
    views = [*seen.views[:-1], twin.view(0)]  # the twin's present, the same past
    theirs = hint(views, seen.answers, twin.legal_actions(0), seed=5, budget_ms=None, iterations=60)
    assert ours == theirs
    assert 1 <= len(ours) <= 3 and ours[0]["points"] == 0 and all(h["points"] <= 0 for h in ours)
    assert all(h["action"] in game.legal_actions(0) for h in ours)
    assert len({action_key(h["action"]) for h in ours}) == len(ours)
    _names_nothing_hidden(ours, game, 0)

    duel = new_game(GameConfig(game="duel", seed=8))
    assert isinstance(duel, DuelGame)
    seat = 0
    seen = Seen(duel, seat)
    while duel.age == 0 or duel.phase != "play" or duel.actor != seat:
        actor = duel.actor
        assert actor is not None
        seen.step(duel, actor, rng.choice(duel.legal_actions(actor)))
    twin_duel = duel.clone()
    s = twin_duel.structure
    assert s is not None
    down = [i for i, c in enumerate(s.cards) if c is not None and not s.up[i]]
    s.cards[down[0]], s.cards[down[-1]] = s.cards[down[-1]], s.cards[down[0]]
    twin_duel.decks[3] = twin_duel.decks[3][::-1]
    twin_duel.box_tokens = twin_duel.box_tokens[::-1]
    assert twin_duel.view(seat) == duel.view(seat) and twin_duel.snapshot() != duel.snapshot()
    a = hint(seen.views, seen.answers, duel.legal_actions(seat), seed=4, budget_ms=None, iterations=50)
    b = hint(
        [*seen.views[:-1], twin_duel.view(seat)],
        seen.answers,
        twin_duel.legal_actions(seat),
        seed=4,
        budget_ms=None,
        iterations=50,
    )
    assert a == b
    _names_nothing_hidden(a, duel, seat)


@pytest.mark.parametrize(
    "config",
    [GameConfig(game="classic", players=3, seed=5), GameConfig(game="duel", seed=6)],
    ids=["classic", "duel"],
)
def test_a_hint_from_the_stored_log_is_the_hint_from_the_seats_views(config: GameConfig) -> None:
    game = new_game(config)
    rng = random.Random(1)
    seen = Seen(game, 0)
    steps = []
    while len(steps) < 8 or 0 not in game.to_act:
        seat = game.to_act[0]
        action = rng.choice(game.legal_actions(seat))
        steps.append({"seat": seat, "action": action})
        seen.step(game, seat, action)
    from_log = hint_from_log(config.model_dump(mode="json"), steps, 0, seed=3, budget_ms=None, iterations=30)
    assert from_log == hint(seen.views, seen.answers, game.legal_actions(0), seed=3, budget_ms=None, iterations=30)
    assert all("points" in h and h["why"].endswith(".") for h in from_log)
    _names_nothing_hidden(from_log, game, 0)


def test_the_margin_is_points_ahead_of_the_best_other_seat() -> None:
    scores = [{"seat": 0, "total": 40}, {"seat": 1, "total": 35}, {"seat": 2, "total": 44}]
    assert margin({"scores": scores, "winners": [2]}, 0) == -4
    assert margin({"scores": scores, "winners": [2]}, 2) == 4
    duel = [{"seat": 0, "total": 10}, {"seat": 1, "total": 30}]
    assert margin({"scores": duel, "winners": [0], "victory": "military"}, 0) == SUPREMACY_MARGIN
    assert margin({"scores": duel, "winners": [0], "victory": "military"}, 1) == -SUPREMACY_MARGIN


@pytest.mark.parametrize(
    "config",
    [GameConfig(game="classic", players=3, seed=7), GameConfig(game="duel", seed=7)],
    ids=["classic", "duel"],
)
def test_a_review_weighs_every_decision_of_every_seat(config: GameConfig) -> None:
    game = new_game(config)
    rng = random.Random(2)
    steps = []
    while not game.is_over:
        seat = game.to_act[0]
        action = rng.choice(game.legal_actions(seat))
        steps.append({"seat": seat, "action": action})
        game.apply(seat, action)
    review = review_game(new_game(config), steps, seed=1, budget_ms=None, iterations=6)
    seats = review["seats"]
    assert [s["seat"] for s in seats] == list(range(config.seats))
    reviewed = sorted(d["step"] for s in seats for d in s["decisions"])
    assert reviewed == list(range(len(steps)))
    for s in seats:
        for d in s["decisions"]:
            assert d["action"] == steps[d["step"]]["action"] and steps[d["step"]]["seat"] == s["seat"]
            assert d["points_lost"] >= 0
            assert (d["points_lost"] == 0) or action_key(d["best"]) != action_key(d["action"])
        assert s["points_lost"] == pytest.approx(sum(d["points_lost"] for d in s["decisions"]), abs=0.1)
        lost = [w["points_lost"] for w in s["swings"]]
        assert len(lost) <= 3 and lost == sorted(lost, reverse=True)
        assert not lost or lost[0] == max(d["points_lost"] for d in s["decisions"])
    assert review == review_game(new_game(config), steps, seed=1, budget_ms=None, iterations=6)
