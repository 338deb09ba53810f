"""Liveness and readiness."""

from datetime import UTC, datetime
from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel

from app.api.deps import ServicesDep
from app.rooms.errors import Unavailable

router = APIRouter(tags=["health"])


class HealthOut(BaseModel):
    status: Literal["ok"]
    database: str
    instance: str
    games_loaded: int
    connections: int


@router.get("/healthz", response_model=HealthOut, summary="Is the server up, its database reachable and storing?")
async def healthz(svc: ServicesDep) -> HealthOut:
    """503 `database_down` when the database does not answer; 503 `writes_failing` when it answers but
    refused to store the last actions (a full disk, say), until it stores one again."""
    try:
        await svc.store.ping()
    except Exception as exc:
        raise Unavailable(f"the database does not answer: {type(exc).__name__}", code="database_down") from None
    failing = svc.store.writes_failing()
    if failing is not None:
        since = datetime.fromtimestamp(failing.since, UTC).isoformat(timespec="seconds")
        raise Unavailable(
            f"the database refuses to store actions since {since} ({failing.reason}); "
            "players' actions are refused meanwhile",
            code="writes_failing",
        )
    return HealthOut(
        status="ok",
        database=svc.store.dialect,
        instance=svc.settings.instance_id,
        games_loaded=len(svc.games.runtimes),
        connections=sum(len(c.listeners) for c in svc.hub.channels.values()),
    )
