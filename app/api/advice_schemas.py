"""The bodies of hints and game reviews (app/api/advice.py; the websocket's `hint` messages too)."""

from typing import Literal

from pydantic import BaseModel, Field

from app.api.schemas import JSONObject

POINTS = (
    "An action's margin is the mean, over games played out by the search bot from what the seat knew (the other "
    "hands, decks and choices drawn again from what it could not see), of the seat's final score minus the best "
    "other seat's; in Duel a military or scientific supremacy counts as at least 20 points"
)


class HintAction(BaseModel):
    action: JSONObject = Field(description="one of your legal actions, exactly as GET .../legal-actions lists it")
    points: float = Field(
        description="its estimated points against the best action here: its margin less the best one's (0 for the "
        "best, negative for the others). " + POINTS
    )
    why: str = Field(description="one sentence: what it does, and how it fared in the games played out")
    margin: float | None = Field(None, description="its margin itself (null: your only choice, nothing searched)")
    samples: int = Field(0, description="the games it was played out in")


class HintOut(BaseModel):
    game_id: int
    version: int = Field(description="the game's version the hint is for")
    seat: int
    actions: list[HintAction] = Field(description="up to three of your legal actions, best first")


class ReviewDecision(BaseModel):
    step: int = Field(description="the step of the game's log (0-based): the decision made the game's version step+1")
    action: JSONObject = Field(description="the action taken")
    best: JSONObject = Field(description="the search bot's preferred action, from what the seat knew then")
    points_lost: float = Field(description="the best action's margin less the taken one's (0 or more). " + POINTS)
    margin: float | None = Field(None, description="the best action's margin (null: only one choice there was)")
    samples: int = Field(0, description="the games each candidate was played out in")


class ReviewSwing(BaseModel):
    step: int
    points_lost: float


class ReviewSeat(BaseModel):
    seat: int
    points_lost: float = Field(description="the points lost over all the seat's decisions")
    swings: list[ReviewSwing] = Field(description="its three decisions that lost the most, most first")
    decisions: list[ReviewDecision] = Field(description="every decision of the seat, in the log's order")


class ReviewOut(BaseModel):
    game_id: int
    status: Literal["pending", "done", "failed"] = Field(
        description="pending (202: being computed; ask again), done, or failed (error says why)"
    )
    budget_ms: int = Field(description="the search's thinking time per decision")
    seats: list[ReviewSeat] = Field(default_factory=list, description="once done: every seat's decisions")
    cpu_seconds: float | None = Field(None, description="once done: the CPU seconds the review took")
    error: str | None = None
