"""The resource vocabulary shared by every game kind, and resource vectors.

A resource vector is a tuple with one count per resource, in the order of RESOURCES.
Vectors are plain tuples so that they hash fast and can key caches.
"""

import operator
from collections.abc import Iterable, Mapping

RAW: tuple[str, ...] = ("wood", "stone", "clay", "ore")
MANUFACTURED: tuple[str, ...] = ("glass", "papyrus", "loom")
RESOURCES: tuple[str, ...] = RAW + MANUFACTURED
INDEX: dict[str, int] = {name: i for i, name in enumerate(RESOURCES)}
N_RESOURCES = len(RESOURCES)

Vector = tuple[int, ...]
ZERO: Vector = (0,) * N_RESOURCES
CostItems = tuple[tuple[int, int], ...]  # (resource index, units) for each resource a cost names
Choices = tuple[tuple[int, ...], ...]  # choice cards: the resource indexes each may produce one of


def vector(counts: Mapping[str, int]) -> Vector:
    """Turn {"wood": 2} into a resource vector; unknown names raise KeyError."""
    out = [0] * N_RESOURCES
    for name, count in counts.items():
        out[INDEX[name]] += count
    return tuple(out)


def add(a: Vector, b: Vector) -> Vector:
    return tuple(map(operator.add, a, b))


def sub_clip(a: Vector, b: Vector) -> Vector:
    """a - b, never below zero: what is still missing of a after b is used."""
    return tuple(x - y if x > y else 0 for x, y in zip(a, b, strict=True))


def covers(a: Vector, b: Vector) -> bool:
    """True when a holds at least b of every resource."""
    return all(map(operator.ge, a, b))


def cost_items(cost: Vector) -> CostItems:
    """The non-zero entries of a cost: a short form that the payment code loops over."""
    return tuple((r, n) for r, n in enumerate(cost) if n)


def to_dict(v: Vector) -> dict[str, int]:
    """{"wood": 2} for the non-zero entries, in resource order."""
    return {RESOURCES[i]: n for i, n in enumerate(v) if n}


def choice_indices(options: Iterable[str]) -> tuple[int, ...]:
    return tuple(sorted(INDEX[o] for o in options))
