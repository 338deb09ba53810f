"""The classic environment's fixed action index: every primary index, how an engine action maps
to one, the mask, and the follow-ups (wonder stage, ship moves) Armada may ask for."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from app.engine.env.common import Action, cheapest


@dataclass(frozen=True)
class Pending:
    """A seat's choice in progress: the primary index it chose, and the wonder stage once chosen."""

    index: int
    stage: int | None = None


class ClassicActionIndex:
    """The action index part of ClassicSpec (which sets the cards, islands, tracks and stages it reads)."""

    cards: list[str]
    islands: list[str]
    tracks: list[str]
    armada: bool
    max_stages: int

    def _actions(self) -> None:
        names: list[str] = ["noop"]
        keys: list[tuple[Any, ...]] = [("noop",)]

        def block(kind: str, label: str, items: Sequence[Any], extra: Any = None) -> None:
            for item in items:
                keys.append((kind, item, extra) if extra is not None else (kind, item))
                names.append(f"{label}:{item}")

        block("build", "build", self.cards, False)
        if self.armada:
            block("build", "build+naval", self.cards, True)
        block("wonder", "wonder", self.cards, False)
        if self.armada:
            block("wonder", "wonder+naval", self.cards, True)
        block("discard", "discard", self.cards, False)
        if self.armada:
            block("discard", "discard+yellow", self.cards, True)
        block("build_from_discard", "build_from_discard", self.cards)
        keys.append(("pass",))
        names.append("pass")
        if self.armada:
            block("keep_island", "keep_island", self.islands)
            block("stage", "stage", list(range(1, self.max_stages + 1)))
            for m in range(1 << len(self.tracks)):
                keys.append(("moves", m))
                names.append("moves:" + ("+".join(self.moves_of(m)) or "none"))
        self.action_names = names
        self.action_keys = keys
        self.index = {k: i for i, k in enumerate(keys)}
        self.noop = 0
        self.stage_base = self.index.get(("stage", 1), -1)
        self.moves_base = self.index.get(("moves", 0), -1)

    def moves_of(self, code: int) -> list[str]:
        return [t for i, t in enumerate(self.tracks) if code >> i & 1]

    def moves_code(self, action: Action) -> int:
        return sum(1 << self.tracks.index(t) for t in action.get("moves", ()))

    def primary(self, action: Action) -> int:
        """The primary index of an engine action (stage, ship moves and payment left out)."""
        kind = action["type"]
        if kind in ("build", "wonder"):
            key: tuple[Any, ...] = (kind, action["card"], bool(action.get("naval")))
        elif kind == "discard":
            reward = action.get("reward")
            if reward not in (None, "yellow"):
                raise ValueError(f"a discard reward the environment does not know: {reward!r}")
            key = ("discard", action["card"], reward == "yellow")
        elif kind == "build_from_discard":
            key = ("build_from_discard", action["card"])
        elif kind == "pass":
            key = ("pass",)
        elif kind == "keep_island":
            key = ("keep_island", action["island"])
        else:
            raise ValueError(f"an action type the environment does not know: {kind!r}")
        return self.index[key]

    def groups(self, legal: Sequence[Action]) -> dict[int, list[Action]]:
        out: dict[int, list[Action]] = {}
        for action in legal:
            out.setdefault(self.primary(action), []).append(action)
        return out

    def candidates(self, groups: dict[int, list[Action]], pending: Pending) -> list[Action]:
        options = groups.get(pending.index, [])
        if pending.stage is not None:
            options = [a for a in options if a.get("stage") == pending.stage]
        return options

    def follow_up(self, options: Sequence[Action], pending: Pending) -> str | None:
        """What the seat must still choose among these options: 'stage', then 'moves', or nothing."""
        if pending.stage is None and len({a.get("stage") for a in options}) > 1:
            return "stage"
        if len({self.moves_code(a) for a in options}) > 1:
            return "moves"
        return None

    def mask(self, groups: dict[int, list[Action]], pending: Pending | None, owes: bool) -> np.ndarray:
        mask = np.zeros(len(self.action_names), dtype=np.int8)
        if not owes:
            mask[self.noop] = 1
        elif pending is None:
            mask[list(groups)] = 1
        else:
            options = self.candidates(groups, pending)
            step = self.follow_up(options, pending)
            if step == "stage":
                mask[[self.stage_base + a["stage"] - 1 for a in options]] = 1
            elif step == "moves":
                mask[[self.moves_base + self.moves_code(a) for a in options]] = 1
        return mask

    def choose(self, groups: dict[int, list[Action]], pending: Pending | None, index: int) -> Pending | Action:
        """One step of a seat's choice: the engine action to apply, or the choice in progress."""
        if pending is None:
            if index not in groups:
                raise ValueError(f"action {index} ({self._name(index)}) is not legal now: see the action mask")
            pending = Pending(index)
        else:
            options = self.candidates(groups, pending)
            step = self.follow_up(options, pending)
            if step == "stage" and self.stage_base <= index < self.stage_base + self.max_stages:
                stage = index - self.stage_base + 1
                if not any(a.get("stage") == stage for a in options):
                    raise ValueError(f"action {index} ({self._name(index)}) is not legal now: see the action mask")
                pending = Pending(pending.index, stage)
            elif step == "moves" and self.moves_base <= index < self.moves_base + (1 << len(self.tracks)):
                code = index - self.moves_base
                chosen = [a for a in options if self.moves_code(a) == code]
                if not chosen:
                    raise ValueError(f"action {index} ({self._name(index)}) is not legal now: see the action mask")
                return cheapest(chosen)
            else:
                raise ValueError(f"action {index} ({self._name(index)}) is not legal now: the seat owes a {step}")
        options = self.candidates(groups, pending)
        if self.follow_up(options, pending) is None:
            return cheapest(options)
        return pending

    def _name(self, index: int) -> str:
        return self.action_names[index] if 0 <= index < len(self.action_names) else "out of range"
