"""Websocket messages handled beside app/api/ws.py: a seat's `chat` (everyone in the room hears it
through the hub, this seat too), and its `hint` (answered to its connection with a `hint` message once
the search bot has thought, the connection reading on meanwhile)."""

import asyncio
import logging
from typing import Any

from app.api.ws_messages import ChatInMsg, HintInMsg, HintMsg
from app.rooms.errors import Forbidden, RoomError, outage_of

log = logging.getLogger("wonders.ws")
_tasks: set[asyncio.Task[None]] = set()


async def handle(conn: Any, message: Any) -> None:
    """`conn` is app.api.ws.Connection."""
    if isinstance(message, ChatInMsg):
        await _say(conn, message.text)
    elif isinstance(message, HintInMsg):
        task = asyncio.create_task(_hint(conn))
        _tasks.add(task)
        task.add_done_callback(_tasks.discard)


async def _say(conn: Any, text: str) -> None:
    try:
        if conn.auth is None:
            raise Forbidden("spectators read the chat; only seats say something in it", code="spectator")
        await conn.svc.rooms.say(conn.auth, text)
    except RoomError as exc:
        conn._error(exc.code, exc.message, exc.details)
    except Exception as exc:
        if (outage := outage_of(exc)) is None:
            raise
        conn._error(outage.code, outage.message)


async def _hint(conn: Any) -> None:
    try:
        if conn.auth is None:
            raise Forbidden("spectators get no hints: connect with a seat token", code="spectator")
        conn.queue(HintMsg(**await conn.svc.advice.hint(conn.auth)))
    except RoomError as exc:
        conn._error(exc.code, exc.message, exc.details)
    except Exception as exc:
        if (outage := outage_of(exc)) is not None:
            conn._error(outage.code, outage.message)
            return
        log.exception("a hint for seat %s failed", conn.seat)
        conn._error("internal", "the server could not give a hint; try again")
