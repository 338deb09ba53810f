"""/docs (Swagger UI) and /redoc (ReDoc) with no internet.

FastAPI's own pages load their scripts and CSS from a CDN. `app.main` builds the app with
fastapi-offline's `FastAPIOffline`, which turns those routes off and serves the same pages at the
same paths with Swagger UI's and ReDoc's files and the favicon from the package, under DOCS_ASSETS.

ReDoc's bundle still holds one URL to another host: the sidebar's "API docs by Redocly" logo
(an <img> that hides itself when it cannot load, as offline). `OnlyThisServer` sends the two pages
with a Content-Security-Policy that allows this server only, so the browser never asks for it.
"""

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

DOCS_ASSETS = "/docs-assets"
DOCS_PAGES = frozenset({"/docs", "/redoc"})
# 'self' only, whatever the kind; inline scripts and styles (both pages start their UI inline),
# data: and blob: URLs (icons, ReDoc's search worker) are still this page's own.
POLICY = "default-src 'self' 'unsafe-inline' data: blob:; object-src 'none'; base-uri 'self'"


class OnlyThisServer:
    """ASGI middleware: the docs pages answer with POLICY as their Content-Security-Policy."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] not in DOCS_PAGES:
            await self.app(scope, receive, send)
            return

        async def send_with_policy(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message)["Content-Security-Policy"] = POLICY
            await send(message)

        await self.app(scope, receive, send_with_policy)
