"""My games: every seat a browser holds, in one request (the tokens in the body, never in a URL), and
a link that moves them all to another device."""

from fastapi import APIRouter, status

from app.api.deps import ServicesDep
from app.api.errors import ERROR_RESPONSES
from app.api.my_games_schemas import MovedOut, MoveIn, MoveLinkOut, MoveTokensIn, MyGamesOut, TokensIn

router = APIRouter(
    prefix="/api/my-games",
    tags=["my games"],
    responses=ERROR_RESPONSES,
)


@router.post("", response_model=MyGamesOut, summary="List the games of your seat tokens")
async def my_games(body: TokensIn, svc: ServicesDep) -> MyGamesOut:
    """Every seat these tokens hold, one entry per token: those where it is your move first (with your
    deadline when a clock runs), then those waiting for other seats, rooms waiting to start, finished
    games (with the winners and scores), and last the tokens that hold no seat any more (`gone`: the
    room is gone, or the seat moved to another device), each by its place in `tokens`. Only what the
    seat's player sees anyway: no hand, no view, no token. At most 100 tokens (422 naming `tokens`)."""
    return MyGamesOut(**await svc.rooms.my_games(body.tokens))


@router.post(
    "/move-link",
    status_code=status.HTTP_201_CREATED,
    response_model=MoveLinkOut,
    summary="Make a link that moves all these seats to another device",
)
async def make_move_link(body: MoveTokensIn, svc: ServicesDep) -> MoveLinkOut:
    """One link for every person's seat these tokens hold (404 `no_seats` if none): opening it
    (`POST /api/my-games/move`) moves them to the device that opens it, as a rejoin link moves one
    seat; it replaces the unused links made before for these seats, and works once."""
    return MoveLinkOut(**await svc.rooms.move_link(body.tokens))


@router.post("/move", response_model=MovedOut, summary="Take every seat of a move link")
async def move_here(body: MoveIn, svc: ServicesDep) -> MovedOut:
    """Each seat of the link (not taken with a newer link meanwhile) gets a new token, answered here
    once; its old token is refused from now on, and websockets holding it lose the seat. 404
    `unknown_link` when the link moves no seat (unknown, used, or replaced)."""
    return MovedOut(seats=await svc.rooms.move_here(body.token))
