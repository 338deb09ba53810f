"""One Age's structure of cards: which slots still hold a card, which are face up, which are free."""

from app.engine.duel.definitions import Slot


class Structure:
    """The cards of one Age laid out in their slots.

    A card is accessible when no card covers it any more; a face-down card turns face up as
    soon as it is accessible.
    """

    __slots__ = ("age", "slots", "cards", "up", "covered", "open")

    def __init__(self, age: int, slots: tuple[Slot, ...], deck: list[int]) -> None:
        if len(deck) != len(slots):
            raise ValueError(f"Age {age} needs {len(slots)} cards, not {len(deck)}")
        self.age = age
        self.slots = slots
        self.cards: list[int | None] = list(deck)  # card id per slot, None once taken
        self.up = [s.face_up for s in slots]
        self.covered = [len(s.covered_by) for s in slots]  # cards still covering each slot
        self.open = [s.index for s in slots if not s.covered_by]  # accessible slots, in slot order

    def copy(self) -> "Structure":
        other = Structure.__new__(Structure)
        other.age = self.age
        other.slots = self.slots
        other.cards = list(self.cards)
        other.up = list(self.up)
        other.covered = list(self.covered)
        other.open = list(self.open)
        return other

    def accessible_cards(self) -> list[int]:
        cards = self.cards
        return [cards[s] for s in self.open]  # type: ignore[misc]

    def take(self, slot: int) -> list[int]:
        """Remove the card of an accessible slot; return the slots that turned face up."""
        self.cards[slot] = None
        self.open.remove(slot)
        turned = []
        freed = False
        covered, up = self.covered, self.up
        for s in self.slots[slot].covers:
            left = covered[s] = covered[s] - 1
            if not left:
                self.open.append(s)
                freed = True
                if not up[s]:
                    up[s] = True
                    turned.append(s)
        if freed:
            self.open.sort()
        return turned

    def remaining(self) -> list[int]:
        """Every card still in the structure, face up or down."""
        return [c for c in self.cards if c is not None]
