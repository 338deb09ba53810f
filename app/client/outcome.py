"""Outcome: how the client's game ended (what `play` and `BotClient.run` return)."""

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Outcome:
    """How the client's game ended."""

    code: str
    seat: int | None
    token: str
    status: str = "running"  # finished, abandoned (the room was closed unused) or closed (no game was played)
    game_id: int | None = None
    result: dict[str, Any] | None = None  # the score sheet of a finished game
    version: int = 0  # the game's last version seen
    seqs: list[int] = field(default_factory=list)  # the step numbers of this seat's own accepted actions
    duplicates: int = 0  # actions sent again after a lost answer, which the server had applied already
    reconnects: int = 0
    timeouts: int = 0  # decisions the server made for this seat when its clock ran out
    names: dict[int, str | None] = field(default_factory=dict)

    @property
    def actions(self) -> int:
        return len(self.seqs)
