"""Turns and Ages: after an action, the next pending decision, another turn (or the same seat
again), the end of an Age and who starts the next, and the end of the game."""

from typing import TYPE_CHECKING

from app.engine.common.game import Event
from app.engine.duel.definitions import AGES
from app.engine.duel.phases import CHOOSE_STARTER, OVER, PLAY
from app.engine.duel.structure import Structure

if TYPE_CHECKING:
    from app.engine.duel.game import DuelGame


def win(game: "DuelGame", seat: int, victory: str) -> list[Event]:
    game.phase = OVER
    game.actor = None
    game.pending.clear()
    game.play_again = False
    game.winners = [seat]
    game.victory = victory
    game._result = None
    return [{"type": "game_over", "victory": victory, "winners": [seat], "result": game.result()}]


def finish(game: "DuelGame") -> list[Event]:
    """After an action: the next pending decision, the end of the Age, another turn or the other seat."""
    if game.phase == OVER:
        return []
    if game.pending:
        game.phase = game.pending[0]
        game.actor = game.current
        return [{"type": "decision", "kind": game.phase, "seat": game.current}]
    assert game.structure is not None
    if not game.structure.open:  # the Age's last card is taken
        return end_age(game)
    events: list[Event] = []
    if game.play_again:
        game.play_again = False
        events.append({"type": "play_again", "seat": game.current})
    else:
        game.current = 1 - game.current
    game.phase = PLAY
    game.actor = game.current
    return events


def end_age(game: "DuelGame") -> list[Event]:
    game.play_again = False  # lost at the end of an Age (see board.json doubts)
    events: list[Event] = [{"type": "age_over", "age": game.age}]
    if game.age == AGES[-1]:
        game.phase = OVER
        game.actor = None
        game.victory = "civilian"
        game._result = None
        result = game.result()
        game.winners = list(result["winners"])
        return events + [{"type": "game_over", "victory": "civilian", "winners": game.winners, "result": result}]
    weaker = game.military.weaker()
    game.actor = game.current if weaker is None else weaker
    game.phase = CHOOSE_STARTER
    return events + [{"type": "decision", "kind": CHOOSE_STARTER, "seat": game.actor}]


def start_age(game: "DuelGame", age: int, starter: int) -> list[Event]:
    game.age = age
    game.structure = Structure(age, game.data.layouts[age], game.decks.pop(age))
    game.current = starter
    game.actor = starter
    game.phase = PLAY
    return [{"type": "age_started", "age": age, "starter": starter}]
