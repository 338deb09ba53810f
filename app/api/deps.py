"""Dependencies: the instance's services and the seat behind a bearer token."""

from typing import Annotated

from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.rooms.context import Services
from app.rooms.errors import Unauthorized
from app.rooms.service import SeatAuth

bearer = HTTPBearer(auto_error=False, description="the seat token answered when creating or joining a room")

RoomCode = Annotated[str, Path(description="the room code (case does not matter)", min_length=1, max_length=32)]


def services(request: Request) -> Services:
    return request.app.state.services


ServicesDep = Annotated[Services, Depends(services)]
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


async def seat_auth(code: RoomCode, svc: ServicesDep, credentials: Credentials) -> SeatAuth:
    if credentials is None:
        raise Unauthorized("this needs a seat token: send 'Authorization: Bearer <token>'", code="missing_token")
    return await svc.rooms.authenticate(code, credentials.credentials)


async def optional_seat_auth(code: RoomCode, svc: ServicesDep, credentials: Credentials) -> SeatAuth | None:
    if credentials is None:
        return None
    return await svc.rooms.authenticate(code, credentials.credentials)


SeatDep = Annotated[SeatAuth, Depends(seat_auth)]
OptionalSeatDep = Annotated[SeatAuth | None, Depends(optional_seat_auth)]
