"""7 Wonders (3-7 players) in the registry of game kinds (app/engine/common/kinds.py)."""

from app.engine.classic.action_shapes import CLASSIC_ACTIONS
from app.engine.classic.determinize import ClassicInformation
from app.engine.classic.game import ClassicGame
from app.engine.common.kinds import GameKind, register
from app.engine.components.classic import classic_box

CLASSIC = register(
    GameKind(
        name="classic",
        title="7 Wonders",
        players=(3, 7),
        make=ClassicGame,
        information=ClassicInformation,
        components=classic_box,
        actions=CLASSIC_ACTIONS,
        env="app.engine.env.classic:make_spec",
        assigns_wonders=True,
        wonder_sides=True,
    )
)
