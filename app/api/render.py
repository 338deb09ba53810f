"""Turning game frames into messages, each rendered once per version and seat and then reused."""

from typing import Any

from app.api.schemas import ChosenMsg, EventMsg, GameOverMsg, RevealMsg, StateOut, TimeoutMsg
from app.rooms.games import Frame, GameRuntime, to_json


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
    key = ("state", seat, rt.abandoned)
    text = frame.cache.get(key)
    if text is None:
        result = frame.result()
        text = frame.cache[key] = STATE_TEMPLATE % (
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
    texts = frame.event_texts
    if texts is None:
        texts = frame.event_texts = tuple(m.model_dump_json() for m in event_messages(rt, frame))
    return texts


def event_messages(rt: GameRuntime, frame: Frame) -> list[Any]:
    out: list[Any] = []
    common = {"game_id": rt.game_id, "version": frame.version}
    if frame.timeout_seat is not None:
        out.append(TimeoutMsg(**common, seat=frame.timeout_seat, bot=rt.clock.bot))
    for event in frame.events:
        kind = event.get("type")
        if kind == "chosen":
            out.append(ChosenMsg(**common, seat=event["seat"], changed=bool(event.get("changed", False))))
        elif kind == "reveal":
            out.append(RevealMsg(**common, reveal=event))
        elif kind == "game_over":
            continue  # sent below, from the game's result, whatever the engine's events say
        else:
            out.append(EventMsg(**common, event=event))
    if frame.over:
        result = frame.result()
        assert result is not None
        out.append(GameOverMsg(**common, result=result))
    return out
