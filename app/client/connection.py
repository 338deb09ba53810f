"""The websocket loop: `BotClient` plays one seat of a room until its game ends, connecting again
after a lost connection and sending an unanswered action again with the same `action_id`."""

import asyncio
import contextlib
import inspect
import json
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import websockets
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from app.client import receive
from app.client.errors import ClientError, why_failed
from app.client.outcome import Outcome
from app.client.render import describe, game_begins, game_ends
from app.client.rest import bearer, come_back, game_result, http_url, ws_url
from app.engine import Action

View = dict[str, Any]
Choose = Callable[[View, list[Action]], Action | Awaitable[Action]]
Log = Callable[[str], None]

# errors after which this seat cannot play on: the token, the room or the seat is gone
FATAL_ERRORS = {"bad_token", "missing_token", "room_not_found", "seat_lost", "spectators_off", "spectator"}
# close codes that say the same (4401 bad token, 4403 seat lost, 4404 no room, 1008 refused, 1009 too large)
FATAL_CLOSES = {4401, 4403, 4404, 1008, 1009}
# "try again": the same message, with the same action_id, after a pause
RETRY_ERRORS = {"busy", "database_down", "internal"}
# nothing was applied and the situation moved on: choose again on the next state
WAIT_ERRORS = {"stale", "not_your_turn", "bad_version"}

REPLY_TIMEOUT = 20.0  # no accepted/error for this long: send the same action (same action_id) again
RETRY_PAUSE = 1.0  # after busy, database_down, internal or rate_limited
RESYNC_AFTER = 5.0  # after stale/not_your_turn, ask for the state again if no newer one came
MAX_BACKOFF = 10.0
LAST_ANSWER_WAIT = 2.0  # the game is over: how long to wait for the answer to our last action


class _Reconnect(Exception):
    """The connection is unusable: drop it and connect again."""


class BotClient:
    """Plays one seat (its token) of room `code` on the server at `url` until its game ends.

    `choose(view, legal_actions)` returns one of the legal actions (it may be `async`); a plain
    function runs in a thread (`think_in_thread`) so a slow bot does not stall the connection.
    `log` gets one line per notable event (`verbose`: every decision too). `on_message(message)` sees
    every message from the server and `on_send(message)` every action sent (bench.server_load measures
    with them). With `reconnect`, a lost connection is opened again (backoff up to 10 s) for up to
    `retry_for` seconds; without, it is a ClientError.
    """

    def __init__(
        self,
        url: str,
        code: str,
        token: str,
        choose: Choose,
        *,
        log: Log | None = None,
        verbose: bool = False,
        reconnect: bool = True,
        retry_for: float = 300.0,
        open_timeout: float = 30.0,
        think_in_thread: bool = True,
        on_message: Callable[[dict[str, Any]], None] | None = None,
        on_send: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.url = http_url(url)
        self.code = code
        self.token = token
        self.choose = choose
        self.log = log or (lambda _line: None)
        self.verbose = verbose
        self.reconnect = reconnect
        self.retry_for = retry_for
        self.open_timeout = open_timeout
        self.think_in_thread = think_in_thread
        self.on_message = on_message
        self.on_send = on_send
        self.outcome = Outcome(code=code, seat=None, token=token)
        self._id_prefix = secrets.token_hex(6)  # action ids unique across restarts of the client too
        self._ids = 0
        self._http: httpx.AsyncClient | None = None
        # the game this client plays: the one running when it connects, or the next one started
        self.game_id: int | None = None
        self.latest: dict[str, Any] | None = None  # the newest state of that game
        self.floor = 0  # states older than the version right after our last accepted action are out of date
        self.acted_on = -1  # the newest version we chose an action on (never twice on one version)
        self.pending: dict[str, Any] | None = None  # the action sent and not yet answered
        self.pending_at = 0.0
        self.retry_at: float | None = None  # when to send `pending` again (retry errors, rate limits)
        self.fallback_used = -1  # the version we fell back to a legal action on after a refusal
        self.waiting_since: float | None = None  # a stale answer: when we began waiting for a newer state
        self.host_bot = False  # the host handed our seat to a bot: we leave it to them
        self.taking_back = False
        self.told_waiting = False
        self.connections = 0
        self.welcomed = False  # the current connection got its `welcome`
        self.room: dict[str, Any] | None = None

    # ----- connections ---------------------------------------------------------------------------

    async def run(self) -> Outcome:
        down_since: float | None = None
        attempt = 0
        try:
            while True:
                reason = "closed"
                self.welcomed = False
                try:
                    async with websockets.connect(
                        ws_url(self.url, self.code),
                        additional_headers=bearer(self.token),
                        max_size=2**24,
                        max_queue=None,  # keep reading while the bot thinks (pings are answered meanwhile)
                        open_timeout=self.open_timeout,
                    ) as ws:
                        done = await self._session(ws)
                        if done is not None:
                            self._report(done)
                            return done
                except ConnectionClosed as exc:
                    close = exc.rcvd
                    if close is not None and close.code in FATAL_CLOSES:
                        raise ClientError(
                            f"the server closed the connection: {close.reason or 'refused'} (code {close.code})",
                            close.reason or None,
                        ) from None
                    reason = f"code {close.code}" if close is not None else "no close frame"
                except _Reconnect as exc:
                    reason = str(exc)
                except InvalidHandshake as exc:
                    if not self.connections:  # not a Wonders websocket at all (a wrong URL)
                        raise ClientError(f"{ws_url(self.url, self.code)} refused the websocket: {exc}") from None
                    reason = why_failed(exc)
                except (OSError, TimeoutError) as exc:
                    reason = why_failed(exc)
                if self.welcomed:  # that connection worked: start the backoff afresh
                    attempt, down_since = 0, None
                if not self.reconnect:
                    raise ClientError(f"the connection to {self.url} was lost ({reason})")
                now = time.monotonic()
                down_since = down_since or now
                if now - down_since > self.retry_for:
                    raise ClientError(f"gave up: no connection to {self.url} for {self.retry_for:g} s (last: {reason})")
                delay = min(MAX_BACKOFF, 0.5 * 2**attempt) * random.uniform(0.8, 1.2)
                attempt += 1
                self.log(f"connection lost ({reason}); reconnecting in {delay:.1f} s")
                await asyncio.sleep(delay)
        finally:
            if self._http is not None:
                await self._http.aclose()

    async def _session(self, ws: Any) -> Outcome | None:
        self.ws = ws
        self.resend = self.pending is not None  # its answer may be lost: send it again on the first state
        alarm = receive.Alarm()
        while True:
            raw = await alarm.receive(ws, self._quiet_timeout())
            if raw is None:
                await self._on_quiet()
                continue
            try:
                message = json.loads(raw)
            except ValueError:
                continue
            if self.on_message is not None:
                self.on_message(message)
            done = await self._handle(message) or await self._maybe_act()
            if done is not None:
                if self.pending is not None and not self.resend:  # sent on this connection
                    await self._last_answer(ws)
                return done

    async def _last_answer(self, ws: Any) -> None:
        """The game ended on our own action, whose `accepted` may come after the end: wait for it a moment."""
        with contextlib.suppress(TimeoutError, ConnectionClosed):
            async with asyncio.timeout(LAST_ANSWER_WAIT):
                while self.pending is not None:
                    message = json.loads(await ws.recv())
                    if self.on_message is not None:
                        self.on_message(message)
                    if message.get("action_id") == self.pending["action_id"]:
                        seq = message["seq"] if "seq" in message else (message.get("details") or {}).get("seq")
                        applied = message["type"] == "accepted" or message.get("code") == "duplicate"
                        if applied and isinstance(seq, int):
                            self._applied(seq)
                        else:
                            self.pending = None

    def _quiet_timeout(self) -> float | None:
        """How long to wait for a message before doing something about the silence."""
        now = time.monotonic()
        if self.pending is not None:
            due = self.retry_at if self.retry_at is not None else self.pending_at + REPLY_TIMEOUT
            return due - now
        if self.waiting_since is not None:
            return self.waiting_since + RESYNC_AFTER - now
        return None

    async def _on_quiet(self) -> None:
        if self.pending is not None:  # no answer (or a retry is due): the same action, the same action_id
            self.retry_at = None
            await self._send(self.pending)
        elif self.waiting_since is not None:
            self.waiting_since = None
            await self.ws.send(json.dumps({"type": "sync"}))

    # ----- messages -------------------------------------------------------------------------------

    async def _handle(self, message: dict[str, Any]) -> Outcome | None:
        kind = message.get("type")
        if kind == "welcome":
            return await self._welcome(message)
        if kind == "room":
            return await self._room(message["room"])
        if kind == "state":
            return await self._state(message)
        if kind == "game_over":
            if message["game_id"] == self.game_id:
                return self._finish("finished", message["result"], message["version"])
        elif kind == "accepted":
            if self.pending is not None and message.get("action_id") == self.pending["action_id"]:
                self._applied(message["seq"])
        elif kind == "error":
            return await self._error(message)
        elif kind == "timeout" and message["game_id"] == self.game_id and message["seat"] == self.outcome.seat:
            self.outcome.timeouts += 1
            self.log(
                f"the clock ran out: the server's {message['bot']} bot decided for seat {message['seat']} "
                f"(step {message['version'] - 1})"
            )
        return None

    async def _welcome(self, message: dict[str, Any]) -> Outcome | None:
        seat = message["seat"]
        if seat is None:
            raise ClientError("the token holds no seat in this room: the server took it as a spectator")
        self.outcome.seat = seat
        self.connections += 1
        self.welcomed = True
        room = message["room"]
        name = next((s["name"] for s in room["seats"] if s["seat"] == seat), None)
        if self.connections == 1:
            self.log(f"connected to room {room['code']} as seat {seat} ({name})")
        else:
            self.outcome.reconnects += 1
            self.log(f"reconnected to room {room['code']} as seat {seat}")
        return await self._room(room)

    async def _room(self, room: dict[str, Any]) -> Outcome | None:
        self.room = room
        self.outcome.names = {s["seat"]: s["name"] for s in room["seats"]}
        if room["status"] == "closed":
            if self.game_id is not None:
                return self._finish("abandoned", None, self.outcome.version)
            self.log(f"room {room['code']} is closed: no game to play")
            return self._finish("closed", None, 0)
        game = room.get("game")
        if self.game_id is None and not self.told_waiting and (game is None or game["status"] != "running"):
            self.told_waiting = True
            taken = sum(s["kind"] != "free" for s in room["seats"])
            self.log(f"waiting for the host to start the game ({taken} of {len(room['seats'])} seats taken)")
        me = next((s for s in room["seats"] if s["seat"] == self.outcome.seat), None)
        plays = me.get("bot_plays") if me is not None and room["status"] == "playing" else None
        if plays is None:
            if self.host_bot:
                self.log(f"the host gave seat {self.outcome.seat} back: playing it again")
            self.host_bot = self.taking_back = False
        elif me is not None and me.get("bot_reason") == "host":
            if not self.host_bot:
                self.log(
                    f"the host handed seat {self.outcome.seat} to a {plays} bot: "
                    "leaving it to that bot until the host gives it back"
                )
            self.host_bot = True
        elif not self.taking_back:
            self.taking_back = True
            self.log(
                f"a {plays} bot plays seat {self.outcome.seat} for us ({me and me.get('bot_reason')}): taking it back"
            )
            await self._come_back()
        return None

    async def _come_back(self) -> None:
        """Tell the server "I'm back" over REST (acting on the seat would do too)."""
        if self._http is None:
            self._http = httpx.AsyncClient(base_url=self.url, timeout=30)
        try:
            await come_back(self._http, self.code, self.outcome.seat, self.token)
        except ClientError as exc:  # our next action takes it back anyway
            self.log(f"{exc.message}; the next action will")

    async def _state(self, state: dict[str, Any]) -> Outcome | None:
        if state["game_id"] != self.game_id:
            if self.game_id is not None:  # ours ended while we were away, and another one began
                return self._finish("finished", await self._result_of(self.game_id), self.outcome.version)
            if state["status"] != "running":
                return None  # an earlier game of the room: wait for the next one
            self.game_id = state["game_id"]
            self.outcome.game_id = self.game_id
            self.log(game_begins(state, self.room, self.outcome.seat, self.told_waiting))
        self.latest = state
        self.outcome.version = state["version"]
        if state["status"] == "finished":
            return self._finish("finished", state.get("result"), state["version"])
        if state["status"] == "abandoned":
            return self._finish("abandoned", None, state["version"])
        if self.waiting_since is not None and self.pending is None and state["version"] > self.acted_on:
            self.waiting_since = None
        if self.resend and self.pending is not None:
            self.resend = False
            if self.verbose:
                self.log(f"sending action {self.pending['action_id']} again: its answer was lost")
            await self._send(self.pending)
        self.resend = False
        return None

    async def _result_of(self, game_id: int) -> dict[str, Any] | None:
        if self._http is None:
            self._http = httpx.AsyncClient(base_url=self.url, timeout=30)
        try:
            return await game_result(self._http, self.code, self.token, game_id)
        except ClientError:
            return None

    async def _error(self, message: dict[str, Any]) -> Outcome | None:
        code = message.get("code")
        text = message.get("message", "")
        if code in FATAL_ERRORS:
            raise ClientError(f"{text} ({code})", code)
        pending = self.pending
        if pending is None or message.get("action_id") != pending["action_id"]:
            if code == "rate_limited" and pending is not None:  # our action may have been dropped
                self.retry_at = time.monotonic() + RETRY_PAUSE
            elif code in ("too_many_connections", "room_busy"):
                raise _Reconnect(text)
            elif code not in ("stale", "duplicate"):  # a late answer to an action sent twice is no news
                self.log(f"server error: {text} ({code})")
            return None
        if code == "duplicate":  # it had been applied (the answer was lost): it counts once
            details = message.get("details") or {}
            seq = details.get("seq")
            self.outcome.duplicates += 1
            if isinstance(seq, int):
                self._applied(seq)
            else:
                self.pending = None
            if self.verbose:
                self.log(f"action {pending['action_id']} had already been applied as step {seq}")
        elif code in WAIT_ERRORS:
            self.pending = None
            self.waiting_since = time.monotonic()
            if self.verbose:
                self.log(f"{code}: waiting for the next state")
        elif code in RETRY_ERRORS:
            self.retry_at = time.monotonic() + RETRY_PAUSE
            self.log(f"the server is busy ({code}); sending the action again")
        elif code == "game_over":
            self.pending = None
            await self.ws.send(json.dumps({"type": "sync"}))  # the final state, with the score sheet
        elif code == "game_abandoned":
            return self._finish("abandoned", None, self.outcome.version)
        else:  # illegal_action, bad_message, no_game, ...: the bot chose badly; fall back to a legal action
            self.pending = None
            self.log(f"the action was refused: {text} ({code})")
            state = self.latest
            if (
                state is not None
                and state["version"] == pending["version"]
                and state["legal_actions"]
                and self.fallback_used != state["version"]
            ):
                self.fallback_used = state["version"]
                action = state["legal_actions"][0]
                self.log(f"playing a legal action instead: {describe(action)}")
                await self._send(self._action_message(action, state["version"]))
            else:
                self.waiting_since = time.monotonic()
        return None

    def _applied(self, seq: int) -> None:
        self.pending = None
        self.retry_at = None
        self.floor = max(self.floor, seq + 1)  # `accepted.version` is always seq + 1
        if seq not in self.outcome.seqs:
            self.outcome.seqs.append(seq)

    def _finish(self, status: str, result: dict[str, Any] | None, version: int) -> Outcome:
        outcome = self.outcome
        outcome.status, outcome.result, outcome.version = status, result, version
        return outcome

    def _report(self, outcome: Outcome) -> None:
        for line in game_ends(outcome):
            self.log(line)

    # ----- acting ---------------------------------------------------------------------------------

    async def _maybe_act(self) -> Outcome | None:
        state = self.latest
        if state is None or self.pending is not None or self.host_bot or state["status"] != "running":
            return None
        version = state["version"]
        if self.outcome.seat not in state["to_act"] or not state["legal_actions"]:
            return None
        if version < self.floor or version <= self.acted_on:
            return None
        action = await self._think(state["view"], state["legal_actions"])
        # what came while the bot thought: the game may be over, or the host handed the seat to a bot
        done = await self._drain()
        if done is not None:
            return done
        if self.host_bot:
            self.log(f"not sending the choice for step {version}: the host handed the seat to a bot meanwhile")
            return None
        self.acted_on = version
        self.waiting_since = None
        if self.verbose:
            self.log(f"step {version}: {describe(action)}")
        await self._send(self._action_message(action, version))
        return None

    async def _drain(self) -> Outcome | None:
        """Handle the messages already here, without waiting for more."""
        while True:
            raw = await receive.received(self.ws)  # looked up on its module at each call: a test replaces it
            if raw is None:
                return None
            try:
                message = json.loads(raw)
            except ValueError:
                continue
            if self.on_message is not None:
                self.on_message(message)
            done = await self._handle(message)
            if done is not None:
                return done

    async def _think(self, view: View, legal_actions: list[Action]) -> Action:
        if inspect.iscoroutinefunction(self.choose):
            return await self.choose(view, legal_actions)
        if self.think_in_thread:
            action = await asyncio.to_thread(self.choose, view, legal_actions)
        else:
            action = self.choose(view, legal_actions)
        if inspect.isawaitable(action):
            action = await action
        return action  # type: ignore[return-value]

    def _action_message(self, action: Action, version: int) -> dict[str, Any]:
        self._ids += 1
        return {"type": "action", "action": action, "version": version, "action_id": f"{self._id_prefix}-{self._ids}"}

    async def _send(self, message: dict[str, Any]) -> None:
        self.pending = message
        self.pending_at = time.monotonic()
        if self.on_send is not None:
            self.on_send(message)
        await self.ws.send(json.dumps(message))
