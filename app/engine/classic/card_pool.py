"""Every card instance a drawn classic game may hold (see determinize.py): the game's cards and the
optional ones (guilds, Armada cards) it did not deal, which are placed, and which are left to draw."""

import random
from typing import TYPE_CHECKING

from app.engine.classic.data import CardDef

if TYPE_CHECKING:
    from app.engine.classic.game import ClassicGame

AGES = (1, 2, 3)


class CardPool:
    """Every card instance a game may hold, with the ones already placed: the game's own cards
    and, appended to them, the optional cards (guilds, Armada cards) it did not deal."""

    def __init__(self, game: "ClassicGame", groups: list[tuple[int, tuple[CardDef, ...], int]]) -> None:
        have = {(c.name, c.age) for c in game.cards}
        extra = [c for _, cards, _ in groups for c in cards if (c.name, c.age) not in have]
        if extra:
            game.cards = game.cards + tuple(extra)
        self.game = game
        self.groups = groups
        self.optional = {(c.name, c.age) for _, cards, _ in groups for c in cards}
        self.by_name: dict[str, list[int]] = {}
        for i, c in enumerate(game.cards):
            self.by_name.setdefault(c.name, []).append(i)
        self.taken: set[int] = set()

    def take_ids(self, ids: list[int]) -> None:
        self.taken.update(i for i in ids if i >= 0)

    def claim(self, name: str, age: int | None) -> int | None:
        """An unplaced card of that name: of that Age if any, else of the earliest Age."""
        ids = [i for i in self.by_name.get(name, ()) if i not in self.taken]
        if not ids:
            return None
        cards = self.game.cards
        chosen = None
        if age is not None:
            chosen = next((i for i in ids if cards[i].age == age), None)
        if chosen is None:
            chosen = min(ids, key=lambda i: cards[i].age)
        self.taken.add(chosen)
        return chosen

    def hidden(self, rng: random.Random) -> dict[int, list[int]]:
        """The cards nobody has placed, by Age: every unplaced base card, and of each optional
        group as many unseen ones (drawn at random) as the game deals less those seen."""
        cards = self.game.cards
        out: dict[int, list[int]] = {age: [] for age in AGES}
        for i, c in enumerate(cards):
            if i not in self.taken and (c.name, c.age) not in self.optional:
                out[c.age].append(i)
        for age, group, count in self.groups:
            keys = {(c.name, c.age) for c in group}
            members = [i for i, c in enumerate(cards) if (c.name, c.age) in keys]
            seen = sum(1 for i in members if i in self.taken)
            unseen = sorted(i for i in members if i not in self.taken)
            out[age] += rng.sample(unseen, max(0, min(len(unseen), count - seen)))
        return out


def claimed(pool: CardPool, name: str, age: int) -> int:
    card_id = pool.claim(name, age)
    assert card_id is not None, f"no card named {name} is left for the hand"
    return card_id
