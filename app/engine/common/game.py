"""The one face every game kind shows: bots, researchers and the server use only this."""

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from app.engine.common.errors import IllegalAction
from app.engine.config import GameConfig

Action = dict[str, Any]
Event = dict[str, Any]


class Game(ABC):
    """A game in progress: (config, seed, actions) replayed into a state.

    Actions and views are JSON-able dicts. `apply` either changes the state and returns
    events, or raises IllegalAction and changes nothing.
    """

    config: GameConfig
    log: list[dict[str, Any]]
    # what a saved state (app/engine/common/state.py) writes as references: "module:loader" of the
    # compiled data this class's games share, and its caches, left out (attribute -> empty value)
    SHARED_DATA: ClassVar[tuple[str, ...]] = ()
    CACHES: ClassVar[dict[str, Callable[[], Any]]] = {}

    @property
    def version(self) -> int:
        """How many actions have been applied: the number a client quotes to avoid stale moves."""
        return len(self.log)

    @property
    def epoch(self) -> int:
        """A number that stays the same from one version to the next only when no seat's legal
        actions changed (by default it is the version: every action may change them)."""
        return self.version

    @property
    @abstractmethod
    def to_act(self) -> list[int]:
        """The seats that owe a decision now."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]: ...

    def lazy_legal_actions(self, seat: int) -> Sequence[Action]:
        """The actions of legal_actions(seat), in its order, each made when first read (a game may
        list them as LazyActions): for a random playout, which reads one of many."""
        return self.legal_actions(seat)

    @abstractmethod
    def apply(self, seat: int, action: Action) -> list[Event]: ...

    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may know (None: a spectator): the public part and the seat's own."""
        own = self.own_view(seat)
        return {**self.public_view(), **own}

    @abstractmethod
    def public_view(self) -> dict[str, Any]:
        """The part of every view that is the same for all seats and spectators, so whoever renders
        a view per seat (the server) can render this part once."""

    @abstractmethod
    def own_view(self, seat: int | None) -> dict[str, Any]:
        """The rest of view(seat): what depends on who looks (no key of public_view())."""

    @abstractmethod
    def result(self) -> dict[str, Any]: ...

    @abstractmethod
    def clone(self) -> "Game": ...

    def successor(self, seat: int, action: Action) -> tuple["Game", list[Event]]:
        """The state after `seat` plays `action`, and its events; this game stays as it is
        (IllegalAction: nothing was made). A game kind may share the parts the action leaves alone
        between the two (ClassicGame does, until one of them is about to change them), so change
        either of them only through apply."""
        other = self.clone()
        return other, other.apply(seat, action)

    def __getstate__(self) -> dict[str, Any]:
        """What pickling (a saved state) keeps: everything but the caches, which start empty."""
        state = dict(self.__dict__)
        for name, empty in self.CACHES.items():
            state[name] = empty()
        return state

    def determinize(self, seat: int, rng: random.Random) -> "Game":
        """A new game consistent with everything `seat` knows, every hidden part drawn again from
        `rng` (clone() is perfect information); see app.engine.common.information."""
        from app.engine.common.information import determinize

        return determinize(self, seat, rng)

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The whole state, hidden parts included, as JSON-able data (for tests and debugging)."""

    def check_seat(self, seat: Any) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise IllegalAction(f"seat must be an integer, not {seat!r}")
        if not 0 <= seat < self.config.seats:
            raise IllegalAction(f"there is no seat {seat}: seats are 0 to {self.config.seats - 1}")
        return seat


def require_dict(action: Any) -> dict[str, Any]:
    if not isinstance(action, dict):
        raise IllegalAction(f"an action must be a JSON object, not {type(action).__name__}")
    kind = action.get("type")
    if not isinstance(kind, str):
        raise IllegalAction("an action needs a 'type' string")
    return action


def check_keys(action: dict[str, Any], allowed: set[str] | frozenset[str]) -> None:
    """Refuse fields that the action type does not have ('type' is always allowed)."""
    for key in action:
        if key not in allowed and key != "type":
            break
    else:
        return
    unknown = set(action) - set(allowed) - {"type"}
    if unknown:
        raise IllegalAction(
            f"unknown field(s) {sorted(unknown)} in a '{action['type']}' action; allowed: {sorted(allowed)}"
        )
