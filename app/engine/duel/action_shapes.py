"""7 Wonders Duel's actions as they look on the wire: the shapes `legal_actions` lists and `apply`
accepts (see app/engine/common/action_shapes.py)."""

from typing import Annotated, Any, Literal, NotRequired

from pydantic import Field

from app.engine.common.action_shapes import Coins, Name, Shape
from app.engine.common.kinds import ActionShapes


class DraftWonder(Shape):
    type: Literal["draft_wonder"]
    wonder: Name


class DuelBuild(Shape):
    type: Literal["build"]
    card: Name
    cost: NotRequired[Coins]
    free: NotRequired[Literal["chain"]]


class DuelWonder(Shape):
    """Build the Wonder `wonder` with the card under it."""

    type: Literal["wonder"]
    card: Name
    wonder: Name
    cost: NotRequired[Coins]


class DuelDiscard(Shape):
    type: Literal["discard"]
    card: Name


class ChooseProgress(Shape):
    type: Literal["choose_progress"]
    token: Name


class Destroy(Shape):
    """Destroy an opponent's card (a Wonder's effect)."""

    type: Literal["destroy"]
    card: Name


class DuelBuildFromDiscard(Shape):
    type: Literal["build_from_discard"]
    card: Name


class ChooseBoxToken(Shape):
    type: Literal["choose_box_token"]
    token: Name


class ChooseStarter(Shape):
    """Choose who starts the next Age."""

    type: Literal["choose_starter"]
    seat: Annotated[int, Field(ge=0, le=1)]


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


def is_duel_action(action: Any) -> bool:
    """Whether an action is the Duel's rather than 7 Wonders': its own types, and the shapes only it
    has (a Wonder named, a cost in coins). Where both games' shapes agree (a discard), 7 Wonders'."""
    if type(action) is dict:
        kind = action.get("type")
        if type(kind) is str and (  # a type of another JSON type fits neither game: 7 Wonders' says so
            kind in DUEL_ONLY
            or (kind == "wonder" and "wonder" in action)
            or (kind == "build" and type(action.get("cost")) is int)
        ):
            return True
    return False


DUEL_ACTIONS = ActionShapes(union=DuelAction, claims=is_duel_action)
