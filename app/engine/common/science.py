"""Classic 7 Wonders science scoring, with "any symbol" wildcards chosen for the best score."""

SET_BONUS = 7


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
