"""A room's games: your view and legal actions, submitting actions, the score sheet and the history."""

from typing import Annotated

from fastapi import APIRouter, Query

from app.api import render
from app.api.deps import OptionalSeatDep, RoomCode, SeatDep, ServicesDep
from app.api.errors import ERROR_RESPONSES
from app.api.game_schemas import ActionIn, ActionOut, HistoryOut, LegalActionsOut, ResultOut, StateOut
from app.api.schemas import MAX_COUNT, MAX_ID, MAX_SEATS
from app.rooms.errors import Conflict, Forbidden

router = APIRouter(
    prefix="/api/rooms/{code}/game",
    tags=["games"],
    responses=ERROR_RESPONSES,
)

GameParam = Annotated[int | None, Query(ge=1, le=MAX_ID, description="a game of this room (default: the latest)")]
MAX_WAIT_SECONDS = 30
AfterParam = Annotated[
    int | None,
    Query(ge=0, le=MAX_COUNT, description="long poll: answer once the game's version is above this one (see `wait`)"),
]
WaitParam = Annotated[
    int,
    Query(
        ge=0,
        le=MAX_WAIT_SECONDS,
        description="with `after`: wait up to this many seconds for the game to pass that version (or end), "
        "then answer the state as it is (compare its `version`); the server may cut the wait shorter",
    ),
]


@router.get("", response_model=StateOut, summary="The game as your seat (or a spectator) sees it")
async def get_state(
    code: RoomCode,
    svc: ServicesDep,
    auth: OptionalSeatDep,
    *,
    game: GameParam = None,
    after: AfterParam = None,
    wait: WaitParam = 0,
) -> StateOut:
    """With a seat token: your own view and legal actions. Without one: the spectator view, which holds
    only public information (if the room's `spectators` setting allows it). With `after` and `wait`, a
    long poll: the answer comes as soon as the game moves past version `after`, instead of polling."""
    game_id, _ = await svc.rooms.current_game(code, game, spectator=auth is None)
    rt = await svc.games.runtime(game_id)
    await svc.games.catch_up(rt)
    if after is not None and wait:
        await svc.games.moved_past(rt, after, min(wait, svc.settings.long_poll_max_seconds))
    return render.state(rt, rt.frame, rt.player(None if auth is None else auth.seat))


@router.get("/legal-actions", response_model=LegalActionsOut, summary="Your legal actions now")
async def legal_actions(code: RoomCode, svc: ServicesDep, auth: SeatDep) -> LegalActionsOut:
    """Every action your seat may submit now, each exactly as `POST .../actions` accepts it. Empty when
    you have nothing to decide."""
    game_id, _ = await svc.rooms.current_game(code)
    rt = await svc.games.runtime(game_id)
    await svc.games.catch_up(rt)
    frame = rt.frame
    player = rt.player(auth.seat)  # None: a seat taken after this game ended has nothing to decide in it
    legal = [] if player is None else frame.legal(player)
    return LegalActionsOut(game_id=game_id, version=frame.version, seat=auth.seat, legal_actions=legal)


@router.post("/actions", response_model=ActionOut, summary="Submit an action")
async def submit_action(code: RoomCode, body: ActionIn, svc: ServicesDep, auth: SeatDep) -> ActionOut:
    """Submit one of your legal actions with the game `version` you chose it against. A stale version
    (your situation changed since) or a repeated submission (same `action_id`, or the same action
    again) is refused with 409 and never applied twice. In the classic pick phase you may submit again
    to change your pick until the last seat picks. If a bot was playing your seat for you, it stops:
    the seat is yours again (even if the action comes too late)."""
    game_id, _ = await svc.rooms.current_game(code)
    done = await svc.rooms.person_acts(
        code,
        auth.seat,
        body.action,
        game_id=game_id,
        version=body.version,
        action_id=body.action_id,
        bot_played=auth.bot_plays is not None,
    )
    return ActionOut(game_id=game_id, seq=done.seq, version=done.version, events=done.events)


@router.get("/result", response_model=ResultOut, summary="The score sheet of a finished game")
async def get_result(code: RoomCode, svc: ServicesDep, auth: OptionalSeatDep, game: GameParam = None) -> ResultOut:
    game_id, _ = await svc.rooms.current_game(code, game, spectator=auth is None)
    rt = await svc.games.runtime(game_id)
    await svc.games.catch_up(rt)
    result = rt.frame.result()
    if result is None and rt.abandoned:
        raise Conflict("the game was abandoned (its room was closed unused): no score sheet", code="game_abandoned")
    if result is None:
        raise Conflict("the game is still running: the score sheet comes at the end", code="game_running")
    return ResultOut(game_id=game_id, result=result)


@router.get("/history", response_model=HistoryOut, summary="The log, and the view at any step")
async def get_history(
    *,
    code: RoomCode,
    svc: ServicesDep,
    auth: OptionalSeatDep,
    game: GameParam = None,
    at: Annotated[int | None, Query(ge=0, le=MAX_COUNT, description="also show the view after this many steps")] = None,
    seat: Annotated[
        int | None, Query(ge=0, le=MAX_SEATS - 1, description="whose view to show at `at` (finished games)")
    ] = None,
) -> HistoryOut:
    """A finished (or abandoned) game: every action and the view of any seat (or a spectator) at any step. A running
    game: only public information — who acted at each step, the public events, and the spectator
    view at any step."""
    game_id, status = await svc.rooms.current_game(code, game, spectator=auth is None)
    full = status in ("finished", "abandoned")  # an abandoned game never goes on: nothing left to hide
    if seat is not None and not full:
        raise Forbidden("a seat's view of past steps is shown once the game is over", code="game_running")
    return HistoryOut(**await svc.games.history(game_id, at=at, seat=seat, full=full))
