"""The websocket's messages in both directions (app/api/ws.py; docs/PROTOCOL.md shows them):
`ClientMessage` and `ServerMessage` are the two unions."""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from app.api.actions import GameAction
from app.api.advice_schemas import HintOut
from app.api.game_schemas import StateOut
from app.api.room_schemas import ChatOut, ChatText, RoomOut
from app.api.schemas import (
    ActionId,
    JSONObject,
    Strict,
    Token,
    Version,
)


class HelloMsg(Strict):
    """First message when no Authorization header was sent: a seat token, or none to watch."""

    type: Literal["hello"]
    token: Token | None = None


class ActionMsg(Strict):
    type: Literal["action"]
    action: GameAction
    version: Version
    action_id: ActionId | None = None


class PingMsg(Strict):
    type: Literal["ping"]
    data: Any | None = None


class SyncMsg(Strict):
    """Ask for the room and the current state again."""

    type: Literal["sync"]


class ChatInMsg(Strict):
    """Say something in the room's chat (a seat only; see also POST /api/rooms/{code}/chat)."""

    type: Literal["chat"]
    text: ChatText


class HintInMsg(Strict):
    """Ask for a hint (a seat, in a room with `hints` on; see GET /api/rooms/{code}/game/hint): answered
    by a `hint` message, or an error."""

    type: Literal["hint"]


ClientMessage = Annotated[HelloMsg | ActionMsg | PingMsg | SyncMsg | ChatInMsg | HintInMsg, Field(discriminator="type")]
client_message = TypeAdapter(ClientMessage)
CLIENT_TYPES = ("hello", "action", "ping", "sync", "chat", "hint")


class Limits(BaseModel):
    max_message_bytes: int
    rate_per_second: float
    burst: int
    max_json_depth: int = Field(32, description="deeper JSON is refused (too_deep)")


class WelcomeMsg(BaseModel):
    type: Literal["welcome"] = "welcome"
    seat: int | None = Field(description="your seat, or null for a spectator")
    room: RoomOut
    limits: Limits
    server_time: str | None = Field(
        None, description="the server's clock (ISO 8601, UTC): clients measure turn-clock deadlines against it"
    )


class RoomMsg(BaseModel):
    type: Literal["room"] = "room"
    room: RoomOut


class StateMsg(StateOut):
    type: Literal["state"] = "state"


class ChosenMsg(BaseModel):
    """A seat has made (or changed) its secret choice; the choice itself is never sent."""

    type: Literal["chosen"] = "chosen"
    game_id: int
    version: int
    seat: int
    changed: bool


class RevealMsg(BaseModel):
    """Every seat had chosen: the choices are shown and resolved together."""

    type: Literal["reveal"] = "reveal"
    game_id: int
    version: int
    reveal: JSONObject


class EventMsg(BaseModel):
    """Any other public event of the game (military, age_started, decision, ...)."""

    type: Literal["event"] = "event"
    game_id: int
    version: int
    event: JSONObject


class GameOverMsg(BaseModel):
    type: Literal["game_over"] = "game_over"
    game_id: int
    version: int
    result: JSONObject


class AcceptedMsg(BaseModel):
    type: Literal["accepted"] = "accepted"
    game_id: int
    seq: int
    version: int
    action_id: str | None


class ErrorMsg(BaseModel):
    type: Literal["error"] = "error"
    code: str
    message: str
    details: Any | None = None
    action_id: str | None = None


class TimeoutMsg(BaseModel):
    """The seat's clock ran out: the server decided for it with a bot (the step's own messages follow)."""

    type: Literal["timeout"] = "timeout"
    game_id: int
    version: int = Field(description="the step the decision made")
    seat: int
    bot: str = Field(description="the bot that decided (the room's timeout_bot)")


class ChatMsg(ChatOut):
    """A message of the room's chat: each one once, the latest ones on connecting, then as they come;
    one sent again with `deleted` true when the host deleted it (its text is then empty)."""

    type: Literal["chat"] = "chat"


class HintMsg(HintOut):
    """The hint this connection asked for (everyone in the room is told it was used: a `chat` message
    of kind `hint`)."""

    type: Literal["hint"] = "hint"


class PongMsg(BaseModel):
    type: Literal["pong"] = "pong"
    data: Any | None = None


ServerMessage = Annotated[
    WelcomeMsg
    | RoomMsg
    | StateMsg
    | ChosenMsg
    | RevealMsg
    | EventMsg
    | GameOverMsg
    | AcceptedMsg
    | ErrorMsg
    | PongMsg
    | TimeoutMsg
    | ChatMsg
    | HintMsg,
    Field(discriminator="type"),
]
server_message = TypeAdapter(ServerMessage)


class ProtocolOut(BaseModel):
    client: JSONObject = Field(description="JSON Schema of ClientMessage: what a client may send")
    server: JSONObject = Field(description="JSON Schema of ServerMessage: what the server sends")
    limits: dict[str, int | float] = Field(
        description="max_message_bytes, max_frame_bytes, max_json_depth, rate_per_second, burst"
    )
