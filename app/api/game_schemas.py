"""The games router's bodies and answers (app/api/games.py): a game's state, its legal actions, an
action, the score sheet and the history."""

from typing import Literal

from pydantic import BaseModel, Field

from app.api.actions import GameAction
from app.api.room_schemas import ChatOut
from app.api.schemas import (
    ActionId,
    GameStatus,
    JSONObject,
    Strict,
    Version,
)
from app.rooms.clocks import Pace


class ClockState(BaseModel):
    mode: Literal["turn", "bank"]
    pace: Pace = Field(
        "live", description="live (under an hour for a decision) or turn_based (an hour or more: the room's pace)"
    )
    deadlines: dict[str, str] = Field(
        description="seat -> when its decision is due (ISO 8601, UTC), for every seat that owes one; when it "
        "passes, the server decides for that seat with the room's timeout_bot"
    )
    since: dict[str, str] = Field(
        default_factory=dict,
        description="seat -> when it came to owe its decision (ISO 8601, UTC), for the same seats: never later "
        "than the server's now, so a client may correct its idea of the server's time with it",
    )
    seconds: float | None = Field(None, description="turn mode: the seconds each decision may take")
    banks: dict[str, float] | None = Field(
        None,
        description="bank mode: seat -> seconds left in its time bank, for the seats that owe no decision now "
        "(a seat that owes one has until its deadline)",
    )
    increment_seconds: float | None = Field(None, description="bank mode: seconds added per decision")


class StateOut(BaseModel):
    game_id: int
    status: GameStatus
    version: int = Field(description="steps applied so far: quote it with your next action")
    seat: int | None = Field(description="your seat, or null for a spectator")
    to_act: list[int]
    view: JSONObject = Field(description="what this seat may know (the engine's view)")
    legal_actions: list[GameAction] | None = Field(description="your legal actions now (null for spectators)")
    result: JSONObject | None = None
    clock: ClockState | None = Field(None, description="with a turn clock: deadlines (and time banks)")


class LegalActionsOut(BaseModel):
    game_id: int
    version: int
    seat: int
    legal_actions: list[GameAction]


class ActionIn(Strict):
    action: GameAction = Field(examples=[{"type": "discard", "card": "Baths"}])
    version: Version = Field(description="the game version your choice was made against")
    action_id: ActionId | None = None


class ActionOut(BaseModel):
    game_id: int
    seq: int = Field(description="the step number of your action in the log")
    version: int = Field(description="the game version after it")
    events: list[JSONObject] = Field(description="public events (never another seat's secret)")


class ResultOut(BaseModel):
    game_id: int
    result: JSONObject


class ReplayChatOut(ChatOut):
    step: int = Field(
        description="the number of steps made before it was said: a replay at step k shows the messages with step <= k"
    )


class HistoryStep(BaseModel):
    seq: int
    seat: int
    at: str | None = Field(description="when the step was made (ISO 8601, UTC)")
    events: list[JSONObject]
    by_timeout: bool = Field(False, description="the server made this decision for the seat: its clock ran out")
    action: JSONObject | None = Field(None, description="shown once the game is over, in the engine's canonical form")


class HistoryOut(BaseModel):
    game_id: int
    status: str
    version: int
    config: JSONObject
    seats: list[JSONObject]
    steps: list[HistoryStep]
    result: JSONObject | None
    started_at: str | None = Field(None, description="when the game started (ISO 8601, UTC): the time of step 0")
    chat: list[ReplayChatOut] | None = Field(
        None,
        description="once the game is over: the room's chat said from its start until the room's next game (or "
        "now), oldest first (at most 1000), each message with the step from which a replay shows it; null while it "
        "runs (the room's chat is GET /api/rooms/{code}/chat)",
    )
    at: int | None = None
    view: JSONObject | None = None
