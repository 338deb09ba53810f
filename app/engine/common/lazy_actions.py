"""LazyActions: a game's legal actions listed as compact specs, each built into its dict when read.

Listing every legal action is most of a random playout's cost, and a playout reads one of them:
`Game.lazy_legal_actions` lists the same actions as `legal_actions`, in the same order, but builds
an action's dict only when it is first read (then keeps it, so reading it again gives the same
dict, as a list would). Whoever reads them all (the server, a bot weighing every action) gets
the same list from `legal_actions`.
"""

import operator
from collections.abc import Callable, Iterator, Sequence
from typing import Any, overload

from app.engine.common.game import Action


class LazyActions(Sequence[Action]):
    """A read-only sequence of legal actions; `build(spec, context)` makes the action of a spec."""

    __slots__ = ("_build", "_built", "_context", "_specs")

    def __init__(self, specs: list[Any], build: Callable[[Any, Any], Action], context: Any) -> None:
        self._specs = specs
        self._build = build
        self._context = context
        self._built: list[Action | None] | None = None

    def __len__(self) -> int:
        return len(self._specs)

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if type(index) is not int:
            if isinstance(index, slice):
                return [self[i] for i in range(*index.indices(len(self._specs)))]
            index = operator.index(index)  # an int-like index, or TypeError as a list's
        built = self._built
        if built is None:
            built = self._built = [None] * len(self._specs)
        action = built[index]  # IndexError as a list's
        if action is None:
            action = built[index] = self._build(self._specs[index], self._context)
        return action

    def as_list(self) -> list[Action]:
        """Every action built, as a list (the list this object keeps: do not change it)."""
        built = self._built
        build, context = self._build, self._context
        if built is None:
            made = [build(spec, context) for spec in self._specs]
            self._built = made  # type: ignore[assignment]  # every entry built
            return made
        for i, spec in enumerate(self._specs):
            if built[i] is None:
                built[i] = build(spec, context)
        return built  # type: ignore[return-value]

    def __iter__(self) -> Iterator[Action]:
        return iter(self.as_list())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyActions):
            return self.as_list() == other.as_list()
        if isinstance(other, list | tuple):
            return self.as_list() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to lists, which have no hash

    def __repr__(self) -> str:
        return f"LazyActions({self.as_list()!r})"
