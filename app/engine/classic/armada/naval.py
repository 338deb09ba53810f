"""Naval construction: the naval step a build or wonder stage may pay for with its card (one action,
one payment plan for the total), and the free ship moves of cards, stages and islands."""

from collections.abc import Callable, Sequence
from functools import partial
from itertools import combinations
from typing import TYPE_CHECKING, Any

from app.engine.classic.actions import FREE, NO_EXTRA, Extra, Payments
from app.engine.classic.armada.data import TRACKS, ShipMove, StepCost
from app.engine.classic.armada.fleet import (
    TOP,
    WONDER_TRACK,
    discounted,
    naval_traits,
    with_step,
)
from app.engine.classic.checks import check_free, check_payment
from app.engine.classic.data import CardDef, StageDef
from app.engine.classic.move import Move
from app.engine.classic.player import Player
from app.engine.common.errors import IllegalAction

if TYPE_CHECKING:
    from app.engine.classic.armada.game import ArmadaGame

NAVAL: Extra = (("naval", True),)
NAVALS: tuple[Extra, ...] = (NAVAL,)
# Payments(bank, ways, extras) without the namedtuple's Python-level __new__, several times dearer
# than the tuple itself on the listing's hot path
new_payments: Callable[[tuple[int, Sequence[Any], tuple[Extra, ...]]], Payments] = partial(tuple.__new__, Payments)


def naval_track(game: "ArmadaGame", p: Player, kind: str, color: str | None) -> str | None:
    """The track a build of this kind may advance: the card's colour, or the wonder symbol's."""
    if kind == "wonder":
        return game.armada.shipyards[game.fleets[p.seat].board].wonder_track
    return color if color in TRACKS else None


def next_step(game: "ArmadaGame", seat: int, track: str) -> StepCost | None:
    """The price of moving this ship one space up now (None at the top)."""
    fleet = game.fleets[seat]
    position = fleet.ships[track]
    if position >= TOP:
        return None
    step = game.armada.shipyards[fleet.board].costs[track][position]
    return discounted(step) if "naval_discount" in fleet.flags else step


def move_choices(game: "ArmadaGame", seat: int, spec: ShipMove | None, after: str | None) -> list[tuple[str, ...]]:
    """Every choice of ships for a free ship move, after a naval step on `after`."""
    if spec is None:
        return [()]
    ships = dict(game.fleets[seat].ships)
    if after is not None:
        ships[after] += 1
    open_tracks = [t for t in (spec.tracks or TRACKS) if ships[t] < TOP]
    return list(combinations(open_tracks, min(spec.count, len(open_tracks))))


def check_moves(game: "ArmadaGame", seat: int, spec: ShipMove | None, after: str | None, given: Any) -> tuple[str, ...]:
    choices = move_choices(game, seat, spec, after)
    if spec is None:
        if given not in (None, []):
            raise IllegalAction("this card or stage moves no ship: leave out 'moves'")
        return ()
    if given is None and choices == [()]:
        return ()
    if not isinstance(given, list) or not all(isinstance(t, str) for t in given):
        raise IllegalAction(f"'moves' must list the ships to move, one of {[list(c) for c in choices]}")
    wanted = tuple(sorted(given, key=lambda t: TRACKS.index(t) if t in TRACKS else 9))
    if wanted not in choices:
        raise IllegalAction(f"cannot move the ships {given}; choose one of {[list(c) for c in choices]}")
    return wanted


def traits(game: "ArmadaGame", p: Player, source: CardDef | StageDef) -> tuple[str | None, ShipMove | None]:
    """The track a naval step with this card or stage advances, and its free ship move."""
    _, track, spec = naval_traits(source)
    if track is WONDER_TRACK:
        track = game.armada.shipyards[game.fleets[p.seat].board].wonder_track
    return track, spec


def payment_variants(
    game: "ArmadaGame", p: Player, price: CardDef | StageDef | None, source: CardDef | StageDef
) -> Sequence[Payments]:
    """Every way to build it: without and with its naval step, each with every choice of ships
    (ArmadaGame's payment_variants hook). The listing's hot path: most builds have no free ship
    move, and half of them cannot be paid at all (then nor can their naval step)."""
    if price is None:
        plain: Payments = FREE[0]
    else:
        ways = game.ways_to_pay(p, price)
        if not ways:
            return ()
        plain = new_payments((price.coin_cost, ways, NO_EXTRA))
    track, spec = traits(game, p, source)
    step = None if track is None else next_step(game, p.seat, track)
    naval = None if step is None else naval_payments(game, p, plain, price, step)
    if spec is not None:
        return with_ship_moves(game, p.seat, spec, plain, naval=naval, track=track)
    if naval is None:
        return (plain,)
    return (plain, naval)


def naval_payments(
    game: "ArmadaGame", p: Player, plain: Payments, price: CardDef | StageDef | None, step: StepCost
) -> Payments | None:
    """The ways to build it with its naval step (None: none can be paid)."""
    paid = with_step(price, step)
    cheapest = plain.ways[0].total if price is not None else 0  # the least the build alone costs
    if cheapest + paid.coin_cost > p.coins:
        return None  # the naval step on top cannot be cheaper than the build alone
    ways = game.ways_to_pay(p, paid)
    return new_payments((paid.coin_cost, ways, NAVALS)) if ways else None


def with_ship_moves(
    game: "ArmadaGame", seat: int, spec: ShipMove, plain: Payments, *, naval: Payments | None, track: str | None
) -> list[Payments]:
    """A build or stage with a free ship move: every choice of ships, without and with the step."""
    out = [plain._replace(extras=moves_extras((), move_choices(game, seat, spec, None)))]
    if naval is not None:
        out.append(naval._replace(extras=moves_extras(NAVAL, move_choices(game, seat, spec, track))))
    return out


def moves_extras(flag: Extra, choices: list[tuple[str, ...]]) -> tuple[Extra, ...]:
    return tuple([flag + (("moves", choice),) if choice else flag for choice in choices])


def parse_priced(game: "ArmadaGame", p: Player, move: Move, price: Any, action: dict[str, Any], *, what: str) -> Move:
    """A build or stage with its naval step (if asked) and ship moves, paid with one plan."""
    if "reward" in action:
        raise IllegalAction("'reward' belongs to a discard (coins or the yellow ship), not to a build or stage")
    naval = action.get("naval", False)
    if not isinstance(naval, bool):
        raise IllegalAction(f"'naval' must be true or false, not {naval!r}")
    card = game.cards[move.card]
    source = card if move.kind == "build" else p.stages[move.stage]  # type: ignore[index]
    _, spec = traits(game, p, source)
    track = naval_track(game, p, move.kind, card.color)
    if naval:
        step = None if track is None else next_step(game, p.seat, track)
        if step is None:
            where = "no ship track" if track is None else f"your {track} ship is at the top"
            raise IllegalAction(f"no naval construction with this {move.kind}: {where}")
        price = with_step(price, step)
        what += f" with the {track} naval step"
    moves = check_moves(game, p.seat, spec, track if naval else None, action.get("moves"))
    sides = move.sides
    if price is None:
        check_free(action, move.free or "", card.name, sides)
        move.coins = (0,) * len(sides)
    else:
        move.bank, move.coins, move.trade = check_payment(game, p, action, price, what)
    move.naval, move.moves = naval, moves  # type: ignore[attr-defined]
    return move
