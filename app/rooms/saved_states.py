"""A running game's state kept at one of its versions, so that loading it replays only the steps
after (the log stays the source of truth, and replays as before when the kept state is missing,
stale or from another engine).

What is kept of a version: the engine's state (`app.engine.save_state`) and the server's part of
its frame, which a replay from the start would have computed: each seat's marker, the clocks, the
step's events and whether it was a timeout; and its summary (who owes a decision, the age and
turn), which lists of games read without loading the game (app/rooms/my_games.py). Loading checks
the state against the stored log (the same version, the same canonical steps) before trusting it.
"""

import logging
from typing import Any

from app.db.storage import SavedState
from app.engine import Game, StateMismatch, engine_fingerprint, load_state, save_state
from app.rooms.clocks import Clock, SeatClocks
from app.rooms.frames import MAX_TAIL, Frame, make_frame, next_frame

log = logging.getLogger("wonders.games")


def summary_of(frame: Frame) -> dict[str, Any]:
    """What a list of games shows of a current frame: who owes a decision, the age, turn and phase
    (public: every seat's view says as much)."""
    public = frame.game.public_view()
    return {
        "to_act": list(frame.to_act),
        **{key: public.get(key) for key in ("age", "turn", "turns_per_age", "phase")},
    }


def frame_part(frame: Frame) -> dict[str, Any]:
    """The server's part of a committed frame: what a replay from the start would compute for it."""
    clocks = frame.clocks
    kept_clocks = None
    if clocks is not None:
        timeouts = [list(run) for run in clocks.timeouts]
        kept_clocks = {"owes_since": list(clocks.owes_since), "bank": list(clocks.bank), "timeouts": timeouts}
    return {
        "markers": list(frame.markers),
        "events": frame.events,
        "timeout_seat": frame.timeout_seat,
        "clocks": kept_clocks,
        "summary": summary_of(frame),
    }


def saved_state(version: int, game: Game, part: dict[str, Any]) -> SavedState:
    """What to keep of a version: the engine's state of it (`game`, never changed after its frame was
    made, so it may be written out in a thread) and the frame's part."""
    return SavedState(version=version, engine=engine_fingerprint(), state=save_state(game), frame=part)


def frames_from(saved: SavedState, steps: list[dict[str, Any]], clock: Clock) -> list[Frame] | None:
    """The frames from the kept version to the game's last stored step, or None when the kept state
    cannot be trusted or is not worth it (another engine's, damaged, not the log's, too old)."""
    version = saved.version
    if saved.engine != engine_fingerprint() or version > len(steps) or len(steps) - version > MAX_TAIL:
        return None
    try:
        game = load_state(saved.state)
    except StateMismatch as exc:
        log.info("a kept game state was not used (%s): the game is replayed from its log", exc)
        return None
    logged = [{"seat": s["seat"], "action": s["action"]} for s in steps[:version]]
    if game.version != version or game.log != logged:
        log.warning("a kept game state does not match its log: the game is replayed from its log")
        return None
    kept = saved.frame
    clocks = kept.get("clocks")
    frame = make_frame(
        None,
        game,
        kept.get("events") or [],
        None,
        clock=clock,
        clocks=None
        if clocks is None
        else SeatClocks(
            tuple(clocks["owes_since"]), tuple(clocks["bank"]), tuple(tuple(t) for t in clocks["timeouts"])
        ),
    )
    markers = kept.get("markers")
    if not isinstance(markers, list) or len(markers) != game.config.seats:
        return None
    frame.markers = tuple(markers)
    frame.timeout_seat = kept.get("timeout_seat")
    frames = [frame]
    for step in steps[version:]:
        frame = next_frame(frame, step, clock)
        frames.append(frame)
    return frames
