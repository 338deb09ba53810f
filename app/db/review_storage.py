"""What the rooms layer asks of the database for game reviews (app/rooms/reviews.py), in its own
words; app/db/sql_reviews.py keeps them.

A review is computed once: its row is claimed with a lease (the instance computing it renews it),
done or failed rows are kept, and a pending row whose lease ran out (its instance stopped) is
claimed again by another instance, or by the same one after a restart.
"""

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class ReviewRecord:
    game_id: int
    status: str  # pending, done, failed
    budget_ms: int
    body: dict[str, Any] | None
    error: str | None
    lease_until: datetime | None
    created_at: datetime
    finished_at: datetime | None


class ReviewStore(ABC):
    @abstractmethod
    async def review(self, game_id: int) -> ReviewRecord | None:
        """The game's review as stored (None: never asked for)."""

    @abstractmethod
    async def claim_review(self, game_id: int, budget_ms: int, now: datetime, until: datetime) -> bool:
        """Start the game's review, or take over a pending one whose lease ran out: True if this
        caller now holds it until `until` (False: done, failed, or another holds it)."""

    @abstractmethod
    async def claim_stale_reviews(self, now: datetime, until: datetime, limit: int) -> list[int]:
        """Take over pending reviews whose lease ran out (or was released): their game ids."""

    @abstractmethod
    async def renew_reviews(self, game_ids: Sequence[int], until: datetime) -> None:
        """Lengthen the leases of pending reviews this caller holds."""

    @abstractmethod
    async def release_reviews(self, game_ids: Sequence[int]) -> None:
        """Give back pending reviews (this instance stops): anyone may take them over at once."""

    @abstractmethod
    async def finish_review(self, game_id: int, body: dict[str, Any] | None, error: str | None = None) -> None:
        """Keep a review's result (`body`), or that it failed (`error`)."""
