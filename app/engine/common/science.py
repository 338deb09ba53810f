"""Classic 7 Wonders science scoring, with "any symbol" wildcards chosen for the best score."""

from collections.abc import Callable
from itertools import combinations_with_replacement
from typing import Any

SET_BONUS = 7
SYMBOLS = ("compass", "gear", "tablet")


def science_points(counts: tuple[int, int, int], wildcards: int = 0) -> int:
    """Squares of each symbol count plus 7 per complete set; wildcards placed optimally."""
    if wildcards == 0:
        a, b, c = counts
        return a * a + b * b + c * c + SET_BONUS * min(a, b, c)
    best = 0
    for i in range(3):
        bumped = list(counts)
        bumped[i] += 1
        best = max(best, science_points((bumped[0], bumped[1], bumped[2]), wildcards - 1))
    return best


def science_choices(
    counts: tuple[int, int, int],
    wildcards: int,
    points: Callable[[tuple[int, int, int]], int] = science_points,
) -> list[dict[str, Any]]:
    """Every way to count `wildcards` symbols of choice, best first: `{"counted_as": {symbol: n},
    "points": p}`, `points` scoring the symbols once placed. Equal points keep the symbols' order
    (compass, gear, tablet), so the first is the choice scoring makes."""
    out = []
    for placed in combinations_with_replacement(range(3), wildcards):
        bumped = list(counts)
        counted: dict[str, int] = {}
        for i in placed:
            bumped[i] += 1
            counted[SYMBOLS[i]] = counted.get(SYMBOLS[i], 0) + 1
        out.append({"counted_as": counted, "points": points((bumped[0], bumped[1], bumped[2]))})
    out.sort(key=lambda choice: -choice["points"])
    return out
