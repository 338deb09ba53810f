"""Limits on what clients send, before any of it is parsed by a route: a request body's size, how
deep a JSON document may nest, and text that is Unicode (REST bodies here, websocket messages in
app/api/ws.py). A JSON escape may name half of a UTF-16 surrogate pair (`"\ud800"`): valid JSON,
but no text a database or a reply could hold, so it is refused like bytes that are not UTF-8.

Nesting is measured only when a document holds more brackets than the limit (two `str.count`s),
so an ordinary action costs next to nothing; the documents that would nest deeper are parsed and
measured, and one too deep for the JSON parser itself counts as too deep.
"""

import json
import re
from typing import Any

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.errors import error_body


def depth_of(value: Any) -> int:
    """How deeply lists and objects nest in a parsed JSON value (a scalar: 0, `[]`: 1)."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = item.values()
        elif not isinstance(item, list):
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in item if isinstance(child, dict | list))
    return deepest


def may_nest_deeper(text: str | bytes, limit: int) -> bool:
    """False when the text cannot nest deeper than `limit`: it has no more brackets than that."""
    if isinstance(text, bytes):
        return text.count(b"[") + text.count(b"{") > limit
    return text.count("[") + text.count("{") > limit


def too_deep(text: str | bytes, limit: int) -> bool:
    """Whether the JSON text nests deeper than `limit` (False for text that is not JSON at all)."""
    if not may_nest_deeper(text, limit):
        return False
    try:
        return depth_of(json.loads(text)) > limit
    except RecursionError:
        return True
    except ValueError:
        return False


SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")
SURROGATE_ESCAPE_BYTES = re.compile(rb"\\u[dD][89abcdefABCDEF]")


def lone_surrogate(text: str | bytes, value: Any) -> bool:
    """Whether the parsed `value` of JSON `text` holds half a surrogate pair (looked for only when the
    text escapes one: a whole pair decodes to one character)."""
    pattern = SURROGATE_ESCAPE_BYTES if isinstance(text, bytes) else SURROGATE_ESCAPE
    if not pattern.search(text):  # type: ignore[arg-type]
        return False
    try:
        json.dumps(value, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        return True
    return False


NOT_UNICODE = "the text holds half of a UTF-16 surrogate pair (an escape like \\ud800): it is not Unicode text"


def too_deep_message(limit: int) -> str:
    return f"the JSON nests deeper than {limit} levels of objects and lists (the limit, MAX_JSON_DEPTH)"


def too_large_message(size: int, limit: int, setting: str) -> str:
    return f"{size} bytes refused: the limit is {limit} bytes ({setting})"


class BodyLimits:
    """ASGI middleware: a request body over `max_bytes` is answered 413 `too_large` (unread, when its
    Content-Length says so), a JSON body nesting deeper than `max_depth` 400 `too_deep`."""

    def __init__(self, app: ASGIApp, max_bytes: int, max_depth: int) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.max_depth = max_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(scope, receive, send, size=int(declared))
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_bytes:
                await self._refuse(scope, receive, send, size=len(body))
                return
        if body and too_deep(bytes(body), self.max_depth):
            await self._refuse(scope, receive, send, size=None)
            return
        if SURROGATE_ESCAPE_BYTES.search(body) and _not_unicode(bytes(body)):
            response = JSONResponse(error_body("bad_encoding", f"request body: {NOT_UNICODE}"), status_code=400)
            await response(scope, receive, send)
            return
        await self.app(scope, _replay(bytes(body), receive), send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, *, size: int | None) -> None:
        """413 `too_large` for a body of `size` bytes, or (no size) 400 `too_deep`."""
        if size is not None:
            status, code, message = 413, "too_large", too_large_message(size, self.max_bytes, "MAX_BODY_BYTES")
            details = {"limit": self.max_bytes, "size": size}
        else:
            status, code, message = 400, "too_deep", too_deep_message(self.max_depth)
            details = {"limit": self.max_depth}
        response = JSONResponse(error_body(code, f"request body: {message}", details), status_code=status)
        await response(scope, receive, send)


def _not_unicode(body: bytes) -> bool:
    try:
        return lone_surrogate(body, json.loads(body))
    except ValueError:
        return False  # not JSON: the route says so


def _replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that gives the body read already, then whatever the client sends next (a disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
