"""Naval construction: the naval step a build or wonder stage may pay for with its card (one action,
one payment plan for the total), and the free ship moves of cards, stages and islands."""

from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any

from app.engine.classic.actions import FREE, NO_EXTRA, Extra, Payments
from app.engine.classic.armada.data import TRACKS, ShipMove, StepCost
from app.engine.classic.armada.fleet import TOP, discounted, naval_traits, ship_move_of, with_step
from app.engine.classic.checks import check_free, check_payment
from app.engine.classic.data import CardDef, StageDef
from app.engine.classic.move import Move
from app.engine.classic.player import Player
from app.engine.common.errors import IllegalAction

if TYPE_CHECKING:
    from app.engine.classic.armada.game import ArmadaGame

NAVAL: Extra = (("naval", True),)


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
    if isinstance(source, CardDef):
        return naval_traits(source)
    return game.armada.shipyards[game.fleets[p.seat].board].wonder_track, ship_move_of(source.effects)


def payment_variants(
    game: "ArmadaGame", p: Player, price: CardDef | StageDef | None, source: CardDef | StageDef
) -> Sequence[Payments]:
    """Every way to build it: without and with its naval step, each with every choice of ships
    (ArmadaGame's payment_variants hook)."""
    if type(source) is CardDef:
        track, spec = naval_traits(source)
    else:
        track, spec = game.armada.shipyards[game.fleets[p.seat].board].wonder_track, ship_move_of(source.effects)
    step = None if track is None else next_step(game, p.seat, track)
    if step is None and spec is None:  # no variant: the base game's ways to pay
        if price is None:
            return FREE
        return (Payments(price.coin_cost, game.ways_to_pay(p, price), NO_EXTRA),)
    out: list[Payments] = []
    cheapest = 0  # the least the build costs without its naval step
    for naval in (False, True) if step is not None else (False,):
        paid = with_step(price, step) if naval and step is not None else price
        if paid is None:
            ways: Sequence[Any] = (None,)
            bank = 0
        elif naval and cheapest + paid.coin_cost > p.coins:
            break  # the naval step on top cannot be cheaper than the build alone
        else:
            ways = game.ways_to_pay(p, paid)
            bank = paid.coin_cost
            if not ways:
                break
            cheapest = ways[0].total
        flag = NAVAL if naval else ()
        if spec is None:
            extras: tuple[Extra, ...] = (flag,)
        else:
            choices = move_choices(game, p.seat, spec, track if naval else None)
            extras = tuple([flag + (("moves", choice),) if choice else flag for choice in choices])
        out.append(Payments(bank, ways, extras))
    return out


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
