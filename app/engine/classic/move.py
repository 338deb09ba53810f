"""A validated choice of one seat in the classic game, and its canonical and public forms."""

from dataclasses import dataclass
from typing import Any

from app.engine.classic.player import SIDE_NAMES

CARD_ACTION_FIELDS = frozenset({"card", "trade", "cost", "free", "stage"})


@dataclass(slots=True)
class Move:
    """A validated choice of one seat: what it does with which card and how it pays."""

    kind: str  # build, wonder or discard
    card: int  # card instance id
    stage: int | None = None
    bank: int = 0
    coins: tuple[int, ...] = (0, 0)  # paid to each seller, in the order of `sides`
    free: str | None = None
    trade: dict[str, dict[str, int]] | None = None  # resources bought, as in the action
    sides: tuple[str, ...] = SIDE_NAMES  # whom the coins go to (a variant may add sellers)

    def action(self, name: str) -> dict[str, Any]:
        """The canonical action that makes this move (what the log keeps)."""
        out: dict[str, Any] = {"type": self.kind, "card": name}
        if self.stage is not None:
            out["stage"] = self.stage + 1
        if self.trade is not None:
            out["trade"] = self.trade
        return out

    def public(self, seat: int, name: str) -> dict[str, Any]:
        """What every seat sees once the move is revealed: never the card of a stage or a discard."""
        out: dict[str, Any] = {"seat": seat, "type": self.kind}
        if self.kind == "build":
            out["card"] = name
        elif self.kind == "wonder":
            assert self.stage is not None
            out["stage"] = self.stage + 1
        if self.kind != "discard":
            if self.sides is SIDE_NAMES:
                out["cost"] = {"bank": self.bank, "left": self.coins[0], "right": self.coins[1]}
            else:
                out["cost"] = {"bank": self.bank, **dict(zip(self.sides, self.coins, strict=True))}
            if self.free:
                out["free"] = self.free
        return out
