"""The games router's bodies and answers (app/api/games.py): a game's state, its legal actions, an
action, the score sheet and the history."""

from typing import Literal

from pydantic import BaseModel, Field

from app.api.actions import GameAction
from app.api.schemas import (
    ActionId,
    GameStatus,
    JSONObject,
    Strict,
    Version,
)


class ClockState(BaseModel):
    mode: Literal["turn", "bank"]
    deadlines: dict[str, str] = Field(
        description="seat -> when its decision is due (ISO 8601, UTC), for every seat that owes one; when it "
        "passes, the server decides for that seat with the room's timeout_bot"
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


class HistoryStep(BaseModel):
    seq: int
    seat: int
    at: str | None
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
    at: int | None = None
    view: JSONObject | None = None
