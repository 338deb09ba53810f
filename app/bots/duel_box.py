"""What the bots know of 7 Wonders Duel's box: every card, Wonder and progress token, from the
engine's public description (`describe_components()["duel"]`), with its cost and its effects as
the description gives them (dicts in Duel's own vocabulary, read by type in app.bots.duel_heuristic).
"""

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from app.engine import describe_components

EffectDict = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class DuelPart:
    """A card, Wonder or progress token: what it costs and what it does."""

    name: str
    color: str  # a card's colour; "wonder" or "token" for the others
    age: int  # a card's Age; 0 for the others
    coins: int  # printed coin cost
    resources: Mapping[str, int]  # resource cost
    chain_from: tuple[str, ...]  # owning one of these makes the card free
    chain_to: tuple[str, ...]
    effects: tuple[EffectDict, ...]

    def amount(self, effect_type: str) -> int:
        """The summed amount of the part's effects of that type (vp, coins, shields, ...)."""
        return sum(e.get("amount", 0) for e in self.effects if e["type"] == effect_type)

    def has(self, effect_type: str) -> bool:
        return any(e["type"] == effect_type for e in self.effects)


def _part(name: str, described: Mapping[str, Any], color: str) -> DuelPart:
    cost = described.get("cost", {"coins": 0, "resources": {}})
    return DuelPart(
        name=name,
        color=described.get("color", color),
        age=described.get("age", 0),
        coins=cost["coins"],
        resources=dict(cost["resources"]),
        chain_from=tuple(described.get("chain_from", ())),
        chain_to=tuple(described.get("chain_to", ())),
        effects=tuple(described["effects"]),
    )


@cache
def duel_cards() -> dict[str, DuelPart]:
    return {name: _part(name, c, "") for name, c in describe_components()["duel"]["cards"].items()}


@cache
def duel_wonders() -> dict[str, DuelPart]:
    return {name: _part(name, w, "wonder") for name, w in describe_components()["duel"]["wonders"].items()}


@cache
def duel_tokens() -> dict[str, DuelPart]:
    return {name: _part(name, t, "token") for name, t in describe_components()["duel"]["progress_tokens"].items()}


@dataclass(frozen=True, slots=True)
class MilitaryTrack:
    capital: int  # the distance from the centre that wins at once
    vp_zones: tuple[tuple[int, int, int], ...]  # (from, to, points)

    def points(self, distance: int) -> int:
        """The points a lead of this distance is worth at the end of the game."""
        return next((vp for low, high, vp in self.vp_zones if low <= distance <= high), 0)


@cache
def military_track() -> MilitaryTrack:
    track = describe_components()["duel"]["military_track"]
    zones = tuple((z["from"], z["to"], z["vp"]) for z in track["vp_zones"])
    return MilitaryTrack(track["capital"], zones)


@cache
def duel_science_symbols() -> tuple[str, ...]:
    return tuple(describe_components()["duel"]["science_symbols"])
