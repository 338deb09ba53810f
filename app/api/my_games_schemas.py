"""The bodies and answers of "my games" (app/api/my_games.py): every seat a browser holds, listed in
one request, and the link that moves them all to another device."""

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from app.api.schemas import BotReason, GameKind, RoomStatus, Strict, Token
from app.rooms.my_games import MAX_TOKENS

Tokens = Annotated[
    list[Token],
    Field(
        max_length=MAX_TOKENS,
        description=f"the seat tokens this browser keeps, at most {MAX_TOKENS} (in the body, never in a URL)",
    ),
]


class TokensIn(Strict):
    tokens: Tokens


class MoveTokensIn(Strict):
    tokens: Annotated[Tokens, Field(min_length=1)]


class MoveIn(Strict):
    token: str = Field(min_length=1, max_length=128, description="the move link's secret (its `#move=` part)")


class PlayerOut(BaseModel):
    seat: int
    name: str | None = Field(description="None: a free seat")
    kind: Literal["human", "bot", "free"]


class ScoreOut(BaseModel):
    seat: int
    total: int = Field(description="victory points")
    coins: int | None = None


class MyResultOut(BaseModel):
    abandoned: bool = Field(description="the room was closed unused before the game ended: no result")
    winners: list[int] = Field(description="the winning seats (several when tied)")
    scores: list[ScoreOut]
    victory: str | None = Field(None, description="Duel: how it was won (military, science, civilian)")


Status = Literal["your_move", "waiting", "lobby", "finished", "gone"]


class MyGameOut(BaseModel):
    index: int = Field(description="the token's place in the request's `tokens`")
    status: Status = Field(
        description="your_move: your seat owes a decision; waiting: for other seats (or a bot plays yours); lobby: "
        "the room waits for its game to start; finished: the game ended (or its room was closed); gone: the "
        "token holds no seat any more (the room is gone, or the seat moved to another device): forget it"
    )
    code: str | None = Field(None, description="the room's code")
    url: str | None = Field(None, description="the room's page")
    room_status: RoomStatus | None = None
    game: GameKind | None = None
    expansions: list[str] = Field(default_factory=list)
    seat: int | None = Field(None, description="your seat")
    name: str | None = Field(None, description="your seat's name")
    host: bool = False
    players: list[PlayerOut] = Field(default_factory=list, description="the room's seats and their names")
    bot_plays: str | None = Field(None, description="the bot that plays your seat for you now, if one does")
    bot_reason: BotReason | None = None
    game_id: int | None = None
    started_at: str | None = None
    to_act: list[int] | None = Field(None, description="the seats that owe a decision (None: not known)")
    age: int | None = None
    turn: int | None = Field(None, description="7 Wonders: the turn of the age")
    turns_per_age: int | None = None
    phase: str | None = None
    clock: Literal["off", "turn", "bank"] = "off"
    deadline: str | None = Field(None, description="your move: when your time runs out, if a clock runs (ISO 8601)")
    result: MyResultOut | None = None
    finished_at: str | None = None


class MyGamesOut(BaseModel):
    games: list[MyGameOut] = Field(
        description="your move first (soonest deadline first), then waiting for others, waiting to start, finished "
        "(latest first), and gone tokens last"
    )
    your_move: int = Field(description="how many games owe your move")
    server_time: str = Field(description="the server's time, to count deadlines down with")


class MoveLinkOut(BaseModel):
    url: str = Field(description="open it on the other device (the secret is after #, never sent in a request line)")
    token: str = Field(description="the link's secret")
    seats: int = Field(description="how many seats it moves")


class MovedSeatOut(BaseModel):
    code: str
    seat: int
    name: str
    token: str = Field(description="the seat's new token, for this device (shown once)")


class MovedOut(BaseModel):
    seats: list[MovedSeatOut]
