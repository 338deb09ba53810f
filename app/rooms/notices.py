"""What people are told, and when: the notifications a step (or a game's start) causes.

Only for the seats (and rooms) that have channels. A seat is told:
- when it comes to owe a decision (once per turn: the key names the game, the seat and the turn,
  so a second decision in the same turn is not told again); at the start this is the first one;
- with a clock, once a quarter of its time is left (a reminder, due then, not sent once it acted);
- when the game ends, with the result.
A room's group channel is told who is to move, once per turn, and the result.

Never anything hidden: the room, the game, the age and turn, who is to move, the public result.
The outbox (app/rooms/outbox.py) adds the links and decides, when it sends, whether it still should
(the seat acted meanwhile, is at its table, is played by a bot).
"""

from collections.abc import Collection, Sequence
from datetime import UTC, datetime
from typing import Any

from app.db.outbox_storage import ROOM_CHANNEL, Notice
from app.engine import Game, game_kind
from app.rooms.clocks import Clock
from app.rooms.frames import Frame

NOTIFY_NOTICE = "notify"  # what a broadcast says when a room's channels changed
REMIND_AT = 0.25  # the reminder comes when this share of the decision's time is left
ROMAN = ("0", "I", "II", "III")


def moment(unix: float) -> datetime:
    return datetime.fromtimestamp(unix, UTC)


def where_in(game: Game) -> tuple[str, str]:
    """(the turn's key, its words), e.g. ("2-3", "7 Wonders, Age II, turn 3"), from the public view."""
    view = game.public_view()
    title = game_kind(game.config.game).title
    age = view.get("age")
    words = title if not isinstance(age, int) or not 0 < age < len(ROMAN) else f"{title}, Age {ROMAN[age]}"
    turn = view.get("turn")
    if isinstance(turn, int) and isinstance(age, int):
        return f"{age}-{turn}", f"{words}, turn {turn}"
    return f"v{game.version}", words  # a game without numbered turns: each time a seat comes to owe


def names_list(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def result_words(result: dict[str, Any], names: Sequence[str]) -> str:
    scores = sorted(result.get("scores", []), key=lambda s: -s.get("total", 0))
    winners = [names[w] for w in result.get("winners", []) if w < len(names)]
    board = ", ".join(f"{names[s['seat']]} {s['total']}" for s in scores if s["seat"] < len(names))
    victory = result.get("victory")
    how = f" ({victory} victory)" if victory and victory not in ("civilian", "points") else ""
    won = f"{names_list(winners)} won{how}" if winners else "It ended"
    return f"{won}: {board}."


class Notices:
    """The notifications of one game (its room, its seats' names, the clock)."""

    def __init__(
        self, game_id: int, room_id: int, code: str, names: Sequence[str], clock: Clock, *, bots: Collection[int] = ()
    ) -> None:
        self.game_id, self.room_id, self.code = game_id, room_id, code
        self.names = list(names)
        self.clock = clock
        self.bots = frozenset(bots)  # seats a bot sat in at the start: the group is told of people only

    def at_start(self, game: Game, targets: Collection[int], at: float) -> list[Notice]:
        """A new game (started at `at`): everyone who owes a decision is told it is their move."""
        span = {"turn": self.clock.seconds, "bank": self.clock.initial}.get(self.clock.mode, 0.0)
        times = dict.fromkeys(game.to_act, (at, at + span)) if span else {}
        return self._owing(game, times, list(game.to_act), targets, at)

    def after_step(self, head: Frame, frame: Frame, actor: int, targets: Collection[int], at: float) -> list[Notice]:
        """The notices of one step (`actor`'s), from the frame before it (`head`) to the one it made: the
        seats that came to owe a decision, and the actor if it owes one of a new numbered turn (its
        pick ended a 7 Wonders turn). An actor that goes on with its own turn is not told."""
        if not targets:
            return []
        if frame.over:
            return self._ended(frame.game.result(), targets, at)
        came = [s for s in frame.to_act if s not in head.to_act]
        if actor in frame.to_act and actor not in came and actor in targets:
            before, now = where_in(head.game)[0], where_in(frame.game)[0]
            if before != now and not now.startswith("v"):
                came.append(actor)
        return self._owing(frame.game, self._times(frame), came, targets, at) if came else []

    def _owing(
        self,
        game: Game,
        times: dict[int, tuple[float, float]],
        seats: Sequence[int],
        targets: Collection[int],
        at: float,
    ) -> list[Notice]:
        """`times`: per seat that owes a decision on a clock, (since when, its deadline)."""
        turn, words = where_in(game)
        out = []
        for seat in seats:
            if seat not in targets:
                continue
            key = f"g{self.game_id}:s{seat}:t{turn}"
            since, until = times.get(seat, (None, None))
            deadline = None if until is None else moment(until)
            due = f" Decide by {deadline.strftime('%a %d %b %H:%M UTC')}." if deadline else ""
            title = f"Your move in room {self.code}"
            body = f"It is your move in room {self.code} ({words}).{due}"
            acted = game.version  # neither is sent once the seat has acted
            out.append(self._notice(f"turn:{key}", seat, kind="turn", title=title, body=body, due=at, unless=acted))
            if since is not None and until is not None:
                reminder = until - REMIND_AT * (until - since)
                body = (
                    f"A reminder: it is still your move in room {self.code} ({words}); a quarter of your time is "
                    f"left (until {deadline.strftime('%a %d %b %H:%M UTC')}), then a bot decides for you."
                )
                title = f"Your move in room {self.code}: time is running out"
                out.append(
                    self._notice(
                        f"remind:{key}", seat, kind="reminder", title=title, body=body, due=reminder, unless=acted
                    )
                )
        if ROOM_CHANNEL in targets:
            waiting = [self.names[s] for s in game.to_act if s < len(self.names) and s not in self.bots]
            if waiting and seats:
                text = f"{names_list(waiting)} to move in room {self.code} ({words})."
                key = f"group:g{self.game_id}:t{turn}"
                out.append(self._notice(key, ROOM_CHANNEL, kind="group", title=f"Room {self.code}", body=text, due=at))
        return out

    def _ended(self, result: dict[str, Any], targets: Collection[int], at: float) -> list[Notice]:
        words = result_words(result, self.names)
        return [
            self._notice(
                f"end:g{self.game_id}:s{seat}",
                seat,
                kind="end",
                title=f"The game in room {self.code} is over",
                body=f"The game in room {self.code} is over. {words}",
                due=at,
            )
            for seat in sorted(targets)
        ]

    def _times(self, frame: Frame) -> dict[int, tuple[float, float]]:
        clocks = frame.clocks
        if clocks is None:
            return {}
        out = {}
        for seat in frame.to_act:
            since, until = clocks.owes_since[seat], clocks.deadline(self.clock, seat)
            if since is not None and until is not None:
                out[seat] = (since, until)
        return out

    def _notice(
        self, key: str, seat: int, *, kind: str, title: str, body: str, due: float, unless: int | None = None
    ) -> Notice:
        return Notice(key, self.room_id, seat, self.game_id, kind, title, body, moment(due), unless)
