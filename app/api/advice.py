"""Hints for a seat (in rooms with `hints` on) and reviews of finished games, from the search bot."""

from typing import Annotated

from fastapi import APIRouter, Path, Response, status

from app.api.advice_schemas import HintOut, ReviewOut
from app.api.deps import OptionalSeatDep, RoomCode, SeatDep, ServicesDep
from app.api.errors import ERROR_RESPONSES
from app.api.schemas import MAX_ID
from app.rooms.errors import Conflict

router = APIRouter(prefix="/api/rooms", tags=["advice"], responses=ERROR_RESPONSES)

GamePath = Annotated[int, Path(ge=1, le=MAX_ID, description="a game of this room")]


@router.get("/{code}/game/hint", response_model=HintOut, summary="A hint: your best actions by the search bot")
async def get_hint(code: RoomCode, svc: ServicesDep, auth: SeatDep) -> HintOut:
    """In a room with `hints` on, while you owe a decision: up to three of your legal actions, best
    first, each with its estimated points against the best one and one sentence why. The search bot
    thinks HINT_BUDGET_MS over games drawn from what your seat was shown (never the hidden parts of
    the real game). Everyone in the room sees that you used a hint (a chat message of kind `hint`,
    kept in the game's replay); asking again at the same step gives the same hint, told once.
    403 `hints_off`; 409 `not_your_turn` or `no_game`. The websocket asks with `{"type": "hint"}`."""
    return HintOut(**await svc.advice.hint(auth))


@router.get(
    "/{code}/games/{game_id}/review",
    response_model=ReviewOut,
    summary="A finished game's review by the search bot",
    responses={202: {"model": ReviewOut, "description": "pending: the review is being computed; ask again"}},
)
async def get_review(
    code: RoomCode, game_id: GamePath, svc: ServicesDep, auth: OptionalSeatDep, response: Response
) -> ReviewOut:
    """Every decision of every seat evaluated by the search bot from what that seat knew then (its
    information set; REVIEW_BUDGET_MS of search per decision): the action taken, the bot's preferred
    action, the points lost; per seat the points lost in all and the three biggest swings. Anyone who
    may read the game's history may read it (spectators as the room's `spectators` setting allows).
    The first request starts it (202 `pending`; it runs in a worker process and is kept: computed
    once); ask again until `done`. 409 `game_running` or `game_abandoned`; 503 `review_queue_full`."""
    game_id, state = await svc.rooms.current_game(code, game_id, spectator=auth is None)
    if state == "running":
        raise Conflict("the review comes once the game is over", code="game_running")
    if state != "finished":
        raise Conflict("the game was abandoned: it has no review", code="game_abandoned")
    out = ReviewOut(**await svc.advice.review(game_id))
    if out.status == "pending":
        response.status_code = status.HTTP_202_ACCEPTED
    return out
