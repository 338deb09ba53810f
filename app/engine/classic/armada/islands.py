"""Exploration (step 4 of an Armada turn): the explorers of a level share its deck, each keeps one
island of those drawn (a decision, the phase EXPLORE), the rest go back and the deck is shuffled."""

from typing import TYPE_CHECKING, Any

from app.engine.classic.armada.effects import apply_effects
from app.engine.classic.armada.fleet import ship_move_of
from app.engine.classic.armada.naval import check_moves, move_choices
from app.engine.classic.armada.pending import Drawn
from app.engine.classic.turn import run_queue
from app.engine.common.errors import IllegalAction
from app.engine.common.game import Action, Event, check_keys

if TYPE_CHECKING:
    from app.engine.classic.armada.game import ArmadaGame

EXPLORE = "explore"


def step_explore(game: "ArmadaGame") -> list[Event]:
    """Deal the islands of this round's explorations; each explorer keeps one."""
    if not game.explorations:
        return []
    this_round: dict[int, tuple[int, int]] = {}
    later = []
    for exploration in game.explorations:
        seat, level, draw = exploration
        if seat in this_round:
            later.append(exploration)
        else:
            this_round[seat] = (level, draw)
    game.explorations = later
    events: list[Event] = []
    for level in (1, 2, 3):
        seats = sorted(s for s, (lv, _) in this_round.items() if lv == level)
        if not seats:
            continue
        deck = game.island_decks[level]
        share = len(deck) // len(seats)
        for seat in seats:
            draw = this_round[seat][1]
            count = min(draw, share) if share else (1 if deck else 0)
            game.offers[seat] = [deck.pop() for _ in range(count)]
            events.append({"type": "exploration", "seat": seat, "level": level, "drawn": count})
    for seat in sorted(game.offers):
        if not game.offers[seat]:
            del game.offers[seat]
        else:
            choices = keep_island_actions(game, seat)
            if len(choices) == 1:  # nothing to choose: kept at once
                events += keep_island(game, seat, game.offers[seat][0], tuple(choices[0].get("moves", ())))
    if game.offers:
        game.pending = set(game.offers)
        game.phase = EXPLORE
        events.append({"type": "decision", "kind": "keep_island", "seats": sorted(game.offers)})
    else:
        events += end_exploration(game)
    return events


def keep_island_actions(game: "ArmadaGame", seat: int) -> list[Action]:
    out: list[Action] = []
    for island_id in game.offers.get(seat, ()):
        island = game.armada.islands[island_id]
        for choice in move_choices(game, seat, ship_move_of(island.effects), None):
            action: Action = {"type": "keep_island", "island": island.name}
            if choice:
                action["moves"] = list(choice)
            out.append(action)
    return out


def apply_keep_island(game: "ArmadaGame", seat: int, action: dict[str, Any]) -> list[Event]:
    if action["type"] != "keep_island":
        raise IllegalAction("now keep one of the islands you drew: {'type': 'keep_island', 'island': name}")
    check_keys(action, {"island", "moves"})
    name = action.get("island")
    offered = game.offers[seat]
    island_id = next((i for i in offered if game.armada.islands[i].name == name), None)
    if island_id is None:
        names = [game.armada.islands[i].name for i in offered]
        raise IllegalAction(f"'{name}' is not among the islands you drew: {names}")
    spec = ship_move_of(game.armada.islands[island_id].effects)
    moves = check_moves(game, seat, spec, None, action.get("moves"))
    canonical: dict[str, Any] = {"type": "keep_island", "island": name}
    if moves:
        canonical["moves"] = list(moves)
    game.log.append({"seat": seat, "action": canonical})
    events = keep_island(game, seat, island_id, moves)
    game.pending.discard(seat)
    if not game.pending:
        events += end_exploration(game)
    return events + run_queue(game)


def keep_island(game: "ArmadaGame", seat: int, island_id: int, moves: tuple[str, ...]) -> list[Event]:
    island = game.armada.islands[island_id]
    game.offers[seat].remove(island_id)
    game._returned.extend(Drawn(island.level, i) for i in game.offers.pop(seat))
    game.fleets[seat].islands.append(island_id)
    p = game.players[seat]
    p.gain(island.effects)
    p.coins += island.effects.coins
    game.production_changed(seat, island.effects)
    apply_effects(game, seat, island.effects, moves)
    event: Event = {"type": "island_kept", "seat": seat, "island": island.name}
    if moves:
        event["moves"] = list(moves)
    return [event]


def end_exploration(game: "ArmadaGame") -> list[Event]:
    """The islands not kept go back and their decks are shuffled; explore again if a move asks."""
    for level in sorted({level for level, _ in game._returned}):
        deck = game.island_decks[level]
        deck.extend(i for lv, i in game._returned if lv == level)
        game.rng.shuffle(deck)
    game._returned = []
    game.pending = set()
    if game.explorations:
        game.queue.insert(0, "explore")
    return []


def island_decision(game: "ArmadaGame", seat: int) -> dict[str, Any]:
    return {"kind": "keep_island", "islands": [game.armada.islands[i].name for i in game.offers[seat]]}
