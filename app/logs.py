"""Logging: plain text (LOG_FORMAT=plain, the default) or one JSON object a line (LOG_FORMAT=json),
for the server's own loggers and uvicorn's (its access log included). Never a token.

A JSON line has `time` (UTC, ISO 8601), `level`, `logger`, `message`, and when the record concerns
one, `room` (its code) and `game_id`; an exception comes as `exc` (the traceback's text); an
access line also has `client`, `method`, `path` and `status`. `room` and `game_id` come from the
record (`log.info(..., extra={"room": code, "game_id": id})`) or else from the context:
`LogContext` (an ASGI middleware) sets the room of every request and websocket under
`/api/rooms/{code}` and `/ws/rooms/{code}`, and `bind()` sets them for a task (a game's
submission, a bot).

Tokens: the server never logs one, and every formatter here masks, as a safety net, whatever
looks like one: `Bearer <x>`, a `token` field's value of 8 or more characters (`token=x`,
`"token": "x"`, `rejoin_token: x`), and any long random-looking word (32 or more letters, digits,
`-` or `_`, mixing at least two of upper case, lower case and digits: seat tokens are 43 such
characters, token hashes 64), so a token in a URL (a query string, a rejoin link) is masked too.
"""

import json
import logging
import re
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from uvicorn.logging import AccessFormatter, DefaultFormatter

from app.tokens import is_code, normalize_code

ROOM: ContextVar[str | None] = ContextVar("log_room", default=None)
GAME: ContextVar[int | None] = ContextVar("log_game_id", default=None)

PLAIN_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
MASK = "***"

_BEARER = re.compile(r"(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]+")  # RFC 6750's b64token
_FIELD = re.compile(r"""(?i)(\b\w*token\w*["']?\s*[:=]\s*["']?)[A-Za-z0-9._~+/=%-]{8,}""")
_RANDOM = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32,}(?![A-Za-z0-9_-])")


def _mask_random(match: re.Match[str]) -> str:
    word = match.group(0)
    kinds = any(c.isupper() for c in word) + any(c.islower() for c in word) + any(c.isdigit() for c in word)
    return MASK if kinds >= 2 else word


def redact(text: str) -> str:
    """`text` with anything that looks like a token masked."""
    if not text:
        return text
    text = _BEARER.sub(lambda m: m.group(1) + MASK, text)
    text = _FIELD.sub(lambda m: m.group(1) + MASK, text)
    return _RANDOM.sub(_mask_random, text)


def bind(*, room: str | None = None, game_id: int | None = None) -> None:
    """Name the room and game of what the current task logs from now on (a task's context is its
    own: this never leaks into other tasks)."""
    if room is not None:
        ROOM.set(room)
    if game_id is not None:
        GAME.set(game_id)


def _context(record: logging.LogRecord) -> dict[str, Any]:
    out: dict[str, Any] = {}
    room = getattr(record, "room", None) or ROOM.get()
    game_id = getattr(record, "game_id", None)
    if game_id is None:
        game_id = GAME.get()
    if room is not None:
        out["room"] = room
    if game_id is not None:
        out["game_id"] = game_id
    return out


class JsonFormatter(logging.Formatter):
    """One JSON object a line (see the module's docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        out.update(_context(record))
        args = record.args
        if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5:
            client, method, path, _version, status = args
            out.update(client=str(client), method=str(method), path=redact(str(path)), status=_int(status))
        if record.exc_info:
            out["exc"] = redact(self.formatException(record.exc_info))
        elif record.exc_text:
            out["exc"] = redact(record.exc_text)
        if record.stack_info:
            out["stack"] = redact(self.formatStack(record.stack_info))
        return json.dumps(out, ensure_ascii=False, default=str)


def _int(value: Any) -> Any:
    try:
        return int(value)
    except (TypeError, ValueError):
        return value


class PlainFormatter(logging.Formatter):
    """The usual text lines, tokens masked."""

    def __init__(self, fmt: str = PLAIN_FORMAT, **kwargs: Any) -> None:
        super().__init__(fmt, **kwargs)

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


class UvicornFormatter(DefaultFormatter):
    """uvicorn's own lines, tokens masked."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


class UvicornAccessFormatter(AccessFormatter):
    """uvicorn's access lines, tokens masked (a token in a URL, say)."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


def formatter(log_format: str) -> logging.Formatter:
    return JsonFormatter() if log_format == "json" else PlainFormatter()


def uvicorn_log_config(log_format: str, level: str = "info") -> dict[str, Any]:
    """The `log_config` for uvicorn (`python -m app`): the server's loggers (through the root
    logger), uvicorn's and its access log, all in one format."""
    level = level.upper()
    if log_format == "json":
        formatters: dict[str, Any] = {
            "default": {"()": "app.logs.JsonFormatter"},
            "access": {"()": "app.logs.JsonFormatter"},
            "app": {"()": "app.logs.JsonFormatter"},
        }
    else:
        formatters = {
            "default": {"()": "app.logs.UvicornFormatter", "fmt": "%(levelprefix)s %(message)s", "use_colors": None},
            "access": {
                "()": "app.logs.UvicornAccessFormatter",
                "fmt": '%(levelprefix)s %(client_addr)s - "%(request_line)s" %(status_code)s',
            },
            "app": {"()": "app.logs.PlainFormatter"},
        }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": formatters,
        "handlers": {
            "default": {"formatter": "default", "class": "logging.StreamHandler", "stream": "ext://sys.stderr"},
            "access": {"formatter": "access", "class": "logging.StreamHandler", "stream": "ext://sys.stdout"},
            "app": {"formatter": "app", "class": "logging.StreamHandler", "stream": "ext://sys.stderr"},
        },
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": level, "propagate": False},
            "uvicorn.error": {"level": level},
            "uvicorn.access": {"handlers": ["access"], "level": level, "propagate": False},
        },
        "root": {"handlers": ["app"], "level": level},
    }


def configure(log_format: str, level: str = "info") -> None:
    """At the app's start, when nobody configured logging (uvicorn started some other way than
    `python -m app`): the root logger in this format; with json, uvicorn's handlers too. Python's
    warnings go through the root logger as well, so a library's warning is a line in this format."""
    logging.captureWarnings(True)
    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(formatter(log_format))
        root.addHandler(handler)
        root.setLevel(level.upper())
    if log_format == "json":
        for name in ("uvicorn", "uvicorn.access"):
            for handler in logging.getLogger(name).handlers:
                if not isinstance(handler.formatter, JsonFormatter):
                    handler.setFormatter(JsonFormatter())


ROOM_PATHS = ("/api/rooms/", "/ws/rooms/")


class LogContext:
    """ASGI middleware: what a request or websocket under a room's path logs names that room."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            path: str = scope.get("path", "")
            for prefix in ROOM_PATHS:
                if path.startswith(prefix):
                    code = normalize_code(path[len(prefix) :].split("/", 1)[0])
                    if is_code(code):
                        token = ROOM.set(code)
                        try:
                            await self.app(scope, receive, send)
                        finally:
                            ROOM.reset(token)
                        return
        await self.app(scope, receive, send)
