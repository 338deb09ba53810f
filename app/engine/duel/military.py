"""The conflict pawn and the loot tokens of the military track.

The pawn sits at -capital..capital; positive is toward seat 1's capital (seat 0 leads).
Shields of seat 0 push it up, shields of seat 1 push it down.
"""

from app.engine.duel.definitions import Track


def direction(seat: int) -> int:
    """+1 when seat's shields push the pawn toward positive positions."""
    return 1 if seat == 0 else -1


class Military:
    __slots__ = ("track", "pawn", "loot")

    def __init__(self, track: Track) -> None:
        self.track = track
        self.pawn = 0
        # (seat whose half holds it, distance from the centre where its zone starts, coins)
        self.loot: list[tuple[int, int, int]] = [(seat, start, coins) for seat in (0, 1) for start, coins in track.loot]

    def copy(self) -> "Military":
        other = Military.__new__(Military)
        other.track = self.track
        other.pawn = self.pawn
        other.loot = list(self.loot)
        return other

    def push(self, seat: int, shields: int) -> list[tuple[int, int]]:
        """Move the pawn for seat's shields; return the loot tokens taken as (victim seat, coins)."""
        sign = direction(seat)
        cap = self.track.capital
        self.pawn = max(-cap, min(cap, self.pawn + sign * shields))
        victim = 1 - seat
        distance = self.pawn * sign
        taken = [(v, coins) for v, start, coins in self.loot if v == victim and distance >= start]
        if taken:
            self.loot = [t for t in self.loot if not (t[0] == victim and distance >= t[1])]
        return taken

    def supremacy(self) -> int | None:
        """The seat that has pushed the pawn into the opponent's capital, if any."""
        if self.pawn >= self.track.capital:
            return 0
        if self.pawn <= -self.track.capital:
            return 1
        return None

    def points(self, seat: int) -> int:
        """Victory points seat scores at the end for the pawn's zone."""
        distance = self.pawn * direction(seat)
        for start, end, vp in self.track.vp_zones:
            if start <= distance <= end:
                return vp
        return 0

    def weaker(self) -> int | None:
        """The seat on whose half the pawn stands, None at the centre."""
        if self.pawn > 0:
            return 1
        if self.pawn < 0:
            return 0
        return None
