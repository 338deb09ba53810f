"""What a validated Duel action means: the values the game acts on (see validate.match).

Plain tuples, unpacked by the functions that perform them: a move is made for every action
applied, and building a NamedTuple costs several times what a tuple does (about 3% of a random
Duel game's instructions).
"""

CardBuild = tuple[int, int, int, int, str | None]
"""Build an accessible card: (card, slot, cost, trade, free), cost being all coins paid, trade the
part of it paid for resources bought (what a Commerce token returns), free why it is free
("chain") or None."""

WonderBuild = tuple[int, int, int, int, int]
"""Build one of the seat's Wonders with an accessible card: (card, slot, wonder, cost, trade)."""

CardDiscard = tuple[int, int, int]
"""Discard an accessible card for coins: (card, slot, gain)."""

Choice = int
"""A decision naming one thing: the id of a Wonder, a token or a card, or the seat to start the next Age."""

Move = CardBuild | WonderBuild | CardDiscard | Choice
