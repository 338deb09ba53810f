"""Each game kind's first game, made ahead of time.

A kind's rules are imported, and its data compiled, with its first game (the registry's `Lazy`), so
that importing the engine stays cheap. A server calls `warm_up()` as it starts, so that the first
game of each kind someone opens does not pay for them (about 50 ms for the three kinds together).
A kind's first saved state still walks its shared data once (about 25 ms; a server saves states in
a worker thread, and loading one does not need it).
"""

from app.engine.common.kinds import new_game, registered
from app.engine.config import GameConfig


def warm_up() -> list[str]:
    """Make a game of each registered kind, and of each expansion that brings its own rules, and take
    it through a step and its views; the names of those made ready."""
    ready = []
    for kind in registered():
        rules = [[]] + [[name] for name, expansion in kind.expansions.items() if expansion.make is not None]
        for expansions in rules:
            game = new_game(GameConfig(game=kind.name, expansions=expansions))
            seat = game.to_act[0]
            after, _ = game.successor(seat, game.legal_actions(seat)[0])
            after.public_view()
            after.own_view(seat)
            ready.append("+".join([kind.name, *expansions]))
    return ready
