"""7 Wonders Duel (2 players) in the registry of game kinds (app/engine/common/kinds.py). Its rules
are named, not imported: they load with its first game."""

from app.engine.common.kinds import GameKind, Lazy, register
from app.engine.duel.action_shapes import DUEL_ACTIONS

DUEL = register(
    GameKind(
        name="duel",
        title="7 Wonders Duel",
        players=(2, 2),
        make=Lazy("app.engine.duel.game:DuelGame"),
        information=Lazy("app.engine.duel.determinize:DuelInformation"),
        components=Lazy("app.engine.components.duel:duel_box"),
        actions=DUEL_ACTIONS,
        env="app.engine.env.duel:make_spec",
    )
)
