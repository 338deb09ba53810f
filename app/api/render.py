"""Turning game frames into messages, each rendered once per version and seat and then reused.

What was rendered is kept here, per game runtime (`Rendered`, dropped with the runtime): the state
messages of the current version by seat, and the event messages of the versions the runtime still
keeps frames of. The rooms layer's frames know nothing of messages.
"""

from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

from app.api.game_schemas import StateOut
from app.json_text import to_json
from app.rooms.frames import Frame
from app.rooms.games import GameRuntime


@dataclass
class Rendered:
    """One game's rendered messages."""

    version: int = -1  # the version `states` were rendered at
    states: dict[tuple[int | None, bool], str] = field(default_factory=dict)  # (seat, abandoned) -> text
    events: dict[int, tuple[str, ...]] = field(default_factory=dict)  # version -> its event messages

    def at(self, rt: GameRuntime, frame: Frame) -> "Rendered":
        """Forget what belongs to versions before `frame`'s (states) or no longer kept (events)."""
        if frame.version != self.version:
            self.version = frame.version
            self.states.clear()
            oldest = rt.history[0].version if rt.history else frame.version
            for version in [v for v in self.events if v < oldest]:
                del self.events[version]
        return self


_rendered: "WeakKeyDictionary[GameRuntime, Rendered]" = WeakKeyDictionary()


def rendered(rt: GameRuntime) -> Rendered:
    out = _rendered.get(rt)
    if out is None:
        out = _rendered[rt] = Rendered()
    return out


def status(rt: GameRuntime, frame: Frame) -> str:
    if frame.over:
        return "finished"
    return "abandoned" if rt.abandoned else "running"


def state(rt: GameRuntime, frame: Frame, seat: int | None) -> StateOut:
    return StateOut(
        game_id=rt.game_id,
        status=status(rt, frame),  # type: ignore[arg-type]
        version=frame.version,
        seat=seat,
        to_act=list(frame.to_act),
        view=frame.view(seat),
        legal_actions=None if seat is None else frame.legal(seat),
        result=frame.result(),
        clock=clock_of(rt, frame),
    )


def clock_of(rt: GameRuntime, frame: Frame) -> dict[str, Any] | None:
    return None if frame.clocks is None or frame.over else frame.clocks.public(rt.clock)


STATE_TEMPLATE = (
    '{"type":"state","game_id":%d,"status":"%s","version":%d,"seat":%s,"to_act":%s,'
    '"view":%s,"legal_actions":%s,"result":%s,"clock":%s}'
)


def state_text(rt: GameRuntime, frame: Frame, seat: int | None) -> str:
    """A `StateMsg`, assembled from the frame's JSON pieces (view and legal actions are JSON already)."""
    cache = rendered(rt).at(rt, frame).states
    key = (seat, rt.abandoned)
    text = cache.get(key)
    if text is None:
        result = frame.result()
        text = cache[key] = STATE_TEMPLATE % (
            rt.game_id,
            status(rt, frame),
            frame.version,
            "null" if seat is None else seat,
            to_json(frame.to_act),
            frame.view_text(seat),
            "null" if seat is None else frame.legal_json[seat],
            "null" if result is None else to_json(result),
            to_json(clock_of(rt, frame)),
        )
    return text


def event_texts(rt: GameRuntime, frame: Frame) -> tuple[str, ...]:
    """The public events of the step that made `frame` (the same for every seat and spectator)."""
    cache = rendered(rt).events
    texts = cache.get(frame.version)
    if texts is None:
        texts = cache[frame.version] = tuple(to_json(m) for m in event_messages(rt, frame))
    return texts


def event_messages(rt: GameRuntime, frame: Frame) -> list[dict[str, Any]]:
    """The messages telling of the step that made `frame`, each in the shape of its model
    (TimeoutMsg, ChosenMsg, RevealMsg, EventMsg, GameOverMsg), built as plain data: what goes in
    them comes from the engine and the server, and validating it again (pydantic) cost more than
    the rest of rendering them; tests check every message a client gets against ServerMessage."""
    out: list[dict[str, Any]] = []

    def add(kind: str, **fields: Any) -> None:
        out.append({"type": kind, "game_id": rt.game_id, "version": frame.version, **fields})

    if frame.timeout_seat is not None:
        add("timeout", seat=frame.timeout_seat, bot=rt.clock.bot)
    for event in frame.events:
        kind = event.get("type")
        if kind == "chosen":
            add("chosen", seat=event["seat"], changed=bool(event.get("changed", False)))
        elif kind == "reveal":
            add("reveal", reveal=event)
        elif kind == "game_over":
            continue  # sent below, from the game's result, whatever the engine's events say
        else:
            add("event", event=event)
    if frame.over:
        result = frame.result()
        assert result is not None
        add("game_over", result=result)
    return out
