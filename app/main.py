"""The FastAPI application: `app.main:app`, or `create_app(settings)` for tests and embedding.

At start the lifespan migrates the database to the newest schema (creating it if needed) and starts
the services (app/rooms/context.py); no game is loaded until something asks for it.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi_offline import FastAPIOffline

from app import logs
from app.api import (
    advice,
    caching,
    catalog,
    chat,
    errors,
    games,
    health,
    links,
    metrics,
    my_games,
    notify,
    protocol,
    rooms,
    security,
    web,
    ws,
)
from app.api.connection_limit import ConnectionsPerAddress
from app.api.docs import DOCS_ASSETS, OnlyThisServer
from app.api.http_protocol import SERVER_STOPPING
from app.api.limits import BodyLimits
from app.engine import new_game
from app.rooms.context import Services
from app.rooms.games import GameFactory
from app.settings import Settings, get_settings

DESCRIPTION = """
An open server for **7 Wonders** (3-7 players, with Armada when available) and **7 Wonders Duel**.

1. `POST /api/rooms` creates a private room: you get its code and your secret seat token.
2. Friends `POST /api/rooms/{code}/join` with a name; the host may add bots and `POST .../start`.
3. Play over REST (`GET .../game`, `POST .../game/actions`) or the websocket `/ws/rooms/{code}`
   (see `docs/PROTOCOL.md`). Seat requests carry `Authorization: Bearer <token>`.

Errors always answer `{"error": {"code", "message"}}`.
"""


def create_app(settings: Settings | None = None, *, factory: GameFactory = new_game) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[dict[str, Any]]:
        logs.configure(settings.log_format, settings.log_level)
        services = await Services.start(settings, factory=factory)
        app.state.services = services
        try:
            # uvicorn hands this state to its protocols: ours calls it when the server starts to stop
            yield {SERVER_STOPPING: services.games.stop_waiting}
        finally:
            await services.stop()

    # /docs and /redoc with their scripts, CSS and favicon from the fastapi-offline package, not a
    # CDN (see app/api/docs.py)
    app = FastAPIOffline(
        title="Wonders server",
        version="0.1.0",
        description=DESCRIPTION,
        lifespan=lifespan,
        static_url=DOCS_ASSETS,
    )
    app.add_middleware(OnlyThisServer)
    app.add_middleware(BodyLimits, max_bytes=settings.max_body_bytes, max_depth=settings.max_json_depth)
    app.add_middleware(logs.LogContext)  # log lines name the room of the request
    caching.install_compression(app)  # HTTP only: websocket frames keep uvicorn's permessage-deflate
    security.install(app, settings.cors_origins)  # outermost: every answer gets the headers
    app.state.settings = settings
    app.state.connections_per_address = ConnectionsPerAddress(settings.ws_connections_per_address)
    errors.install(app)
    app.include_router(health.router)
    app.include_router(metrics.router)
    app.include_router(catalog.router)
    app.include_router(chat.router)
    app.include_router(notify.router)
    app.include_router(my_games.router)
    app.include_router(protocol.router)
    app.include_router(rooms.router)
    app.include_router(games.router)
    app.include_router(advice.router)
    app.include_router(ws.router)
    web.install(app, settings.static_dir)
    links.install(app)
    return app


app = create_app()
