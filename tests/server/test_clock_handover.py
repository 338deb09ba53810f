"""The clock hands a seat to the timeout bot from what the frames and seats say: its run of
timeouts, less those before its person took it back; each run's hand-over is tried once (one that
did nothing or failed waits for the seat's next timeout instead of being tried again at once)."""

import asyncio
from dataclasses import dataclass, field
from typing import Any

from app.rooms.clocks import Clock, ClockService, SeatClocks
from app.rooms.errors import Conflict

TURN = Clock(mode="turn", seconds=30, before_bot=2)


@dataclass(eq=False)
class Runtime:
    frame: Any
    game_id: int = 1
    room_code: str = "ABCD"
    clock: Clock = TURN
    over: bool = False
    abandoned: bool = False
    bots: dict[int, Any] = field(default_factory=dict)
    taken_back: dict[int, int] = field(default_factory=dict)


@dataclass
class Frame:
    clocks: SeatClocks
    to_act: tuple[int, ...] = (0, 1, 2)


def frame(*runs: tuple[int, ...]) -> Frame:
    return Frame(SeatClocks(owes_since=(1e12,) * 3, bank=(0.0,) * 3, timeouts=runs))


class Games:
    def __init__(self) -> None:
        self.listeners: list[Any] = []
        self.load_listeners: list[Any] = []
        self.bots_listeners: list[Any] = []
        self.unload_listeners: list[Any] = []
        self.runtimes: dict[int, Any] = {}


async def settled() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_a_run_of_timeouts_is_recorded_by_step() -> None:
    clocks = SeatClocks.start(TURN, 3, (0, 1, 2), 0.0)
    for seq, (actor, by_timeout) in enumerate([(0, True), (1, False), (0, True), (2, True)]):
        clocks = clocks.after(
            TURN, seq=seq, at=1.0, actor=actor, by_timeout=by_timeout, before=(0, 1, 2), now_to_act=(0, 1, 2)
        )
    assert clocks.timeouts == ((0, 2), (), (3,))
    clocks = clocks.after(TURN, seq=4, at=2.0, actor=0, by_timeout=False, before=(0, 1, 2), now_to_act=(0, 1, 2))
    assert clocks.timeouts == ((), (), (3,))  # the seat decided itself: a new run
    assert clocks.timeouts_since(2, 3) == 1 and clocks.timeouts_since(2, 4) == 0


async def test_the_hand_over_counts_only_timeouts_after_the_seat_was_taken_back() -> None:
    calls: list[tuple[Any, ...]] = []

    async def hand_to_bot(code: str, seat: int, kind: str, reason: str, *, unless_back_after: int) -> None:
        calls.append((code, seat, kind, reason, unless_back_after))

    games = Games()
    service = ClockService(games, hand_to_bot)
    rt = Runtime(frame((3, 5), (), (4,)), taken_back={0: 6})
    games.runtimes[1] = rt
    service.watch(rt)
    await settled()
    assert calls == []  # seat 0's two timeouts came before she took it back; seat 2 has one
    rt.frame = frame((3, 5, 7, 9), (), (4,))
    service.watch(rt)
    await settled()
    assert calls == [("ABCD", 0, "greedy", "timeout", 9)]
    service.close()


async def test_a_hand_over_that_fails_is_not_tried_again_before_the_next_timeout() -> None:
    calls: list[int] = []

    async def hand_to_bot(code: str, seat: int, kind: str, reason: str, *, unless_back_after: int) -> None:
        calls.append(unless_back_after)
        raise Conflict("no game is running", code="no_game")

    games = Games()
    service = ClockService(games, hand_to_bot)
    rt = Runtime(frame((3, 5), (), ()))
    games.runtimes[1] = rt
    for _ in range(3):  # each new step of another seat watches the game again
        service.watch(rt)
        await settled()
    assert calls == [5]
    rt.frame = frame((3, 5, 8), (), ())
    service.watch(rt)
    await settled()
    assert calls == [5, 8]
    service.close()
