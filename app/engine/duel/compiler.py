"""Compiling validated Duel models into definitions: costs, effects, structure layouts and the
military track, each refused with an error naming the file and the entry."""

from pathlib import Path
from typing import Any

from app.engine.common import data as d
from app.engine.common.resources import INDEX, ZERO, Vector, add, choice_indices, vector
from app.engine.duel.definitions import Effects, Slot, Track
from app.engine.duel.models import (
    ABILITIES,
    DUEL_RESOURCES,
    CoinsOnChain,
    CostReduction,
    Destroy,
    ExtraShields,
    FixedPrice,
    Guild,
    OpponentLosesCoins,
    ProgressFromBox,
    StructureModel,
    TrackModel,
    VpPerProgressToken,
)


def compile_cost(cost: dict[str, int], where: str) -> tuple[Vector, int]:
    resources = {k: v for k, v in cost.items() if k != "coins"}
    _check_resources(resources, where)
    return vector(resources), cost.get("coins", 0)


def _check_resources(names: Any, where: str) -> None:
    for name in names:
        if name not in DUEL_RESOURCES:
            raise d.DataError(f"{where}: '{name}' is not a Duel resource; Duel uses {list(DUEL_RESOURCES)}")


def compile_effects(effects: list, where: str, symbols: tuple[str, ...]) -> Effects:
    out: dict[str, Any] = {"vp": 0, "shields": 0, "coins": 0, "opponent_loses": 0, "box_draw": 0}
    out |= {"vp_per_token": 0, "coins_on_chain": 0, "science": None, "guild": None, "destroy": None}
    produce, trade_produce = ZERO, ZERO
    lists: dict[str, list] = {k: [] for k in ("choices", "coins_per", "fixed_prices", "reductions", "extra_shields")}
    abilities: set[str] = set()
    for e in effects:
        match e:
            case d.Produce():
                _check_resources(e.resources, where)
                produce = add(produce, vector(e.resources))
                if e.tradable:
                    trade_produce = add(trade_produce, vector(e.resources))
            case d.ProduceOneOf():
                _check_resources(e.options, where)
                if e.tradable:
                    raise d.DataError(f"{where}: in Duel, choice production never raises the opponent's prices")
                lists["choices"].append(choice_indices(e.options))
            case d.VictoryPoints() | d.Shields() | d.Coins():
                out[{"vp": "vp", "shields": "shields", "coins": "coins"}[e.type]] += e.amount
            case d.Science():
                if e.symbol not in symbols:
                    raise d.DataError(f"{where}: unknown science symbol '{e.symbol}'; symbols: {list(symbols)}")
                out["science"] = e.symbol
            case d.PerCount():
                _check_per_count(e, where)
                lists["coins_per"].append(e)
            case d.Ability():
                if e.ability not in ABILITIES:
                    raise d.DataError(f"{where}: unknown ability '{e.ability}'; abilities: {sorted(ABILITIES)}")
                abilities.add(e.ability)
            case FixedPrice():
                _check_resources(e.resources, where)
                lists["fixed_prices"].extend((INDEX[r], e.price) for r in e.resources)
            case Guild():
                if (e.what == "card") != bool(e.colors):
                    raise d.DataError(f"{where}: a guild lists colours exactly when it counts cards")
                out["guild"] = e
            case Destroy():
                out["destroy"] = e.color
            case OpponentLosesCoins():
                out["opponent_loses"] += e.amount
            case ProgressFromBox():
                out["box_draw"] = e.draw
            case CostReduction():
                lists["reductions"].append((e.applies_to, e.amount))
            case VpPerProgressToken():
                out["vp_per_token"] += e.amount
            case ExtraShields():
                lists["extra_shields"].extend((color, e.amount) for color in e.colors)
            case CoinsOnChain():
                out["coins_on_chain"] += e.amount
    economic = produce != ZERO or any(lists[k] for k in ("choices", "fixed_prices", "reductions"))
    is_token = bool(lists["reductions"] or lists["extra_shields"] or out["coins_on_chain"] or abilities)
    return Effects(
        produce=produce,
        trade_produce=trade_produce,
        abilities=frozenset(abilities),
        economic=economic,
        raises_prices=trade_produce != ZERO,
        is_token=is_token,
        **{k: tuple(v) for k, v in lists.items()},
        **out,
    )


def _check_per_count(e: d.PerCount, where: str) -> None:
    if e.type != "coins_per" or e.whose != ["self"]:
        raise d.DataError(f"{where}: in Duel, 'coins_per' counts the owner's city only (whose: ['self'])")
    if e.what == "military_defeat_token":
        raise d.DataError(f"{where}: Duel has no military defeat tokens")
    if (e.what == "card") != bool(e.colors):
        raise d.DataError(f"{where}: 'coins_per' lists colours exactly when it counts cards")


def compile_layout(path: Path, age: int, model: StructureModel) -> tuple[Slot, ...]:
    cells = [(r, c, row.face_up) for r, row in enumerate(model.rows) for c in row.cols]
    if len({(r, c) for r, c, _ in cells}) != len(cells):
        raise d.DataError(f"{path}: structure {age}: two slots share a row and column")
    slots = []
    for i, (r, c, up) in enumerate(cells):
        covered_by = tuple(j for j, (r2, c2, _) in enumerate(cells) if r2 == r + 1 and abs(c2 - c) == 1)
        covers = tuple(j for j, (r2, c2, _) in enumerate(cells) if r2 == r - 1 and abs(c2 - c) == 1)
        slots.append(Slot(i, r, c, up, covered_by, covers))
    if not any(not s.covered_by and s.face_up for s in slots):
        raise d.DataError(f"{path}: structure {age}: no card is accessible at the start")
    if any(not s.covered_by and not s.face_up for s in slots):
        raise d.DataError(f"{path}: structure {age}: a card nothing covers must be face up")
    return tuple(slots)


def compile_track(path: Path, model: TrackModel) -> Track:
    for zone in (*model.vp_zones, *model.loot_tokens):
        if not zone.start <= zone.end < model.capital:
            raise d.DataError(f"{path}: military_track zone {zone.start}-{zone.end} must lie before the capital")
    vp = tuple((z.start, z.end, z.vp) for z in model.vp_zones)
    return Track(model.capital, vp, tuple((z.start, z.coins) for z in model.loot_tokens))
