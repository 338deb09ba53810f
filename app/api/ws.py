"""The websocket `/ws/rooms/{code}`: see docs/PROTOCOL.md.

Each connection has a reader (the client's messages, one at a time) and a writer. The writer sends
direct replies (accepted, error, pong) first, then pulls what changed since it last wrote: the room,
the public events of each new game step, and this seat's own state. Messages are rendered once per
game version and seat and shared by every connection that needs them.
"""

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, WebSocket
from pydantic import BaseModel, ValidationError
from starlette.websockets import WebSocketDisconnect, WebSocketState

from app import metrics
from app.api import render, ws_more
from app.api.batching import batch
from app.api.connection_limit import ConnectionsPerAddress
from app.api.deps import bearer_token
from app.api.errors import clean_errors, describe_validation, not_json_reason, refuse_constant
from app.api.limits import NOT_UNICODE, depth_of, lone_surrogate, may_nest_deeper, too_deep_message, too_large_message
from app.api.room_schemas import RoomOut
from app.api.ws_messages import (
    CLIENT_TYPES,
    AcceptedMsg,
    ActionMsg,
    ChatMsg,
    ErrorMsg,
    HelloMsg,
    Limits,
    PingMsg,
    PongMsg,
    RoomMsg,
    SyncMsg,
    WelcomeMsg,
    client_message,
)
from app.rooms.chat import readable_by_spectators
from app.rooms.context import Services
from app.rooms.errors import Forbidden, NotFound, RoomError, TooMany, Unauthorized, outage_of
from app.rooms.frames import Frame
from app.rooms.games import GameRuntime
from app.rooms.hub import RoomChannel
from app.rooms.room_rules import spectator_policy
from app.rooms.service import SeatAuth
from app.tokens import normalize_code

log = logging.getLogger("wonders.ws")
router = APIRouter()

CLOSE_UNAUTHORIZED = 4401
CLOSE_NOT_FOUND = 4404
CLOSE_TIMEOUT = 4408
CLOSE_TOO_MANY = 4429
CLOSE_REVOKED = 4403
CLOSE_TRY_AGAIN = 1013  # the database is down: connect again in a few seconds
SPECTATORS_OFF = "this room allows no spectators: only its players see its games (take a seat to play)"


class TokenBucket:
    """`rate` messages a second on average, `burst` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.capacity = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class _Closed(Exception):
    pass


class Connection:
    def __init__(self, websocket: WebSocket, services: Services) -> None:
        self.ws = websocket
        self.svc = services
        self.settings = services.settings
        self.seat: int | None = None
        self.token_hash: str | None = None
        self.auth: SeatAuth | None = None
        self.channel: RoomChannel | None = None
        self.out: deque[str] = deque()
        self._wake = asyncio.Event()
        self.sent_room_version = 0
        self.game_id: int | None = None
        self.sent_version = -1  # of the last state sent
        self.events_version = -1  # the events of every step up to this version were sent
        self.quiet_since_state = False  # every step since the last state sent was a secret pick
        self.held: asyncio.TimerHandle | None = None  # the wake-up for a state held back (see _state_may_wait)
        self.hold_over = False  # that wake-up came: the state goes out now
        self.closing: tuple[int, str] | None = None
        self.chat_version = 0  # of the channel's chat, last looked at
        self.chat_sent: dict[int, bool] = {}  # the chat messages sent, by id: whether as deleted
        self.bucket = TokenBucket(self.settings.ws_rate_per_second, self.settings.ws_rate_burst)
        self._last_rate_error = 0.0

    # ----- Listener (for the hub) --------------------------------------------------------------

    def wake(self) -> None:
        self._wake.set()

    def revoke(self, reason: str) -> None:
        if self.closing is None:
            self.queue(ErrorMsg(code="seat_lost", message=reason))
            self.closing = (CLOSE_REVOKED, "seat lost")

    def queue(self, message: BaseModel) -> None:
        self.out.append(message.model_dump_json())
        self._wake.set()

    # ----- life ------------------------------------------------------------------------------------

    async def run(self, code: str) -> None:
        await self.ws.accept()
        code = normalize_code(code)
        try:
            auth = await self._authenticate(code)
            if auth is not None:
                self.seat, self.token_hash, self.auth = auth.seat, auth.token_hash, auth
            self.channel = await self.svc.hub.attach(code, self)
        except RoomError as exc:
            close = {
                Unauthorized: CLOSE_UNAUTHORIZED,
                NotFound: CLOSE_NOT_FOUND,
                TooMany: CLOSE_TOO_MANY,
                Forbidden: CLOSE_REVOKED,
            }.get(type(exc), 1008)
            await self.refuse(exc.code, exc.message, close)
            return
        except (_Closed, WebSocketDisconnect):
            return
        except Exception as exc:
            outage = outage_of(exc)
            if outage is None:
                raise
            log.warning("a connection to room %s waits for the database: %r", code, exc)
            await self.refuse(outage.code, outage.message, CLOSE_TRY_AGAIN)
            return
        channel = self.channel
        assert channel is not None and channel.room is not None
        self.out.appendleft(
            WelcomeMsg(
                seat=self.seat,
                room=RoomOut(**channel.room),
                limits=Limits(
                    max_message_bytes=self.settings.ws_max_message_bytes,
                    rate_per_second=self.settings.ws_rate_per_second,
                    burst=self.settings.ws_rate_burst,
                    max_json_depth=self.settings.max_json_depth,
                ),
                server_time=datetime.now(UTC).isoformat(timespec="milliseconds"),
            ).model_dump_json()
        )
        self.sent_room_version = channel.room_version
        self._wake.set()
        writer = asyncio.create_task(self._writer())
        reader = asyncio.create_task(self._reader())
        try:
            await asyncio.wait({writer, reader}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (reader, writer):
                task.cancel()
            for task in (reader, writer):
                with contextlib.suppress(BaseException):
                    await task
            await self.svc.hub.detach(channel, self)
            if self.ws.application_state != WebSocketState.DISCONNECTED:
                with contextlib.suppress(Exception):
                    await self.ws.close()

    async def refuse(self, code: str, message: str, close_code: int) -> None:
        with contextlib.suppress(Exception):
            await self.ws.send_text(ErrorMsg(code=code, message=message).model_dump_json())
            await self.ws.close(close_code, code)

    async def _authenticate(self, code: str) -> SeatAuth | None:
        token = bearer_token(self.ws.headers.get("authorization"))
        if token is not None:
            return await self.svc.rooms.authenticate(code, token)
        deadline = time.monotonic() + self.settings.ws_auth_timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                await self.refuse(
                    "hello_timeout", "send 'hello' first (with a seat token, or none to watch)", CLOSE_TIMEOUT
                )
                raise _Closed
            try:
                text = await asyncio.wait_for(self._receive_text(), remaining)
            except TimeoutError:
                continue
            message = None if text is None else self._parse(text)
            while self.out:  # errors about refused messages, at once
                await self.ws.send_text(self.out.popleft())
            if message is None:
                continue
            if not isinstance(message, HelloMsg):
                await self._send_now(
                    ErrorMsg(code="hello_first", message="send 'hello' first (with a seat token, or none to watch)")
                )
                continue
            if message.token is None:
                room = await self.svc.rooms.get(code)  # the room must exist
                if spectator_policy(room["settings"]) == "off":
                    raise Forbidden(SPECTATORS_OFF, code="spectators_off")
                return None
            return await self.svc.rooms.authenticate(code, message.token)

    async def _send_now(self, message: BaseModel) -> None:
        await self.ws.send_text(message.model_dump_json())

    # ----- reading -----------------------------------------------------------------------------

    async def _receive_text(self) -> str | None:
        """The next message as text, or None if it was refused (flood, too large, not UTF-8). Every
        frame counts against the rate limit first, whatever it holds, so refusals cannot be flooded."""
        message = await self.ws.receive()
        if message["type"] == "websocket.disconnect":
            raise _Closed
        if not self.bucket.take():
            now = time.monotonic()
            if now - self._last_rate_error >= 1.0:  # one notice a second, not one per dropped message
                self._last_rate_error = now
                self._error(
                    "rate_limited",
                    f"too many messages: at most {self.settings.ws_rate_per_second:g} a second "
                    f"(bursts of {self.settings.ws_rate_burst}); messages are being dropped",
                )
            return None
        limit = self.settings.ws_max_message_bytes
        text = message.get("text")
        if text is None:
            data = message.get("bytes") or b""
            if len(data) > limit:
                return self._refused(len(data))
            try:
                text = data.decode()
            except UnicodeDecodeError:
                self._error("bad_encoding", "messages must be UTF-8 JSON text")
                return None
        elif len(text) * 4 > limit and len(text.encode()) > limit:
            return self._refused(len(text.encode()))
        return text

    def _refused(self, size: int) -> None:
        limit = self.settings.ws_max_message_bytes
        self._error(
            "too_large",
            f"message of {too_large_message(size, limit, 'WS_MAX_MESSAGE_BYTES')}",
            {"limit": limit, "size": size},
        )

    def _error(self, code: str, message: str, details: Any = None, action_id: str | None = None) -> None:
        self.queue(ErrorMsg(code=code, message=message, details=details, action_id=action_id))

    def _parse(self, text: str) -> Any:
        limit = self.settings.max_json_depth
        try:
            data = json.loads(text, parse_constant=refuse_constant)
            deep = may_nest_deeper(text, limit) and depth_of(data) > limit
        except RecursionError:  # deeper than the parser goes
            deep = True
        except ValueError as exc:
            self._error("bad_json", f"the message is not valid JSON: {not_json_reason(exc)}")
            return None
        if deep:
            self._error("too_deep", f"message refused: {too_deep_message(limit)}", {"limit": limit})
            return None
        if "\\u" in text and lone_surrogate(text, data):
            self._error("bad_encoding", f"message refused: {NOT_UNICODE}")
            return None
        if not isinstance(data, dict):
            self._error("bad_message", "a message must be a JSON object with a 'type'")
            return None
        kind = data.get("type")
        if kind not in CLIENT_TYPES:
            self._error("unknown_type", f"unknown message type {kind!r}; clients send one of {', '.join(CLIENT_TYPES)}")
            return None
        try:
            return client_message.validate_python(data)
        except ValidationError as exc:
            # each error's loc starts with the message's type (the union's tag): what follows is the field
            errors = clean_errors([{**e, "loc": e["loc"][1:]} for e in exc.errors(include_input=False)])
            code, message = describe_validation(errors, default="bad_message")
            what = "action" if code == "illegal_action" else f"'{kind}' message"
            self._error(code, f"bad {what}: {message}", details=errors)
            return None

    async def _reader(self) -> None:
        while self.closing is None:
            text = await self._receive_text()
            if self.closing is not None:  # the seat was lost while this message came in: not its seat's any more
                break
            if text is None:
                continue
            try:
                message = self._parse(text)
                if message is not None:
                    await self._handle(message)
            except Exception:  # one message the server failed on: say so, and keep the connection
                log.exception("a message of seat %s in room %s failed", self.seat, self.channel and self.channel.code)
                self._error("internal", "the server could not handle this message; try again")

    async def _handle(self, message: Any) -> None:
        if isinstance(message, PingMsg):
            self.queue(PongMsg(data=message.data))
        elif isinstance(message, SyncMsg):
            self.sent_room_version = 0
            self.sent_version = self.events_version = -1
            self._wake.set()
        elif isinstance(message, HelloMsg):
            self._error("already_authenticated", "this connection is already set up; open another one to change seat")
        elif isinstance(message, ActionMsg):
            await self._act(message)
        else:  # what app/api/ws_more.py handles (the chat, a hint)
            await ws_more.handle(self, message)

    async def _act(self, message: ActionMsg) -> None:
        try:
            if self.seat is None:
                raise Forbidden("spectators cannot act: connect with a seat token", code="spectator")
            channel = self.channel
            assert channel is not None
            if channel.game is None:
                raise Forbidden("the game has not started yet", code="no_game")
            here = channel.room["seats"][self.seat] if channel.room and self.seat < len(channel.room["seats"]) else {}
            done = await self.svc.rooms.person_acts(
                channel.code,
                self.seat,
                message.action,
                game_id=channel.game.game_id,
                version=message.version,
                action_id=message.action_id,
                bot_played=bool(here.get("bot_plays")) or self.seat in channel.game.bots,
            )
            self.queue(
                AcceptedMsg(
                    game_id=channel.game.game_id, seq=done.seq, version=done.version, action_id=message.action_id
                )
            )
        except RoomError as exc:
            self._error(exc.code, exc.message, exc.details, message.action_id)
        except Exception as exc:
            if (outage := outage_of(exc)) is not None:
                self._error(outage.code, outage.message, None, message.action_id)
                return
            log.exception("action of seat %s in room %s failed", self.seat, self.channel and self.channel.code)
            self._error("internal", "the server could not handle this action; try again", None, message.action_id)

    # ----- writing -----------------------------------------------------------------------------

    async def _writer(self) -> None:
        linger = self.settings.ws_coalesce_ms / 1000
        last_flush = 0.0
        while True:
            await self._wake.wait()
            wait = last_flush + linger - time.monotonic()
            if wait > 0 and not self.out and self.closing is None:
                # A burst (several seats picking at once): the first change went out at once; let the
                # rest gather, so the seat gets every event but one state for the burst.
                await asyncio.sleep(wait)
            self._wake.clear()
            last_flush = time.monotonic()
            with batch(self.ws.scope):  # one socket write for them all (see app.api.batching)
                for text in self._pending():
                    await self.ws.send_text(text)
            if self.closing is not None:
                code, reason = self.closing
                await self.ws.close(code, reason)
                return

    def _pending(self) -> list[str]:
        out = list(self.out)
        self.out.clear()
        channel = self.channel
        if channel is None or self.closing is not None:
            return out
        policy = "live" if self.seat is not None or channel.room is None else spectator_policy(channel.room["settings"])
        if policy == "off":  # the room stopped letting spectators watch
            out.append(ErrorMsg(code="spectators_off", message=SPECTATORS_OFF).model_dump_json())
            self.closing = (CLOSE_REVOKED, "spectators off")
            return out
        if channel.room_version > self.sent_room_version and channel.room is not None:
            self.sent_room_version = channel.room_version
            out.append(RoomMsg(room=RoomOut(**channel.room)).model_dump_json())
        if channel.chat_version > self.chat_version:
            out.extend(self._chat(channel))
        rt = channel.game
        if rt is None or (policy == "after" and not rt.frame.over):
            return out  # "after": a spectator sees the room, and a game once it is over
        if rt.game_id != self.game_id:
            self.game_id, self.sent_version, self.events_version = rt.game_id, -1, -1
        frame = rt.frame
        if frame.version > self.events_version:
            if self.events_version >= 0:
                steps = rt.frames_after(self.events_version)
                self.quiet_since_state = self.quiet_since_state and len(steps) == frame.version - self.events_version
                for step in steps:
                    out.extend(render.event_texts(rt, step))
                    self.quiet_since_state = self.quiet_since_state and step.secret and step.timeout_seat is None
            self.events_version = frame.version
        player = rt.player(self.seat)  # None for a seat taken after this game ended: it watches
        if frame.version > self.sent_version and not self._state_may_wait(rt, frame, player):
            out.append(render.state_text(rt, frame, player))
            self.sent_version = frame.version
            self.quiet_since_state = True
            if self.held is not None:
                self.held.cancel()
                self.held, self.hold_over = None, False
        return out

    def _chat(self, channel: RoomChannel) -> list[str]:
        """The chat messages this connection has not had, or had before the host deleted them (for a
        spectator, only while the room lets spectators read its chat)."""
        room = channel.room
        if self.seat is None and (room is None or not readable_by_spectators(room["settings"], room["status"])):
            return []
        self.chat_version = channel.chat_version
        out = []
        for message in channel.chat:
            sent = self.chat_sent.get(message["id"])
            if sent is None or (message["deleted"] and not sent):
                out.append(ChatMsg(**message).model_dump_json())
                self.chat_sent[message["id"]] = message["deleted"]
        if len(self.chat_sent) > 2 * len(channel.chat) + 50:  # forget what fell out of the channel's window
            kept = {m["id"] for m in channel.chat}
            self.chat_sent = {i: d for i, d in self.chat_sent.items() if i in kept}
        return out

    def _state_may_wait(self, rt: GameRuntime, frame: Frame, player: int | None) -> bool:
        """Whether this seat's new state may wait a moment for the rest of the turn: since its last
        state there were only other seats' secret picks (each sent as `chosen`), so its marker has
        not moved and an action made against that state is still accepted. Such states were most of
        what the server sent when a turn's picks were committed more than WS_COALESCE_MS apart (on
        PostgreSQL, under load). Held at most WS_QUIET_STATE_MS."""
        if player is None or not self.quiet_since_state or frame.over or rt.abandoned:
            return False
        if frame.markers[player] > self.sent_version:
            return False
        if self.held is None:
            self.held = asyncio.get_running_loop().call_later(self.settings.ws_quiet_state_ms / 1000, self._end_hold)
            return True
        return not self.hold_over

    def _end_hold(self) -> None:
        # a flag, not a clock reading: the event loop's timers may ring a little before time.monotonic() says
        self.hold_over = True
        self._wake.set()


@router.websocket("/ws/rooms/{code}")
async def room_socket(websocket: WebSocket, code: str) -> None:
    """A seat's (or a spectator's) live connection to a room; see docs/PROTOCOL.md."""
    connection = Connection(websocket, websocket.app.state.services)
    per_address: ConnectionsPerAddress = websocket.app.state.connections_per_address
    address = websocket.client.host if websocket.client else ""
    if not per_address.take(address):
        metrics.connection_over_address_limit()
        await websocket.accept()
        await connection.refuse(
            "too_many_connections",
            f"this address holds its maximum of {per_address.limit} open connections to this server; "
            "close one before opening another",
            CLOSE_TOO_MANY,
        )
        return
    try:
        await connection.run(code)
    finally:
        per_address.give_back(address)
