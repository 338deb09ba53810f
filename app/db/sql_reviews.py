"""Game reviews on SQLAlchemy (app/db/review_storage.py is the interface)."""

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from app.db.failures import translating
from app.db.models import Review
from app.db.review_storage import ReviewRecord, ReviewStore
from app.db.session import Database
from app.db.storage import now as utc_now


def review_record(row: Review) -> ReviewRecord:
    return ReviewRecord(
        row.game_id, row.status, row.budget_ms, row.body, row.error, row.lease_until, row.created_at, row.finished_at
    )


def _claimable(moment: datetime) -> Any:
    return (Review.status == "pending") & or_(Review.lease_until.is_(None), Review.lease_until <= moment)


class SqlReviews(ReviewStore):
    db: Database
    dialect: str

    @translating
    async def review(self, game_id: int) -> ReviewRecord | None:
        async with self.db.sessions() as session:
            row = await session.get(Review, game_id)
            return None if row is None else review_record(row)

    @translating
    async def claim_review(self, game_id: int, budget_ms: int, now: datetime, until: datetime) -> bool:
        insert = postgresql.insert if self.dialect == "postgresql" else sqlite.insert
        async with self.db.sessions() as session, session.begin():
            added = await session.execute(
                insert(Review)
                .values(game_id=game_id, status="pending", budget_ms=budget_ms, lease_until=until, created_at=now)
                .on_conflict_do_nothing()
            )
            if added.rowcount:
                return True
            done = await session.execute(
                update(Review)
                .where(Review.game_id == game_id, _claimable(now))
                .values(lease_until=until, budget_ms=budget_ms)
            )
            return bool(done.rowcount)

    @translating
    async def claim_stale_reviews(self, now: datetime, until: datetime, limit: int) -> list[int]:
        async with self.db.sessions() as session, session.begin():
            ids = list(
                (
                    await session.execute(
                        select(Review.game_id).where(_claimable(now)).order_by(Review.created_at).limit(limit)
                    )
                ).scalars()
            )
            claimed = []
            for game_id in ids:  # one by one: another instance may take one meanwhile
                done = await session.execute(
                    update(Review).where(Review.game_id == game_id, _claimable(now)).values(lease_until=until)
                )
                if done.rowcount:
                    claimed.append(game_id)
            return claimed

    @translating
    async def renew_reviews(self, game_ids: Sequence[int], until: datetime) -> None:
        if not game_ids:
            return
        async with self.db.sessions() as session, session.begin():
            await session.execute(
                update(Review)
                .where(Review.game_id.in_(list(game_ids)), Review.status == "pending")
                .values(lease_until=until)
            )

    @translating
    async def release_reviews(self, game_ids: Sequence[int]) -> None:
        if not game_ids:
            return
        async with self.db.sessions() as session, session.begin():
            await session.execute(
                update(Review)
                .where(Review.game_id.in_(list(game_ids)), Review.status == "pending")
                .values(lease_until=None)
            )

    @translating
    async def finish_review(self, game_id: int, body: dict[str, Any] | None, error: str | None = None) -> None:
        async with self.db.sessions() as session, session.begin():
            await session.execute(
                update(Review)
                .where(Review.game_id == game_id)
                .values(
                    status="done" if error is None else "failed",
                    body=body,
                    error=None if error is None else error[:300],
                    lease_until=None,
                    finished_at=utc_now(),
                )
            )
