"""7 Wonders (3-7 players) in the registry of game kinds (app/engine/common/kinds.py). Its rules are
named, not imported: they load with its first game."""

from app.engine.classic.action_shapes import CLASSIC_ACTIONS
from app.engine.common.kinds import GameKind, Lazy, register

CLASSIC = register(
    GameKind(
        name="classic",
        title="7 Wonders",
        players=(3, 7),
        make=Lazy("app.engine.classic.game:ClassicGame"),
        information=Lazy("app.engine.classic.determinize:ClassicInformation"),
        components=Lazy("app.engine.components.classic:classic_box"),
        actions=CLASSIC_ACTIONS,
        env="app.engine.env.classic:make_spec",
        assigns_wonders=True,
        wonder_sides=True,
    )
)
