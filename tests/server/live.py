"""A real uvicorn serving the app in a background thread (its own event loop), on a free port."""

import asyncio
import threading
import time
from collections.abc import Coroutine
from typing import Any

import uvicorn

from app.api.serving import uvicorn_options
from app.engine import new_game
from app.main import create_app
from app.settings import Settings


class LiveServer:
    def __init__(self, settings: Settings, factory=new_game) -> None:  # type: ignore[no-untyped-def]
        self.settings = settings
        self.app = create_app(settings, factory=factory)
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=0,
            log_level="warning",
            lifespan="on",
            **uvicorn_options(settings),
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="uvicorn", daemon=True)
        self.port = 0

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def services(self):  # type: ignore[no-untyped-def]
        return self.app.state.services

    async def run(self, coro: Coroutine[Any, Any, Any]) -> Any:
        """Await `coro` in the server's own event loop (its database connections and tasks live there)."""
        loop = self.server.servers[0].get_loop()
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, loop))

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
