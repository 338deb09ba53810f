"""What every game kind's action shapes are made of: names, coins, units, and the strict config
that makes `true` no seat number and `"2"` no stage.

Each kind defines its shapes once, beside its rules (`classic/action_shapes.py`,
`duel/action_shapes.py`), as TypedDicts, so a valid action comes out as the plain dict the engine
takes; they say what an action looks like (its fields, their types and ranges), never whether it
is legal now. The server builds its OpenAPI and websocket unions from them (app/api/actions.py).
"""

from typing import Annotated, Literal

from pydantic import ConfigDict, Field
from typing_extensions import TypedDict

from app.engine.common.resources import RESOURCES

# Wide enough for anything a game can hold, narrow enough that nothing downstream has to care.
MAX_NAME = 64
MAX_COINS = 999
MAX_UNITS = 99
MAX_STAGE = 4

STRICT = ConfigDict(extra="forbid", strict=True)

Resource = Literal[RESOURCES]  # type: ignore[valid-type]
Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME, description="a card, wonder, island or token name")]
Coins = Annotated[int, Field(ge=0, le=MAX_COINS)]
Units = Annotated[int, Field(ge=0, le=MAX_UNITS)]


class Shape(TypedDict):
    """The base of every action shape (and of its parts): strict, and no field it does not name."""

    __pydantic_config__ = STRICT  # type: ignore[misc]
