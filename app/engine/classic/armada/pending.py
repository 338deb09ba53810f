"""What Armada's effects leave for later in the turn or the Age, kept in the game's state."""

from typing import Literal, NamedTuple


class Exploration(NamedTuple):
    """A seat explores the island deck of `level`, drawing `draw` islands (it keeps one)."""

    seat: int
    level: int
    draw: int


class CoinLoss(NamedTuple):
    """Coins the other players lose at the turn's end: a tax of `amount`, or piracy (amount 0: each
    loses what the pirate's neighbours' naval strength says)."""

    kind: Literal["tax", "piracy"]
    seat: int
    amount: int


class LandingConflict(NamedTuple):
    """A landing token: one more ground conflict this Age, between `owner` and `target`."""

    owner: int
    target: int


class Drawn(NamedTuple):
    """An island drawn this round and not kept: it goes back into the deck of `level`."""

    level: int
    island: int
