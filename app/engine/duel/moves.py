"""What a validated Duel action means: the values the game acts on (see validate.match)."""

from typing import NamedTuple


class CardBuild(NamedTuple):
    """Build an accessible card."""

    card: int
    slot: int
    cost: int  # all coins paid
    trade: int  # the part of cost paid for resources bought (what a Commerce token returns)
    free: str | None  # why it is free ("chain"), or None


class WonderBuild(NamedTuple):
    """Build one of the seat's Wonders with an accessible card."""

    card: int
    slot: int
    wonder: int
    cost: int
    trade: int


class CardDiscard(NamedTuple):
    """Discard an accessible card for coins."""

    card: int
    slot: int
    gain: int


class Choice(NamedTuple):
    """A decision naming one thing: a Wonder, a token, a card, or the seat to start the next Age."""

    chosen: int


Move = CardBuild | WonderBuild | CardDiscard | Choice
