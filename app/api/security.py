"""Response headers for browsers, and CORS only where a setting allows it.

Every HTTP response says: run only this server's own scripts and styles, with no inline script,
style or event handler (the browser client has none: static/ is plain files and DOM code), connect
only back here (REST and the websocket), never be framed, never sniff a content type, and send no
Referer (a room page's URL may hold a rejoin link's secret). The /docs pages keep the policy
app/api/docs.py gives them (Swagger UI and ReDoc start themselves inline).

Cross-origin requests get no CORS headers, so browsers keep other sites' pages from reading
answers, unless CORS_ORIGINS lists the origins allowed.
"""

from fastapi import FastAPI
from starlette.datastructures import MutableHeaders
from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def with_policy(headers: MutableHeaders) -> None:
    """HEADERS, and the policy unless the response set its own."""
    for name, value in HEADERS.items():
        headers[name] = value
    if "content-security-policy" not in headers:
        headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY


class SecurityHeaders:
    """ASGI middleware: HEADERS on every HTTP response, and the policy unless a route set its own.
    Starlette answers an unhandled error outside every middleware: app/api/errors.py adds them there."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                with_policy(MutableHeaders(scope=message))
            await send(message)

        await self.app(scope, receive, send_with_headers)


def install(app: FastAPI, cors_origins: list[str]) -> None:
    """Add the headers, and CORS for `cors_origins` when there are any (outermost, to answer preflights)."""
    app.add_middleware(SecurityHeaders)
    if cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=cors_origins,
            allow_methods=["GET", "POST", "PATCH", "DELETE"],
            allow_headers=["Authorization", "Content-Type"],
        )
