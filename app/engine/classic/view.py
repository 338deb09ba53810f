"""What a seat (or a spectator) may see of a classic game, and the whole state for tests.

A view never holds another seat's hand or pick; the discard pile shows only its size."""

from typing import TYPE_CHECKING, Any

from app.engine.classic.move import Move
from app.engine.classic.phases import LAST_CARD, OVER, PICK
from app.engine.classic.player import LEFT, RIGHT, Player
from app.engine.classic.unplayable import hand_reasons
from app.engine.common.resources import RESOURCES, Choices, Vector, to_dict

if TYPE_CHECKING:
    from app.engine.classic.game import ClassicGame


def public_view(game: "ClassicGame") -> dict[str, Any]:
    """What every seat and spectator sees alike."""
    out: dict[str, Any] = {
        "game": "classic",
        "expansions": list(game.config.expansions),
        "version": game.version,
        "age": game.age,
        "turn": game.turn,
        "turns_per_age": game.turns_per_age,
        "phase": game.phase,
        "direction": "right" if game.age == 2 else "left",
        "to_act": game.to_act,
        "players": [public_player(game, p) for p in game.players],
        "discard_pile_size": len(game.discard),
    }
    game.view_variant(out)
    if game.phase == OVER:
        out["result"] = game.result()
    return out


def own_view(game: "ClassicGame", seat: int | None) -> dict[str, Any]:
    """What only this seat sees (a spectator, seat None: only that it has no seat and no hand)."""
    if seat is None:
        return {"seat": None, "hand": []}
    seat = game.check_seat(seat)
    pick = game.picks.get(seat)
    out: dict[str, Any] = {
        "seat": seat,
        "hand": [game.cards[c].name for c in game.hands[seat]],
        "pick": None if pick is None else own_move(game, seat, pick),
        "decision": decision(game, seat),
    }
    if game.phase == PICK or (game.phase == LAST_CARD and seat in game.pending):
        # why a card of the hand cannot be built, or the wonder (see unplayable.py)
        out["unplayable"], out["wonder_unplayable"] = hand_reasons(game, seat)
    return out


def public_player(game: "ClassicGame", p: Player) -> dict[str, Any]:
    science = p.science
    out = {
        "seat": p.seat,
        "wonder": p.wonder.name,
        "side": p.side,
        "coins": p.coins,
        "city": [game.cards[c].name for c in p.city],
        "stages_built": p.stages_built,
        "stages_total": len(p.stages),
        "built_stages": [i + 1 for i in p.built_stages],
        "military_tokens": list(p.tokens),
        "shields": p.shields,
        "science": {"compass": science[0], "gear": science[1], "tablet": science[2], "any": science[3]},
        "has_chosen": p.seat in game.picks,
        "hand_size": len(game.hands[p.seat]),
        "left": game.left_of(p.seat),
        "right": game.right_of(p.seat),
        "production": production(p.fixed, p.choices),
        "sells": production(p.trade_fixed, p.trade_choices),
        "prices": {"left": price_list(p.prices[LEFT]), "right": price_list(p.prices[RIGHT])},
    }
    game.player_variant(p, out)
    return out


def production(fixed: Vector, choices: Choices) -> dict[str, Any]:
    """What a city produces each turn: fixed units, and one unit of each choice's resources."""
    return {
        "resources": {**_named(_RESOURCES, fixed, to_dict)},
        "choices": [[*c] for c in _named(_CHOICES, choices, choice_names)],
    }


def price_list(prices: Vector) -> dict[str, int]:
    """What one unit of each resource costs from one neighbour."""
    return {**_named(_PRICES, prices, resource_prices)}


def resource_prices(prices: Vector) -> dict[str, int]:
    return dict(zip(RESOURCES, prices, strict=True))


def choice_names(choices: Choices) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(RESOURCES[i] for i in choice) for choice in choices)


# The names of resource vectors, prices and choice cards, kept per value: a view is made for every
# seat at every step (the server renders one per seat and version), while cities change only now and
# then. Every view gets copies of its own.
_RESOURCES: dict[Vector, dict[str, int]] = {}
_PRICES: dict[Vector, dict[str, int]] = {}
_CHOICES: dict[Choices, tuple[tuple[str, ...], ...]] = {}
NAMES_KEPT = 4096  # per table; a full table starts again


def _named(table: dict[Any, Any], value: Any, name: Any) -> Any:
    found = table.get(value)
    if found is None:
        if len(table) >= NAMES_KEPT:
            table.clear()
        found = table[value] = name(value)
    return found


def own_move(game: "ClassicGame", seat: int, move: Move) -> dict[str, Any]:
    out = move.public(seat, game.cards[move.card].name)
    out["card"] = game.cards[move.card].name
    return out


def decision(game: "ClassicGame", seat: int) -> dict[str, Any] | None:
    if game.phase == PICK:
        return {"kind": "pick", "pending": seat not in game.picks}
    if seat not in game.pending:
        return None
    if game.phase == LAST_CARD:
        return {"kind": "last_card"}
    variant = game.decision_view(seat)
    if variant is not None:
        return variant
    return {"kind": "build_from_discard", "options": [a["card"] for a in game.legal_actions(seat) if "card" in a]}


def snapshot(game: "ClassicGame") -> dict[str, Any]:
    out = {
        "config": game.config.model_dump(),
        "age": game.age,
        "turn": game.turn,
        "phase": game.phase,
        "cards": [c.name for c in game.cards],
        "decks": {str(a): list(d) for a, d in game.decks.items()},
        "hands": [list(h) for h in game.hands],
        "discard": list(game.discard),
        "picks": {str(s): own_move(game, s, m) for s, m in sorted(game.picks.items())},
        "pending": sorted(game.pending),
        "queue": list(game.queue),
        "players": [
            {
                "wonder": p.wonder.name,
                "side": p.side,
                "coins": p.coins,
                "city": list(p.city),
                "tucked": list(p.tucked),
                "stages": list(p.built_stages),
                "tokens": list(p.tokens),
                "shields": p.shields,
                "science": list(p.science),
                "fixed": list(p.fixed),
                "choices": [list(c) for c in p.choices],
                "prices": [list(v) for v in p.prices],
                "abilities": sorted(p.abilities),
            }
            for p in game.players
        ],
    }
    game.snapshot_variant(out)
    return out
