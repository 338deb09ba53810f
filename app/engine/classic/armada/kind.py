"""Armada, an expansion of 7 Wonders, in the registry of game kinds (app/engine/common/kinds.py):
its games are ArmadaGames, seen through an ArmadaInformation, and its values are provisional."""

from app.engine.classic.armada.data import armada_data
from app.engine.classic.armada.determinize import ArmadaInformation
from app.engine.classic.armada.game import ArmadaGame
from app.engine.classic.kind import CLASSIC
from app.engine.common.kinds import Expansion, register_expansion
from app.engine.components.classic import armada_box

ARMADA = register_expansion(
    CLASSIC.name,
    Expansion(
        name="armada",
        title="Armada",
        components=armada_box,
        notices=lambda: (armada_data().notice,),
        make=ArmadaGame,
        information=ArmadaInformation,
    ),
)
