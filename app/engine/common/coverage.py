"""Can a producer supply a multiset of resources?

A producer has fixed production (a vector) and choice production (each choice card yields
one unit of one of its options per turn). Covering is a small bipartite matching problem;
the sizes in these games are tiny, so a depth-first search with pruning is fastest.
"""

from app.engine.common.resources import Choices, Vector


def can_supply(need: Vector, fixed: Vector, choices: Choices) -> bool:
    """True when fixed production plus one option of each choice card covers need."""
    missing = [n - f if n > f else 0 for n, f in zip(need, fixed, strict=True)]
    total = sum(missing)
    if total == 0:
        return True
    if total > len(choices):
        return False
    return _match(missing, total, choices, 0)


def _match(missing: list[int], total: int, choices: Choices, start: int) -> bool:
    if total == 0:
        return True
    if len(choices) - start < total:
        return False
    options = choices[start]
    for r in options:
        if missing[r]:
            missing[r] -= 1
            found = _match(missing, total - 1, choices, start + 1)
            missing[r] += 1
            if found:
                return True
    return _match(missing, total, choices, start + 1)
