"""Liveness and readiness."""

from fastapi import APIRouter

from app.api.deps import ServicesDep
from app.api.schemas import HealthOut
from app.rooms.errors import Unavailable

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=HealthOut, summary="Is the server up and its database reachable?")
async def healthz(svc: ServicesDep) -> HealthOut:
    try:
        await svc.store.ping()
    except Exception as exc:
        raise Unavailable(f"the database does not answer: {type(exc).__name__}", code="database_down") from None
    return HealthOut(
        status="ok",
        database=svc.store.dialect,
        instance=svc.settings.instance_id,
        games_loaded=len(svc.games.runtimes),
        connections=sum(len(c.listeners) for c in svc.hub.channels.values()),
    )
