"""The registry of game kinds: what a game kind (7 Wonders, 7 Wonders Duel) and an expansion
(Armada) are, in one place.

Each kind registers itself beside its own code (`app/engine/classic/kind.py`,
`app/engine/duel/kind.py`), an expansion beside its own (`app/engine/classic/armada/kind.py`);
`app/engine/__init__.py` imports those modules, so everything is registered once the engine is.
Everything that depends on the kind reads it from here: making a game (`new_game`), a seat's
information set, the description of the components, the action shapes the server checks, the
players a config may have, the expansions it may name, and the notices players should read.

    from app.engine import game_kinds
    game_kinds()  # [{"name": "classic", "title": "7 Wonders", "players": {"min": 3, "max": 7}, ...}, ...]

This module imports no game kind (they import it).
"""

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, get_args, get_type_hints

if TYPE_CHECKING:
    from app.engine.common.game import Game
    from app.engine.common.information import InformationSet
    from app.engine.config import GameConfig

MakeGame = Callable[["GameConfig"], "Game"]
MakeInformation = Callable[[int], "InformationSet"]
Describe = Callable[[], dict[str, Any]]


@dataclass(frozen=True)
class ActionShapes:
    """A game kind's actions as they look on the wire: `union` is a Pydantic type (an Annotated
    discriminated union on `type` of strict TypedDicts, app/engine/common/action_shapes.py) whose
    valid values are the plain dicts `apply` takes; `claims(action)` says whether an action that
    could be of several kinds is this one's (None: only when no other kind claims it)."""

    union: Any
    claims: Callable[[Any], bool] | None = None

    @property
    def types(self) -> tuple[str, ...]:
        """Its action types, in the union's order."""
        shapes = get_args(self.union)[0]
        members = get_args(shapes) or (shapes,)  # a union, or a kind with one action shape
        return tuple(get_args(get_type_hints(m)["type"])[0] for m in members)


@dataclass(frozen=True)
class Expansion:
    """An expansion of a game kind. `make` and `information`, when given, replace the kind's own for
    games that play it (at most one such expansion per game); `components` is its part of
    describe_components(), under its name; `notices` what players should know (provisional values)."""

    name: str
    title: str
    components: Describe
    notices: Callable[[], tuple[str, ...]] = tuple
    make: MakeGame | None = None
    information: MakeInformation | None = None

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "notices": list(self.notices())}


@dataclass(frozen=True)
class GameKind:
    """A game kind: its name (`GameConfig.game`), title, player range and how its games are made,
    seen by one seat, described and acted in. `env` names its reinforcement-learning environment's
    spec maker ("module:function", loaded only when asked for: its packages are an extra).
    `assigns_wonders`: a config may give each seat its wonder; `wonder_sides`: its wonders have a day
    and a night side (GameConfig.wonder_side)."""

    name: str
    title: str
    players: tuple[int, int]
    make: MakeGame
    information: MakeInformation
    components: Describe
    actions: ActionShapes
    env: str | None = None
    assigns_wonders: bool = False
    wonder_sides: bool = False
    expansions: dict[str, Expansion] = field(default_factory=dict)

    def describe(self) -> dict[str, Any]:
        """This kind as plain JSON-able data."""
        low, high = self.players
        return {
            "name": self.name,
            "title": self.title,
            "players": {"min": low, "max": high},
            "wonder_sides": self.wonder_sides,
            "expansions": [e.describe() for e in self.expansions.values()],
            "action_types": list(self.actions.types),
        }

    def replacing(self, expansions: list[str] | tuple[str, ...]) -> Expansion | None:
        """The expansion among these that brings its own game code, if any."""
        for name in expansions:
            expansion = self.expansions.get(name)
            if expansion is not None and expansion.make is not None:
                return expansion
        return None


class Lazy:
    """A callable named "module:attribute", imported when first called: a kind registers itself
    without importing its rules, which load with its first game (as they did before the registry)."""

    __slots__ = ("name", "target")

    def __init__(self, name: str) -> None:
        self.name = name
        self.target: Callable[..., Any] | None = None

    def __call__(self, *args: Any) -> Any:
        target = self.target
        if target is None:
            module, attribute = self.name.split(":")
            target = self.target = getattr(importlib.import_module(module), attribute)
        return target(*args)

    def __repr__(self) -> str:
        return f"Lazy({self.name!r})"


_KINDS: dict[str, GameKind] = {}


def register(kind: GameKind) -> GameKind:
    """Add a game kind (once, at import of its module)."""
    if kind.name in _KINDS:
        raise ValueError(f"the game kind {kind.name!r} is registered twice")
    _KINDS[kind.name] = kind
    return kind


def register_expansion(kind_name: str, expansion: Expansion) -> Expansion:
    """Add an expansion to a registered game kind."""
    kind = game_kind(kind_name)
    if expansion.name in kind.expansions or any(expansion.name in k.expansions for k in _KINDS.values()):
        raise ValueError(f"the expansion {expansion.name!r} is registered twice")
    if expansion.name in _KINDS:
        raise ValueError(f"the expansion {expansion.name!r} has a game kind's name")
    kind.expansions[expansion.name] = expansion
    return expansion


def game_kind(name: Any) -> GameKind:
    """The registered game kind of that name, or ValueError listing those there are."""
    kind = _KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise ValueError(f"unknown game {name!r}; games: {', '.join(_KINDS)}")
    return kind


def registered() -> list[GameKind]:
    """Every registered game kind, in the order they were registered."""
    return list(_KINDS.values())


def game_kinds() -> list[dict[str, Any]]:
    """Every registered game kind as plain data: name, title, players, expansions (each with its
    notices) and action types."""
    return [kind.describe() for kind in _KINDS.values()]


def new_game(config: "GameConfig") -> "Game":
    """A new game set up from the config and its seed."""
    kind = game_kind(config.game)
    expansion = kind.replacing(config.expansions)
    return (expansion.make if expansion is not None and expansion.make is not None else kind.make)(config)


def information_of(game: str, expansions: Any, seat: int) -> "InformationSet":
    """An empty information set for a seat of a game of that kind with those expansions."""
    kind = game_kind(game)
    names = [e for e in expansions if isinstance(e, str)] if isinstance(expansions, list | tuple) else []
    expansion = kind.replacing(names)
    if expansion is not None and expansion.information is not None:
        return expansion.information(seat)
    return kind.information(seat)
