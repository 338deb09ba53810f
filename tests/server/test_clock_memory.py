"""What the clock service remembers per game (the seats bots played, timeouts forgiven when a person
took a seat back) is forgotten once the game is no longer loaded, so it does not grow with every
game an instance ever held."""

from types import SimpleNamespace

from app.rooms.clocks import Clock, ClockService


def runtime(game_id: int, bots: set[int]) -> SimpleNamespace:
    frame = SimpleNamespace(to_act=(), clocks=SimpleNamespace(in_a_row=(2, 0, 0)))
    return SimpleNamespace(
        game_id=game_id, clock=Clock(mode="turn", seconds=30), over=False, abandoned=False, frame=frame, bots=bots
    )


def test_the_clock_forgets_games_no_longer_loaded() -> None:
    games = SimpleNamespace(listeners=[], load_listeners=[], bots_listeners=[], runtimes={})

    async def hand_to_bot(*_: object) -> None: ...

    clocks = ClockService(games, hand_to_bot)
    held = runtime(1, {0})
    games.runtimes[1] = held
    clocks.watch(held)
    held.bots = set()  # seat 0 taken back from the bot: its two timeouts no longer count
    clocks.watch(held)
    assert clocks.timeouts_in_a_row(held, 0) == 0
    for game_id in range(2, 200):  # games loaded, watched and unloaded since
        clocks.watch(runtime(game_id, {1}))
    clocks.watch(held)
    assert 1 in clocks._bot_seats and len(clocks._bot_seats) <= 2 * len(games.runtimes) + 64
    assert set(clocks._forgiven) <= set(clocks._bot_seats) and clocks.timeouts_in_a_row(held, 0) == 0
