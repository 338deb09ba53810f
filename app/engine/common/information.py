"""What one seat knows of a game, and games sampled from that knowledge (for fair search).

`Game.clone()` is a perfect-information copy: every hand, deck, pending pick and set-aside
card. A search bot that must not see what its seat may not uses an information set instead:

    info = information_set(view)          # the seat's first view
    info.observe(view); info.record(act)  # each view it is shown, and what it answered
    game = info.sample(rng)               # a game whose view(seat) and legal_actions(seat)
                                          # equal the last view's, its hidden parts resampled

The game is rebuilt from the last view (its public parts), and every hidden part (other
hands, decks, unseen guilds and Armada cards, other seats' pending picks, island decks, Duel's
face-down and set-aside cards, box tokens, undrafted Wonders) is drawn from what the seat
cannot place, never from the real game. `game.determinize(seat, rng)` feeds the views that
seat was shown (one after every step of the log) and its own actions into the same code,
starting from a copy of the game's public state instead of rebuilding it. A sampled game's
log holds placeholders for the steps before it: it plays on, it does not replay.
"""

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from app.engine.common.kinds import information_of, new_game

if TYPE_CHECKING:
    from app.engine.common.game import Game

View = dict[str, Any]
UNKNOWN_STEP: dict[str, Any] = {"seat": None, "action": {"type": "unknown"}}  # a sampled game's past


class InformationSet(ABC):
    """What one seat has seen of one game: fed the views it is shown, one after another."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.last: View | None = None

    def observe(self, view: View) -> None:
        """Take in a view of this seat (views must come in the game's order)."""
        if view.get("seat") != self.seat:
            raise ValueError(f"this information set is seat {self.seat}'s, not a view of seat {view.get('seat')}")
        if self.last is not None and view.get("version", 0) < self.last.get("version", 0):
            raise ValueError("views must be observed in the order of the game (a later version came first)")
        self.learn(view)
        self.last = view

    def record(self, action: dict[str, Any]) -> None:  # noqa: B027  (a hook: Duel needs no answers)
        """This seat's own answer to the last view (optional: it tells which card it tucked or
        discarded, which no view shows)."""

    def sample(self, rng: random.Random, base: "Game | None" = None) -> "Game":
        """A game consistent with everything seen; `base` (a copy of the real game, for
        `Game.determinize`) gives the public state instead of rebuilding it from the last view.
        The sample's hidden parts are drawn from `rng` only."""
        if self.last is None:
            raise ValueError("observe a view before sampling a game")
        game = self.rebuild(self.last, rng) if base is None else base
        self.resample(game, rng, rebuilt=base is None)
        return game

    @abstractmethod
    def learn(self, view: View) -> None:
        """Remember what this view tells beyond the last one."""

    @abstractmethod
    def rebuild(self, view: View, rng: random.Random) -> "Game":
        """A game whose public state is the view's (hidden parts still to be drawn)."""

    @abstractmethod
    def resample(self, game: "Game", rng: random.Random, rebuilt: bool) -> None:
        """Draw every hidden part of the game again from what this seat cannot place."""


def information_set(view: View) -> InformationSet:
    """An empty information set for the seat of this view (the kind of game is read from it)."""
    seat = view.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ValueError("a spectator's view (seat None) has no information set: give a seat's view")
    try:
        return information_of(view.get("game"), view.get("expansions", ()), seat)
    except ValueError:
        raise ValueError(f"unknown game kind in the view: {view.get('game')!r}") from None


def sample_game(views: Iterable[View], rng: random.Random, actions: Iterable[dict[str, Any] | None] = ()) -> "Game":
    """A game consistent with a seat's views (the last is the present) and, optionally, its
    answers to them (`actions[i]` answered `views[i]`)."""
    views = list(views)
    if not views:
        raise ValueError("sample_game needs at least one view")
    answers = list(actions)
    info = information_set(views[0])
    for i, view in enumerate(views):
        info.observe(view)
        if i < len(answers) and answers[i] is not None:
            info.record(answers[i])  # type: ignore[arg-type]
    return info.sample(rng)


def determinize(game: "Game", seat: int, rng: random.Random) -> "Game":
    """A copy of the game as `seat` may know it: the views it was shown after every step and
    its own actions, fed to an information set; the public state is the game's own."""
    seat = game.check_seat(seat)
    replay = new_game(game.config)
    info = information_set(replay.view(seat))
    info.observe(replay.view(seat))
    for entry in game.log:
        if entry["seat"] == seat:
            info.record(entry["action"])
        replay.apply(entry["seat"], entry["action"])
        info.observe(replay.view(seat))
    return info.sample(rng, base=game.clone())
