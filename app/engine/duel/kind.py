"""7 Wonders Duel (2 players) in the registry of game kinds (app/engine/common/kinds.py)."""

from app.engine.common.kinds import GameKind, register
from app.engine.components.duel import duel_box
from app.engine.duel.action_shapes import DUEL_ACTIONS
from app.engine.duel.determinize import DuelInformation
from app.engine.duel.game import DuelGame

DUEL = register(
    GameKind(
        name="duel",
        title="7 Wonders Duel",
        players=(2, 2),
        make=DuelGame,
        information=DuelInformation,
        components=duel_box,
        actions=DUEL_ACTIONS,
        env="app.engine.env.duel:make_spec",
    )
)
