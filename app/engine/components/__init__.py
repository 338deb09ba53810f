"""The engine describes its own components: every card, wonder, island, ship space, shipyard and
progress token of 7 Wonders, Armada and 7 Wonders Duel, as JSON-able data with what each does in
words.

`words.py` is the one home of the effect vocabulary's words: `effect_text` is the only switch
over effect types that produces text, and every sentence (a card's, a stage's, an island's, ...)
is made from it. The data comes from the loaders' validated models (`classic_files`,
`armada_files`, `duel_files`: the same Pydantic models the engine compiles from, after the
compiled data passed every check), so an effect is described in the data file's own vocabulary.

    from app.engine import describe_components

    box = describe_components()
    box["classic"]["cards"]["Lumber Yard"]["text"]  # 'Produces 1 wood.'
"""

from functools import cache
from typing import Any

from app.engine.common.kinds import registered
from app.engine.common.resources import RESOURCES
from app.engine.components.entries import link_chains
from app.engine.components.words import cost_text, effect_text, effects_text

__all__ = ["cost_text", "describe_components", "effect_text", "effects_text"]


@cache
def describe_components() -> dict[str, Any]:
    """Every component of the registered game kinds and their expansions (each under its own name),
    built once from the engine's validated data. A kind's cards and its expansions' chain together.

    The result is shared by every caller (it is cached): read it, never mutate it; copy what you
    change. Its shape is documented in README.md ("The engine as a library")."""
    box: dict[str, Any] = {"resources": list(RESOURCES)}
    for kind in registered():
        parts = {kind.name: kind.components(), **{e.name: e.components() for e in kind.expansions.values()}}
        link_chains([card for part in parts.values() for card in part.get("cards", {}).values()])
        box.update(parts)
    return box
