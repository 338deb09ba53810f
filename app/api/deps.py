"""Dependencies: the instance's services and the seat behind a bearer token."""

from typing import Annotated

from fastapi import Depends, Path, Request
from fastapi.security import HTTPBearer

from app.rooms.context import Services
from app.rooms.errors import Unauthorized
from app.rooms.service import SeatAuth

# Only for the OpenAPI document (the "Authorize" button): the header itself is read by bearer_token.
bearer = HTTPBearer(auto_error=False, description="the seat token answered when creating or joining a room")

RoomCode = Annotated[str, Path(description="the room code (case does not matter)", min_length=1, max_length=32)]


def bearer_token(header: str | None) -> str | None:
    """The seat token of an `Authorization: Bearer <token>` header (REST and websocket alike); None
    without the header, Unauthorized when it is not of that form."""
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("the Authorization header must be 'Bearer <seat token>'", code="bad_token")
    return token.strip()


# The dependencies are coroutines, though they never wait: FastAPI runs a plain function in a worker
# thread (a hop to and from the thread pool on every request).
async def services(request: Request) -> Services:
    return request.app.state.services


async def request_token(request: Request, _: Annotated[object, Depends(bearer)]) -> str | None:
    return bearer_token(request.headers.get("authorization"))


ServicesDep = Annotated[Services, Depends(services)]
Token = Annotated[str | None, Depends(request_token)]


async def seat_auth(code: RoomCode, svc: ServicesDep, token: Token) -> SeatAuth:
    if token is None:
        raise Unauthorized("this needs a seat token: send 'Authorization: Bearer <token>'", code="missing_token")
    return await svc.rooms.authenticate(code, token)


async def optional_seat_auth(code: RoomCode, svc: ServicesDep, token: Token) -> SeatAuth | None:
    if token is None:
        return None
    return await svc.rooms.authenticate(code, token)


SeatDep = Annotated[SeatAuth, Depends(seat_auth)]
OptionalSeatDep = Annotated[SeatAuth | None, Depends(optional_seat_auth)]
