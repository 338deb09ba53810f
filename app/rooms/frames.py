"""Frames: one version of a running game each, and rebuilding them from the stored log.

A `Frame` holds the state (never mutated again), the public events of the step that made it,
every seat's legal actions, and per seat the "marker", the version since which what that seat may
do has not changed (see app/rooms/commits.py for how markers make actions stale).

Loading a game (`rebuild`) replays its whole log on one state, without frames or legal actions,
and frames only its last steps. A seat's marker is at least the version of its last action, or
of the last step that made it come to owe or stop owing a decision (both known without legal
actions); the tail starts just before the earliest of those over all seats, so every step that
could set a marker is framed, and the newest frame's markers are exactly those of a game framed at
every step (at most MAX_TAIL steps are framed: an older marker is taken as the tail's start, which
only makes an older action stale). The clocks are carried through every step (they depend on who
owed a decision when, not on legal actions).
"""

import json
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from app.engine import Action, Event, Game, replay_steps
from app.json_text import joined_objects, to_json
from app.rooms.clocks import OFF, Clock, SeatClocks, unix

CHECKPOINT = 16  # while replaying a log, a copy of the state is kept every this many steps
MAX_TAIL = 256  # at most this many steps are framed at load (older markers: the tail's start)


@dataclass(eq=False, slots=True)
class Frame:
    """One version of a game. `game` is never changed after the frame is made.

    Legal actions and views are kept as JSON text: they are sent as text anyway, compared as text
    (for the markers), and text is invisible to the garbage collector, whose pauses grow with the
    number of live containers (a few hundred per seat and step otherwise). Old frames keep their
    events as JSON text too.
    """

    version: int
    game: Game
    _events: list[Event] | None
    legal_json: tuple[str, ...]  # per seat
    to_act: tuple[int, ...]
    markers: tuple[int, ...]
    over: bool
    epoch: int  # the game's epoch (see Game.epoch): equal epochs, equal legal actions
    clocks: SeatClocks | None = None  # with a turn clock: each seat's deadline (see clocks.py)
    timeout_seat: int | None = None  # the seat whose decision the server made on timeout in this step
    secret: bool = False  # the step only made a secret choice (its public events are all `chosen`)
    view_json: dict[int | None, str] = field(default_factory=dict)
    public_json: str | None = None  # the part of every seat's view that is the same for all
    events_json: str | None = None  # the events, once the frame was stripped

    @property
    def events(self) -> list[Event]:
        """The public events of the step that made this frame."""
        if self._events is None:
            return json.loads(self.events_json or "[]")
        return self._events

    def legal(self, seat: int) -> list[Action]:
        return json.loads(self.legal_json[seat])

    def can_act(self, seat: int) -> bool:
        return self.legal_json[seat] != "[]"

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.game.view(seat)

    def view_text(self, seat: int | None) -> str:
        text = self.view_json.get(seat)
        if text is None:
            if self.public_json is None:
                self.public_json = to_json(self.game.public_view())
            own = to_json(self.game.own_view(seat))
            text = self.view_json[seat] = joined_objects(self.public_json, own)
        return text

    def result(self) -> dict[str, Any] | None:
        return self.game.result() if self.over else None

    def retire(self) -> None:
        """No longer the current frame: keep what the next frame's markers need, and the events."""
        self.game = None  # type: ignore[assignment]
        self.view_json = NOTHING  # type: ignore[assignment]
        self.public_json = None

    def strip(self) -> None:
        """An old frame is only kept for connections that have not yet been sent its events."""
        self.retire()
        self.legal_json = ()
        self.markers = ()
        if self._events is not None:
            self.events_json = to_json(self._events)
            self._events = None


NOTHING: Any = MappingProxyType({})  # what a retired frame has left of its caches (read-only)


def make_frame(
    prev: Frame | None,
    game: Game,
    events: list[Event],
    actor: int | None,
    *,
    clock: Clock = OFF,
    at: float = 0.0,
    by_timeout: bool = False,
    clocks: SeatClocks | None = None,
) -> Frame:
    """The frame after `actor`'s step (at Unix time `at`) made `game` from `prev`'s state. `prev`
    None: the first frame kept (its clocks `clocks`, or the clocks' start)."""
    seats = game.config.seats
    epoch = game.epoch
    if prev is not None and prev.epoch == epoch and len(prev.legal_json) == seats:
        legal = prev.legal_json  # nobody's legal actions changed (another seat's pick)
    else:
        legal = tuple(to_json(game.legal_actions(s)) for s in range(seats))
    to_act = tuple(game.to_act)
    if prev is None:
        markers = [game.version] * seats
    else:
        markers = list(prev.markers)
        for s in range(seats):
            if s == actor or legal[s] != prev.legal_json[s] or (s in to_act) != (s in prev.to_act):
                markers[s] = game.version
    if not clock.on:
        clocks = None
    elif prev is not None and prev.clocks is not None:
        clocks = prev.clocks.after(
            clock, seq=prev.version, at=at, actor=actor, by_timeout=by_timeout, before=prev.to_act, now_to_act=to_act
        )
    elif clocks is None:
        clocks = SeatClocks.start(clock, seats, to_act, at)
    frame = Frame(game.version, game, events, legal, to_act, tuple(markers), game.is_over, epoch, clocks)
    frame.secret = bool(events) and all(event.get("type") == "chosen" for event in events)
    if by_timeout:
        frame.timeout_seat = actor
    return frame


def step_time(step: dict[str, Any], clock: Clock) -> float:
    return unix(step["created_at"]) if clock.on else 0.0


def tail_start(steps: list[dict[str, Any]], to_acts: list[tuple[int, ...]], seats: int) -> int:
    """The latest version v such that every seat acted, or came to owe or stopped owing a decision,
    at some step after v (0 if a seat never did)."""
    last = [0] * seats
    for version in range(len(steps), 0, -1):
        actor = steps[version - 1]["seat"]
        before, after = to_acts[version - 1], to_acts[version]
        for s in range(seats):
            if not last[s] and (s == actor or (s in before) != (s in after)):
                last[s] = version
        if all(last):
            break
    return max(0, min(last) - 1)


def rebuild(game: Game, steps: list[dict[str, Any]], *, clock: Clock, started_at: float) -> list[Frame]:
    """The frames of a new `game` after its stored `steps`, oldest first (the last is current)."""
    seats = game.config.seats
    checkpoints = {0: game.clone()}
    to_acts = [tuple(game.to_act)]
    for n, _ in enumerate(replay_steps(game, steps), 1):
        to_acts.append(tuple(game.to_act))
        if n % CHECKPOINT == 0:
            checkpoints[n] = game.clone()
    total = len(steps)
    start = max(tail_start(steps, to_acts, seats), total - MAX_TAIL)
    clocks = None
    if clock.on:
        clocks = SeatClocks.start(clock, seats, to_acts[0], started_at)
        for v in range(1, start + 1):
            step = steps[v - 1]
            clocks = clocks.after(
                clock,
                seq=v - 1,
                at=step_time(step, clock),
                actor=step["seat"],
                by_timeout=bool(step.get("by_timeout")),
                before=to_acts[v - 1],
                now_to_act=to_acts[v],
            )
    base = start - start % CHECKPOINT
    state = checkpoints[base]
    events: list[Event] = []
    for events in replay_steps(state, steps[base:start]):  # noqa: B007 (the last step's events are kept)
        pass
    first_step = steps[start - 1] if start else None
    frame = make_frame(
        None,
        state,
        events,
        None,
        clock=clock,
        at=started_at,
        clocks=clocks,
    )
    if first_step is not None and first_step.get("by_timeout"):
        frame.timeout_seat = first_step["seat"]
    frames = [frame]
    for step in steps[start:]:
        frame = next_frame(frame, step, clock)
        frames.append(frame)
    return frames


def next_frame(frame: Frame, step: dict[str, Any], clock: Clock) -> Frame:
    """The frame after a stored step ({"seat", "action", "created_at", "by_timeout"}) of `frame`'s state."""
    state, events = frame.game.successor(step["seat"], step["action"])
    at, by_timeout = step_time(step, clock), bool(step.get("by_timeout"))
    return make_frame(frame, state, events, step["seat"], clock=clock, at=at, by_timeout=by_timeout)
