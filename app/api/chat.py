"""A room's chat over REST (the websocket carries it too: `chat` messages both ways)."""

from typing import Annotated

from fastapi import APIRouter, Path, Query, status

from app.api.deps import OptionalSeatDep, RoomCode, SeatDep, ServicesDep
from app.api.errors import ERROR_RESPONSES
from app.api.room_schemas import ChatIn, ChatListOut, ChatOut
from app.api.schemas import MAX_ID

router = APIRouter(prefix="/api/rooms", tags=["chat"], responses=ERROR_RESPONSES)

MessageId = Annotated[int, Path(ge=1, le=MAX_ID, description="a chat message's id")]


@router.post("/{code}/chat", status_code=status.HTTP_201_CREATED, response_model=ChatOut, summary="Say something")
async def say(code: RoomCode, body: ChatIn, svc: ServicesDep, auth: SeatDep) -> ChatOut:
    """Say something in the room's chat (1 to 500 characters): everyone in the room hears it, on the
    websocket as a `chat` message. A seat may say CHAT_MESSAGES messages in CHAT_WINDOW_SECONDS (429
    `chat_too_fast`, with `retry_after_seconds`)."""
    return ChatOut(**await svc.rooms.say(auth, body.text))


@router.get("/{code}/chat", response_model=ChatListOut, summary="Read the chat")
async def read_chat(
    code: RoomCode,
    svc: ServicesDep,
    auth: OptionalSeatDep,
    after: Annotated[int, Query(ge=0, le=MAX_ID, description="only the messages after the one of this id")] = 0,
) -> ChatListOut:
    """The room's latest messages (at most 100, oldest first), after `after`. Without a seat token:
    only when the room lets spectators watch (live, or once its game is over)."""
    messages = await svc.rooms.chat_of(code, spectator=auth is None, after=after)
    return ChatListOut(messages=[ChatOut(**m) for m in messages])


@router.delete("/{code}/chat/{message}", response_model=ChatOut, summary="Delete a message (host)")
async def delete_message(code: RoomCode, message: MessageId, svc: ServicesDep, auth: SeatDep) -> ChatOut:
    """The host deletes a message: everyone sees it deleted (a `chat` message with `deleted` true),
    and its words are no longer shown."""
    return ChatOut(**await svc.rooms.delete_chat(auth, message))
