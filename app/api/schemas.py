"""What the REST bodies and answers and the websocket messages share: the wire's value types (names,
seats, versions, ids, with their ranges), the strict base of what clients send, and errors. Each
router's own models are beside it: room_schemas.py, game_schemas.py, catalog_schemas.py,
ws_messages.py (and health.py's own).

Actions are typed by their shapes (app/api/actions.py: a discriminated union per game kind). Views,
events and results are the engine's own JSON objects (they differ by game kind), so they are typed
here as objects; `docs/PROTOCOL.md` shows them.

Every integer a client sends has a range and every string a length, stated in the schema (so in the
OpenAPI document), within what the database holds: a value outside is refused with a 4xx naming the
field and the limit, before anything reaches the database.
"""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.engine import game_kinds

JSONObject = dict[str, Any]


def kind_players(kind: dict[str, Any]) -> str:
    """'classic (3-7 players)', 'duel (2 players)'."""
    low, high = kind["players"]["min"], kind["players"]["max"]
    return f"{kind['name']} ({low if low == high else f'{low}-{high}'} players)"


GameKind = Literal[tuple(kind["name"] for kind in game_kinds())]  # type: ignore[misc]
Side = Literal["day", "night", "random"]
RoomStatus = Literal["open", "playing", "finished", "closed"]
Spectators = Literal["off", "live", "after"]
BotReason = Literal["host", "left", "timeout"]
GameStatus = Literal["running", "finished", "abandoned"]  # abandoned: its room was closed unused
ActionId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=64,
        pattern=r"^[^\x00-\x1f\x7f]+$",  # no control characters: PostgreSQL's text holds no NUL
        description="a client nonce, without control characters: a repeat is never applied",
    ),
]
Name = Annotated[str, Field(min_length=1, max_length=64, examples=["Ada"])]

# The ranges of what clients send. The database's integers are 64-bit ids and 32-bit counts; ids and
# seeds stop at 2^53 - 1, the largest integer a JavaScript client (or a JSON Schema read as doubles)
# holds exactly.
MAX_SEATS = 7  # 7 Wonders with 7 players
MAX_ID = 2**53 - 1
MAX_COUNT = 2**31 - 1
SeatNumber = Annotated[int, Field(ge=0, le=MAX_SEATS - 1, description="a seat, 0 to 6 (and below the room's players)")]
PlayerCount = Annotated[int, Field(ge=2, le=MAX_SEATS, description="2 (Duel) or 3 to 7 (7 Wonders)")]
GameId = Annotated[int, Field(ge=1, le=MAX_ID, description="a game's id")]
Version = Annotated[int, Field(ge=0, le=MAX_COUNT, description="a game version: the number of steps applied")]
Seed = Annotated[int, Field(ge=0, le=MAX_ID, description="a game seed, 0 to 2^53-1")]
BotKind = Annotated[str, Field(min_length=1, max_length=32, description="a bot kind or level")]
ShortText = Annotated[str, Field(min_length=1, max_length=64)]
Token = Annotated[str, Field(min_length=1, max_length=128, description="a seat token")]


class Strict(BaseModel):
    """What clients send: no unknown field, and no conversion ("3" is no number, true no seat)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class ErrorDetail(BaseModel):
    code: str = Field(description="stable, machine-readable", examples=["room_full"])
    message: str = Field(description="for people: what was wrong and what would be right")
    details: Any | None = None


class ErrorOut(BaseModel):
    error: ErrorDetail
