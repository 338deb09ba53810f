"""7 Wonders' actions as they look on the wire, with Armada's extra fields when it plays: the shapes
`legal_actions` lists and `apply` accepts (see app/engine/common/action_shapes.py)."""

from typing import Annotated, Literal, NotRequired

from pydantic import Field

from app.engine.classic.armada.data import TRACKS
from app.engine.common.action_shapes import MAX_STAGE, Coins, Name, Resource, Shape, Units
from app.engine.common.kinds import ActionShapes

ShipTrack = Literal[TRACKS]  # type: ignore[valid-type]
Bought = Annotated[dict[Resource, Units], Field(description="resource -> units bought from that seat")]
Moves = Annotated[
    list[ShipTrack], Field(max_length=4, description="Armada: the ships a free ship move advances, by track")
]
Naval = Annotated[bool, Field(description="Armada: the naval step of the card's colour (or the wonder track) too")]
Free = Literal["chain", "first_of_color", "first_of_age", "last_of_age"]


class Trade(Shape, total=False):
    """What is bought from each neighbour (Armada's Emporiums also buy from two seats away)."""

    left: Bought
    right: Bought
    far_left: Bought
    far_right: Bought


class ClassicCost(Shape, total=False):
    """Coins paid to the bank and to each seller; optional, and when given it must be the legal action's."""

    bank: Coins
    left: Coins
    right: Coins
    far_left: Coins
    far_right: Coins


class ClassicBuild(Shape):
    """Build the card, buying `trade` from the neighbours."""

    type: Literal["build"]
    card: Name
    trade: NotRequired[Trade]
    cost: NotRequired[ClassicCost]
    free: NotRequired[Free]
    naval: NotRequired[Naval]
    moves: NotRequired[Moves]


class ClassicWonder(Shape):
    """Tuck the card to build the wonder stage `stage`."""

    type: Literal["wonder"]
    card: Name
    stage: NotRequired[Annotated[int, Field(ge=1, le=MAX_STAGE)]]
    trade: NotRequired[Trade]
    cost: NotRequired[ClassicCost]
    free: NotRequired[Free]
    naval: NotRequired[Naval]
    moves: NotRequired[Moves]


class ClassicDiscard(Shape):
    """Discard the card for 3 coins (Armada: or move the yellow ship instead)."""

    type: Literal["discard"]
    card: Name
    reward: NotRequired[Literal["coins", "yellow"]]


class ClassicBuildFromDiscard(Shape):
    """Halikarnassos: build a card of the discard pile free."""

    type: Literal["build_from_discard"]
    card: Name
    moves: NotRequired[Moves]


class ClassicPass(Shape):
    """Halikarnassos: build nothing from the discard pile."""

    type: Literal["pass"]


class KeepIsland(Shape):
    """Armada: keep one of the islands drawn when exploring."""

    type: Literal["keep_island"]
    island: Name
    moves: NotRequired[Moves]


ClassicAction = Annotated[
    ClassicBuild | ClassicWonder | ClassicDiscard | ClassicBuildFromDiscard | ClassicPass | KeepIsland,
    Field(discriminator="type", description="an action of 7 Wonders (with Armada's fields when it plays)"),
]
CLASSIC_ACTIONS = ActionShapes(union=ClassicAction)
