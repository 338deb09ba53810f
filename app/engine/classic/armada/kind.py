"""Armada, an expansion of 7 Wonders, in the registry of game kinds (app/engine/common/kinds.py):
its games are ArmadaGames, seen through an ArmadaInformation, and its values are provisional. Its
rules are named, not imported: they load with its first game."""

from app.engine.classic.kind import CLASSIC
from app.engine.common.kinds import Expansion, Lazy, register_expansion


def notices() -> tuple[str, ...]:
    from app.engine.classic.armada.data import armada_data

    return (armada_data().notice,)


ARMADA = register_expansion(
    CLASSIC.name,
    Expansion(
        name="armada",
        title="Armada",
        components=Lazy("app.engine.components.classic:armada_box"),
        notices=notices,
        make=Lazy("app.engine.classic.armada.game:ArmadaGame"),
        information=Lazy("app.engine.classic.armada.determinize:ArmadaInformation"),
    ),
)
