"""What an action looks like, per game kind: the shapes the engine's `legal_actions` lists and `apply`
accepts, as a discriminated union on `type` for each game kind (7 Wonders with Armada's extra fields,
and Duel). They type the actions in the OpenAPI document and the websocket schemas, and check what a
client sends before the engine sees it.

They say only what an action looks like (which fields, their types and ranges); whether it is legal
now is the engine's to say. Each is a TypedDict, so a valid action comes out as the plain dict the
engine takes, and validation is strict: `true` is no seat number, `"2"` no stage.
"""

from typing import Annotated, Any, Literal, NotRequired

from pydantic import ConfigDict, Discriminator, Field, Tag, TypeAdapter
from typing_extensions import TypedDict

from app.engine import describe_components

_BOX = describe_components()
Resource = Literal[tuple(_BOX["resources"])]  # type: ignore[valid-type]
ShipTrack = Literal[tuple(_BOX["armada"]["ship_tracks"])]  # type: ignore[valid-type]

# Wide enough for anything a game can hold, narrow enough that nothing downstream has to care.
MAX_NAME = 64
MAX_COINS = 999
MAX_UNITS = 99
MAX_STAGE = 4

Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME, description="a card, wonder, island or token name")]
Coins = Annotated[int, Field(ge=0, le=MAX_COINS)]
Units = Annotated[int, Field(ge=0, le=MAX_UNITS)]
Bought = Annotated[dict[Resource, Units], Field(description="resource -> units bought from that seat")]
Moves = Annotated[
    list[ShipTrack], Field(max_length=4, description="Armada: the ships a free ship move advances, by track")
]
Naval = Annotated[bool, Field(description="Armada: the naval step of the card's colour (or the wonder track) too")]
Free = Literal["chain", "first_of_color", "first_of_age", "last_of_age"]

STRICT = ConfigDict(extra="forbid", strict=True)


class Trade(TypedDict, total=False):
    """What is bought from each neighbour (Armada's Emporiums also buy from two seats away)."""

    __pydantic_config__ = STRICT  # type: ignore[misc]
    left: Bought
    right: Bought
    far_left: Bought
    far_right: Bought


class ClassicCost(TypedDict, total=False):
    """Coins paid to the bank and to each seller; optional, and when given it must be the legal action's."""

    __pydantic_config__ = STRICT  # type: ignore[misc]
    bank: Coins
    left: Coins
    right: Coins
    far_left: Coins
    far_right: Coins


class ClassicBuild(TypedDict):
    """Build the card, buying `trade` from the neighbours."""

    __pydantic_config__ = STRICT  # type: ignore[misc]
    type: Literal["build"]
    card: Name
    trade: NotRequired[Trade]
    cost: NotRequired[ClassicCost]
    free: NotRequired[Free]
    naval: NotRequired[Naval]
    moves: NotRequired[Moves]


class ClassicWonder(TypedDict):
    """Tuck the card to build the wonder stage `stage`."""

    __pydantic_config__ = STRICT  # type: ignore[misc]
    type: Literal["wonder"]
    card: Name
    stage: NotRequired[Annotated[int, Field(ge=1, le=MAX_STAGE)]]
    trade: NotRequired[Trade]
    cost: NotRequired[ClassicCost]
    free: NotRequired[Free]
    naval: NotRequired[Naval]
    moves: NotRequired[Moves]


class ClassicDiscard(TypedDict):
    """Discard the card for 3 coins (Armada: or move the yellow ship instead)."""

    __pydantic_config__ = STRICT  # type: ignore[misc]
    type: Literal["discard"]
    card: Name
    reward: NotRequired[Literal["coins", "yellow"]]


class ClassicBuildFromDiscard(TypedDict):
    """Halikarnassos: build a card of the discard pile free."""

    __pydantic_config__ = STRICT  # type: ignore[misc]
    type: Literal["build_from_discard"]
    card: Name
    moves: NotRequired[Moves]


class ClassicPass(TypedDict):
    """Halikarnassos: build nothing from the discard pile."""

    __pydantic_config__ = STRICT  # type: ignore[misc]
    type: Literal["pass"]


class KeepIsland(TypedDict):
    """Armada: keep one of the islands drawn when exploring."""

    __pydantic_config__ = STRICT  # type: ignore[misc]
    type: Literal["keep_island"]
    island: Name
    moves: NotRequired[Moves]


class DraftWonder(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    type: Literal["draft_wonder"]
    wonder: Name


class DuelBuild(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    type: Literal["build"]
    card: Name
    cost: NotRequired[Coins]
    free: NotRequired[Literal["chain"]]


class DuelWonder(TypedDict):
    """Build the Wonder `wonder` with the card under it."""

    __pydantic_config__ = STRICT  # type: ignore[misc]
    type: Literal["wonder"]
    card: Name
    wonder: Name
    cost: NotRequired[Coins]


class DuelDiscard(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    type: Literal["discard"]
    card: Name


class ChooseProgress(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    type: Literal["choose_progress"]
    token: Name


class Destroy(TypedDict):
    """Destroy an opponent's card (a Wonder's effect)."""

    __pydantic_config__ = STRICT  # type: ignore[misc]
    type: Literal["destroy"]
    card: Name


class DuelBuildFromDiscard(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    type: Literal["build_from_discard"]
    card: Name


class ChooseBoxToken(TypedDict):
    __pydantic_config__ = STRICT  # type: ignore[misc]
    type: Literal["choose_box_token"]
    token: Name


class ChooseStarter(TypedDict):
    """Choose who starts the next Age."""

    __pydantic_config__ = STRICT  # type: ignore[misc]
    type: Literal["choose_starter"]
    seat: Annotated[int, Field(ge=0, le=1)]


ClassicAction = Annotated[
    ClassicBuild | ClassicWonder | ClassicDiscard | ClassicBuildFromDiscard | ClassicPass | KeepIsland,
    Field(discriminator="type", description="an action of 7 Wonders (with Armada's fields when it plays)"),
]
DuelAction = Annotated[
    DraftWonder
    | DuelBuild
    | DuelWonder
    | DuelDiscard
    | ChooseProgress
    | Destroy
    | DuelBuildFromDiscard
    | ChooseBoxToken
    | ChooseStarter,
    Field(discriminator="type", description="an action of 7 Wonders Duel"),
]
DUEL_ONLY = frozenset({"draft_wonder", "choose_progress", "destroy", "choose_box_token", "choose_starter"})


def game_of(action: Any) -> str:
    """Which game's shapes an action is checked against: the Duel's for its own types and for the
    shapes only it has (a Wonder named, a cost in coins); 7 Wonders' otherwise (where both games'
    shapes agree, as for a discard, either would do)."""
    if type(action) is dict:
        kind = action.get("type")
        if type(kind) is str and (  # a type of another JSON type fits neither game: 7 Wonders' says so
            kind in DUEL_ONLY
            or (kind == "wonder" and "wonder" in action)
            or (kind == "build" and type(action.get("cost")) is int)
        ):
            return "duel"
    return "classic"


def either_game(schema: dict[str, Any]) -> None:
    """The two games' unions as `anyOf`: some shapes (a discard of a named card) are in both, and a
    `oneOf` would refuse what fits more than one."""
    if "oneOf" in schema:
        schema["anyOf"] = schema.pop("oneOf")


GameAction = Annotated[
    Annotated[ClassicAction, Tag("classic")] | Annotated[DuelAction, Tag("duel")],
    Discriminator(game_of),
    Field(description="one of your legal actions, exactly as legal_actions lists it", json_schema_extra=either_game),
]
game_action: TypeAdapter[dict[str, Any]] = TypeAdapter(GameAction)

CLASSIC_TYPES = ("build", "wonder", "discard", "build_from_discard", "pass", "keep_island")
DUEL_TYPES = (
    "draft_wonder",
    "build",
    "wonder",
    "discard",
    "choose_progress",
    "destroy",
    "build_from_discard",
    "choose_box_token",
    "choose_starter",
)
NOT_AN_OBJECT = frozenset({"missing", "model_attributes_type", "dict_type", "model_type"})


def clean_error(error: Any) -> dict[str, Any]:
    """A Pydantic error about a message or body holding an `action`, with `loc` the path a client
    wrote (without the unions' own steps: the game and the type) and a message that lists the types."""
    loc = list(error.get("loc", ()))
    if "action" in loc:
        at = loc.index("action") + 1
        if at < len(loc) and loc[at] in ("classic", "duel"):
            del loc[at : at + (2 if at + 1 < len(loc) else 1)]
    message = error.get("msg", "invalid")
    if error.get("type") == "json_invalid":  # FastAPI's: the parser's own words are in ctx, the position in loc
        message = str((error.get("ctx") or {}).get("error") or message)
    if error.get("type") in ("union_tag_invalid", "union_tag_not_found") and loc and loc[-1] == "action":
        message = (
            f"'type' must be an action type: {', '.join(CLASSIC_TYPES)} (7 Wonders) or {', '.join(DUEL_TYPES)} (Duel)"
        )
    return {"loc": loc, "msg": message, "type": error.get("type")}


def is_action_shape(error: dict[str, Any]) -> bool:
    """An error inside an action object (a wrong, missing or extra field), not about the message holding it."""
    loc = error["loc"]
    return "action" in loc and (loc[-1] != "action" or error["type"] not in NOT_AN_OBJECT)
