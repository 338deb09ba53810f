"""The classic game's and Armada's components: cards, wonders and their stages; Armada's islands,
ship spaces, shipyards, naval conflicts and landings."""

from collections.abc import Iterable
from typing import Any

from app.engine.classic.armada.data import TRACKS, armada_files
from app.engine.classic.data import SCIENCE_SYMBOLS, SIDES, CardModel, WonderModel, classic_files
from app.engine.components.entries import cost_entry, effect_entries, provisional, with_words


def _classic_cards(models: Iterable[CardModel], expansion: str | None) -> dict[str, dict[str, Any]]:
    """One entry per name; a name standing in several Ages (Loom, Glassworks, Press) lists them."""
    out: dict[str, dict[str, Any]] = {}
    for m in models:
        card = out.get(m.name)
        if card is None:
            out[m.name] = {
                "kind": "card",
                "name": m.name,
                "game": "classic",
                "color": m.color,
                "age": m.age,
                "ages": [m.age],
                "expansion": expansion,
                "cost": cost_entry(m.cost),
                "chain_from": list(m.chain_from),
                "chain_to": [],
                **with_words(m.effects, "classic"),
                **(provisional(m) if expansion else {}),
            }
            continue
        same = (card["color"], card["cost"], card["chain_from"], card["effects"])
        if same != (m.color, cost_entry(m.cost), list(m.chain_from), effect_entries(m.effects, "classic")):
            raise ValueError(f"'{m.name}' stands in several Ages with different colours, costs or effects")
        card["ages"] = sorted({*card["ages"], m.age})
        card["age"] = card["ages"][0]
    return out


def _wonder(m: WonderModel, expansion: str | None) -> dict[str, Any]:
    sides = {
        side: [
            {
                "kind": "stage",
                "wonder": m.name,
                "side": side,
                "stage": i,
                "cost": cost_entry(stage.cost),
                **with_words(stage.effects, "classic"),
            }
            for i, stage in enumerate(getattr(m, side), start=1)
        ]
        for side in SIDES
    }
    wonder = {
        "kind": "wonder",
        "name": m.name,
        "game": "classic",
        "expansion": expansion,
        "starting_resource": m.starting_resource,
        "any_order": m.any_order,
        "sides": sides,
    }
    return wonder | (provisional(m) if expansion else {})


def classic_box() -> dict[str, Any]:
    files = classic_files()
    return {
        "science_symbols": list(SCIENCE_SYMBOLS),
        "abilities": dict(files.abilities),
        "cards": _classic_cards((*files.cards, *files.guilds), None),
        "wonders": {w.name: _wonder(w, None) for w in files.wonders},
    }


def armada_box() -> dict[str, Any]:
    files = armada_files()
    spaces = files.file.space_effects
    return {
        "notice": files.file.provisional_notice,
        "cards": _classic_cards(files.cards, "armada"),
        "wonders": {w.name: _wonder(w, "armada") for w in files.wonders},
        "islands": {
            i.name: {
                "kind": "island",
                "name": i.name,
                "level": i.level,
                **with_words(i.effects, "classic"),
                **provisional(i),
            }
            for i in files.islands
        },
        "ship_tracks": list(TRACKS),
        "naval_conflicts": {
            "weakest": dict(files.file.naval_conflicts.weakest),
            "ranks": {age: list(rewards) for age, rewards in files.file.naval_conflicts.ranks.items()},
            "ties": files.file.naval_conflicts.ties,
        },
        "landing": {"targets": dict(files.file.landing.targets), "note": files.file.landing.note},
        "ship_spaces": {
            track: [
                {"kind": "ship_space", "track": track, "space": n, **with_words(effects, "classic")}
                for n, effects in enumerate(getattr(spaces, track), start=1)
            ]
            for track in TRACKS
        },
        "shipyards": {
            s.name: {
                "kind": "shipyard",
                "name": s.name,
                "wonder_track": s.wonder_track,
                "costs": {track: [cost_entry(c) for c in s.costs[track]] for track in TRACKS},
                **provisional(s),
            }
            for s in files.shipyards
        },
    }
