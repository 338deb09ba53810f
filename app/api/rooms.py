"""Rooms: create, read, join, leave, and the host's powers (settings, bots, removing seats, start);
seats a bot plays for their person, and rejoin links that move a seat to another device."""

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request, status

from app.api.deps import RoomCode, SeatDep, ServicesDep
from app.api.errors import ERROR_RESPONSES
from app.api.room_schemas import (
    AddBotIn,
    CreateRoomIn,
    GameListItem,
    HandSeatIn,
    JoinedOut,
    JoinIn,
    RejoinIn,
    RejoinLinkOut,
    RoomOut,
    SettingsPatch,
)
from app.api.schemas import MAX_COUNT

router = APIRouter(prefix="/api/rooms", tags=["rooms"], responses=ERROR_RESPONSES)


# The room decides which of its seats an operation may name, with its own codes (a free seat: 404
# seat_free); the path's range is what the seats table holds.
SeatPath = Annotated[int, Path(ge=0, le=MAX_COUNT, description="a seat of the room (0 to its players - 1)")]


def _joined(joined: Any) -> JoinedOut:
    return JoinedOut(code=joined.room["code"], seat=joined.seat, token=joined.token, room=RoomOut(**joined.room))


@router.post("", status_code=status.HTTP_201_CREATED, response_model=JoinedOut, summary="Create a room")
async def create_room(body: CreateRoomIn, svc: ServicesDep, request: Request) -> JoinedOut:
    """Create a private room and take a seat in it as its host. Answers the room code to share and the
    host's secret seat token (shown only now). Bots may take seats at once; free seats wait for people.
    One client address creates at most ROOMS_PER_ADDRESS rooms an hour (429 `too_many_rooms`). With
    `learn: true`, a learning game: a deal the server chose, easy bots in the other seats, hints on."""
    if body.learn:
        given = sorted(body.model_fields_set - {"learn", "name", "game", "spectators"})
        settings = body.model_dump(exclude={"name", "seat", "bots", "learn"}, exclude_unset=True)
        settings = svc.rooms.lesson_settings(settings, given)
        bots = svc.rooms.lesson_bots(settings)
    else:
        settings = body.model_dump(exclude={"name", "seat", "bots", "learn"})
        bots = [(b.seat, b.kind) for b in body.bots]
    address = request.client.host if request.client else None
    return _joined(await svc.rooms.create(settings, body.name, host_seat=body.seat, bots=bots, address=address))


@router.get("/{code}", response_model=RoomOut, summary="Read a room")
async def get_room(code: RoomCode, svc: ServicesDep) -> RoomOut:
    """Settings, seats with names, who is connected, the status and the current game, if any."""
    return RoomOut(**await svc.rooms.get(code))


@router.post("/{code}/join", status_code=status.HTTP_201_CREATED, response_model=JoinedOut, summary="Join a free seat")
async def join_room(code: RoomCode, body: JoinIn, svc: ServicesDep) -> JoinedOut:
    """Take a free seat (the first one, or the one asked for) under a name unique in the room (names that
    read alike are one: case, width, accents written either way and characters that show nothing do
    not count; 409 `name_taken` says which name it reads as). Answers
    the seat number and its secret token (shown only now)."""
    return _joined(await svc.rooms.join(code, body.name, body.seat))


@router.post("/{code}/leave", response_model=RoomOut, summary="Leave your seat")
async def leave_room(code: RoomCode, auth: SeatDep, svc: ServicesDep) -> RoomOut:
    """Give up your seat. Between games the seat is freed and the token stops working. During a game a
    bot plays the seat for you (`bot_reason` "left") and your token keeps working: come back while the
    game runs with `POST .../seats/{seat}/back` or by acting. When the host leaves, the next person
    present becomes host."""
    return RoomOut(**await svc.rooms.leave(auth))


@router.patch("/{code}", response_model=RoomOut, summary="Change the settings (host)")
async def update_room(code: RoomCode, body: SettingsPatch, auth: SeatDep, svc: ServicesDep) -> RoomOut:
    """Change the game kind, player count, expansions, wonder assignment or who may watch
    (`spectators`) between games."""
    changes = body.model_dump(exclude_unset=True)
    return RoomOut(**await svc.rooms.update_settings(auth, changes))


@router.post("/{code}/bots", response_model=RoomOut, status_code=status.HTTP_201_CREATED, summary="Add a bot (host)")
async def add_bot(code: RoomCode, body: AddBotIn, auth: SeatDep, svc: ServicesDep) -> RoomOut:
    return RoomOut(**await svc.rooms.add_bot(auth, body.kind, body.seat))


@router.delete("/{code}/seats/{seat}", response_model=RoomOut, summary="Remove a bot or a person (host)")
async def remove_seat(code: RoomCode, seat: SeatPath, auth: SeatDep, svc: ServicesDep) -> RoomOut:
    """Before a game, free the seat. During one, a person is replaced by a bot (their token stops working)."""
    return RoomOut(**await svc.rooms.remove_seat(auth, seat))


@router.post("/{code}/start", response_model=RoomOut, summary="Start the game (host)")
async def start_game(code: RoomCode, auth: SeatDep, svc: ServicesDep) -> RoomOut:
    """Start once every seat is taken. After a game ends, starts a rematch with the same seats."""
    return RoomOut(**await svc.rooms.start(auth))


@router.get("/{code}/games", response_model=list[GameListItem], summary="Games played in a room")
async def list_games(code: RoomCode, svc: ServicesDep) -> list[GameListItem]:
    return [GameListItem(**g) for g in await svc.rooms.games_of(code)]


@router.post("/{code}/seats/{seat}/bot", response_model=RoomOut, summary="Hand a person's seat to a bot (host)")
async def hand_seat_to_bot(
    code: RoomCode, seat: SeatPath, body: HandSeatIn, auth: SeatDep, svc: ServicesDep
) -> RoomOut:
    """During a game, a bot plays this person's seat from now on (`bot_plays`, `bot_reason` "host"). The
    seat keeps its person's name and token; they take it back by acting, or the host gives it back."""
    return RoomOut(**await svc.rooms.host_hands_seat(auth, seat, svc.rooms.check_bot(body.kind)))


@router.delete("/{code}/seats/{seat}/bot", response_model=RoomOut, summary="Give a seat back to its person (host)")
async def hand_seat_back(code: RoomCode, seat: SeatPath, auth: SeatDep, svc: ServicesDep) -> RoomOut:
    """The bot playing this person's seat stops; the person plays their next decision."""
    return RoomOut(**await svc.rooms.host_hands_back(auth, seat))


@router.post("/{code}/seats/{seat}/back", response_model=RoomOut, summary="Take your seat back from a bot")
async def come_back(code: RoomCode, seat: SeatPath, auth: SeatDep, svc: ServicesDep) -> RoomOut:
    """ "I'm back": the bot that plays your seat for you (you left, the host handed it over, or your time
    ran out) stops, and you play your next decision. Acting on your seat does the same."""
    return RoomOut(**await svc.rooms.back(auth, seat))


@router.post(
    "/{code}/seats/{seat}/rejoin-link",
    response_model=RejoinLinkOut,
    status_code=status.HTTP_201_CREATED,
    summary="Make a link to play a seat on another device",
)
async def make_rejoin_link(code: RoomCode, seat: SeatPath, auth: SeatDep, svc: ServicesDep) -> RejoinLinkOut:
    """For your own seat, or (the host) anyone's. Opening the link (`POST .../rejoin`) moves the seat to
    the device that opens it: the old token stops working there. A new link replaces an unused one."""
    return RejoinLinkOut(**await svc.rooms.rejoin_link(auth, seat))


@router.post("/{code}/rejoin", response_model=JoinedOut, summary="Take a seat with a rejoin link")
async def rejoin(code: RoomCode, body: RejoinIn, svc: ServicesDep) -> JoinedOut:
    """The link's token becomes the seat's token (answered again here); the seat's old token is refused
    from now on, and websockets holding it lose the seat. A link works once."""
    return _joined(await svc.rooms.rejoin(code, body.token))
