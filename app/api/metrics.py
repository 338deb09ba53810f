"""`GET /metrics`: Prometheus text exposition (see app/metrics.py); not part of the OpenAPI schema."""

from fastapi import APIRouter
from fastapi.responses import Response

from app import metrics
from app.api.deps import ServicesDep

router = APIRouter(include_in_schema=False)


@router.get("/metrics")
async def get_metrics(svc: ServicesDep) -> Response:
    counts = await svc.store.status_counts()
    return Response(metrics.scrape(counts, len(svc.games.runtimes)), media_type=metrics.CONTENT_TYPE)
