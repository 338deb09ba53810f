"""The rules engine: pure game logic usable as a library, with no server.

from app.engine import GameConfig, new_game, replay, replay_steps, IllegalAction

game = new_game(GameConfig(game="classic", players=4, seed=7))
while not game.is_over:
    for seat in game.to_act:
        game.apply(seat, game.legal_actions(seat)[0])
print(game.result())

game_kinds() lists the registered game kinds (7 Wonders with Armada, Duel) as plain data, and
game_kind(name) is one of them, with its action shapes (see app/engine/common/kinds.py).
describe_components() describes every card, wonder, island and token of the three games in words;
science_points(counts, wildcards) scores classic science (for bots that weigh a science card).
save_state(game) / load_state(data) keep a game's whole state as bytes and load it again (a cache
of its log, refused when another version of the engine saved it). clone() is perfect information;
information_set(view) / sample_game(views, rng) and game.determinize(seat, rng) give games
consistent with what one seat knows (for fair search).
"""

from collections.abc import Iterator
from typing import Any

import app.engine.classic.armada.kind
import app.engine.classic.kind
import app.engine.duel.kind  # noqa: F401  (the game kinds register themselves)
from app.engine.common.errors import IllegalAction
from app.engine.common.game import Action, Event, Game
from app.engine.common.information import InformationSet, information_set, sample_game
from app.engine.common.kinds import ActionShapes, GameKind, game_kind, game_kinds, new_game
from app.engine.common.science import science_points
from app.engine.common.state import StateMismatch, engine_fingerprint, load_state, save_state
from app.engine.common.warm import warm_up
from app.engine.components import describe_components
from app.engine.config import GameConfig

__all__ = [
    "Action",
    "ActionShapes",
    "Event",
    "Game",
    "GameConfig",
    "GameKind",
    "IllegalAction",
    "InformationSet",
    "StateMismatch",
    "describe_components",
    "engine_fingerprint",
    "game_kind",
    "game_kinds",
    "information_set",
    "load_state",
    "new_game",
    "replay",
    "replay_steps",
    "sample_game",
    "save_state",
    "science_points",
    "warm_up",
]


def replay(config: GameConfig, log: list[dict[str, Any]]) -> Game:
    """Rebuild a game from its config and action log (entries {"seat": s, "action": a})."""
    game = new_game(config)
    for _ in replay_steps(game, log):
        pass
    return game


def replay_steps(game: Game, log: list[dict[str, Any]]) -> Iterator[list[Event]]:
    """Apply logged steps ({"seat": s, "action": a}) to `game` in place, one at a time, yielding
    each step's events (what a history or a replay viewer shows of it)."""
    for entry in log:
        yield game.apply(entry["seat"], entry["action"])
