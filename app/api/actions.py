"""What an action looks like: one union of every registered game kind's action shapes (each kind
defines its own once, in the engine: `app.engine.game_kind(name).actions`, a discriminated union on
`type`: 7 Wonders with Armada's extra fields, and Duel), told apart by `game_of`. It types the actions
in the OpenAPI document and the websocket schemas, and checks what a client sends before the engine
sees it.

The shapes say only what an action looks like (which fields, their types and ranges); whether it is
legal now is the engine's to say. Each is a TypedDict, so a valid action comes out as the plain dict
the engine takes, and validation is strict: `true` is no seat number, `"2"` no stage.
"""

from functools import reduce
from operator import or_
from typing import Annotated, Any

from pydantic import Discriminator, Field, Tag, TypeAdapter

from app.engine import game_kind, game_kinds

KINDS = [game_kind(kind["name"]) for kind in game_kinds()]
FALLBACK = next(kind.name for kind in KINDS if kind.actions.claims is None)  # the kind of what none claims
CLAIMS = [(kind.actions.claims, kind.name) for kind in KINDS if kind.actions.claims is not None]


def game_of(action: Any) -> str:
    """Which game's shapes an action is checked against: the first kind that claims it (the Duel
    claims its own types and the shapes only it has: a Wonder named, a cost in coins), else the kind
    that claims nothing of its own (7 Wonders; where both games' shapes agree, as for a discard,
    either would do)."""
    for claims, name in CLAIMS:
        if claims(action):
            return name
    return FALLBACK


def either_game(schema: dict[str, Any]) -> None:
    """The two games' unions as `anyOf`: some shapes (a discard of a named card) are in both, and a
    `oneOf` would refuse what fits more than one."""
    if "oneOf" in schema:
        schema["anyOf"] = schema.pop("oneOf")


GameAction = Annotated[
    reduce(or_, [Annotated[kind.actions.union, Tag(kind.name)] for kind in KINDS]),  # type: ignore[valid-type]
    Discriminator(game_of),
    Field(description="one of your legal actions, exactly as legal_actions lists it", json_schema_extra=either_game),
]
game_action: TypeAdapter[dict[str, Any]] = TypeAdapter(GameAction)

NOT_AN_OBJECT = frozenset({"missing", "model_attributes_type", "dict_type", "model_type"})


def clean_error(error: Any) -> dict[str, Any]:
    """A Pydantic error about a message or body holding an `action`, with `loc` the path a client
    wrote (without the unions' own steps: the game and the type) and a message that lists the types."""
    loc = list(error.get("loc", ()))
    if "action" in loc:
        at = loc.index("action") + 1
        if at < len(loc) and loc[at] in {kind.name for kind in KINDS}:
            del loc[at : at + (2 if at + 1 < len(loc) else 1)]
    message = error.get("msg", "invalid")
    if error.get("type") == "json_invalid":  # FastAPI's: the parser's own words are in ctx, the position in loc
        message = str((error.get("ctx") or {}).get("error") or message)
    if error.get("type") in ("union_tag_invalid", "union_tag_not_found") and loc and loc[-1] == "action":
        message = "'type' must be an action type: " + " or ".join(
            f"{', '.join(kind.actions.types)} ({kind.title})" for kind in KINDS
        )
    return {"loc": loc, "msg": message, "type": error.get("type")}


def is_action_shape(error: dict[str, Any]) -> bool:
    """An error inside an action object (a wrong, missing or extra field), not about the message holding it."""
    loc = error["loc"]
    return "action" in loc and (loc[-1] != "action" or error["type"] not in NOT_AN_OBJECT)
