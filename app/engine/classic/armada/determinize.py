"""Armada's part of what one seat knows (see app.engine.classic.determinize): the fleets and the
islands kept are public; the Armada cards not seen, the island decks, the islands other
explorers drew and the later shuffles of the decks are drawn again."""

import random
from typing import TYPE_CHECKING

from app.engine.classic.armada.data import CoinsPerShipMove, FarTrade, Flag
from app.engine.classic.armada.fleet import Fleet
from app.engine.classic.armada.islands import EXPLORE
from app.engine.classic.armada.pending import Drawn, LandingConflict
from app.engine.classic.data import CardDef, Effects
from app.engine.classic.determinize import ClassicInformation
from app.engine.common.information import View

if TYPE_CHECKING:
    from app.engine.classic.armada.game import ArmadaGame
    from app.engine.classic.game import ClassicGame

LEVELS = (1, 2, 3)


class ArmadaInformation(ClassicInformation):
    def optional_groups(self, game: "ClassicGame") -> list[tuple[int, tuple[CardDef, ...], int]]:
        groups = super().optional_groups(game)
        armada = game.armada  # type: ignore[attr-defined]
        for age in LEVELS:
            pool = tuple(
                c for c in armada.cards if c.age == age and not (game.n == 3 and c.name in armada.not_at_three)
            )
            groups.append((age, pool, min(game.n, len(pool))))
        return groups

    def rebuild_variant(self, game: "ArmadaGame", view: View) -> None:  # type: ignore[override]
        armada = game.armada
        boards = {b.name: i for i, b in enumerate(armada.shipyards)}
        islands = {island.name: i for i, island in enumerate(armada.islands)}
        game.fleets = []
        for seat, pv in enumerate(view["players"]):
            yard = pv["shipyard"]
            fleet = Fleet(boards[yard["board"]])
            fleet.ships = dict(yard["ships"])
            fleet.naval = yard["naval_strength"]
            fleet.commerce = yard["commercial_level"]
            fleet.islands = [islands[name] for name in yard["islands"]]
            fleet.naval_tokens = list(yard["naval_tokens"])
            p = game.players[seat]
            for island in fleet.islands:
                p.gain(armada.islands[island].effects)
            sources: list[Effects] = [game.cards[c].effects for c in p.city]
            sources += [p.stages[i].effects for i in p.built_stages]
            sources += [armada.islands[i].effects for i in fleet.islands]
            sources += [armada.spaces[track][i] for track, at in fleet.ships.items() for i in range(at)]
            for effects in sources:
                for e in effects.extra:
                    if isinstance(e, FarTrade):
                        fleet.far.append(e)
                    elif isinstance(e, CoinsPerShipMove):
                        fleet.coins_per_move += e.amount
                    elif isinstance(e, Flag):
                        fleet.flags.add(e.type)
            game.fleets.append(fleet)
        game.landings = [LandingConflict(x["owner"], x["target"]) for x in view["armada"]["landings"]]
        game.explorations, game.coin_losses, game._returned = [], [], []
        game.offers = {}
        decision = view.get("decision") or {}
        if decision.get("kind") == "keep_island":
            game.offers[self.seat] = [islands[name] for name in decision["islands"]]
        if view["phase"] == EXPLORE:
            level = armada.islands[game.offers[self.seat][0]].level if self.seat in game.offers else 1
            for seat in view["to_act"]:
                if seat != self.seat:
                    game.offers[seat] = [-level]  # a draw of that level: its island is drawn in resample
        game.island_decks = {level: [-1] * view["armada"]["island_decks"][str(level)] for level in LEVELS}

    def resample_variant(self, game: "ArmadaGame", rng: random.Random) -> None:  # type: ignore[override]
        armada = game.armada
        placed = {i for fleet in game.fleets for i in fleet.islands}
        placed.update(game.offers.get(self.seat, ()))
        unseen = {level: [] for level in LEVELS}  # type: dict[int, list[int]]
        for i, island in enumerate(armada.islands):
            if i not in placed:
                unseen[island.level].append(i)
        for level in LEVELS:
            rng.shuffle(unseen[level])
        for seat, offer in sorted(game.offers.items()):
            if seat == self.seat:
                continue
            levels = [-i if i < 0 else armada.islands[i].level for i in offer]
            game.offers[seat] = [unseen[lv].pop() for lv in levels if unseen[lv]]
        returned = []
        for level in LEVELS:
            size = len(game.island_decks.get(level, ()))
            game.island_decks[level] = unseen[level][:size]
            returned += [Drawn(level, i) for i in unseen[level][size:]]
        game._returned = returned if game.phase == EXPLORE else []
        game.rng = random.Random(rng.random())
