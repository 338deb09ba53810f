"""What one seat knows of a 7 Wonders Duel game, and games drawn from it (see
app.engine.common.information).

Public: the structure's face-up cards and the backs of the others, the cities, the discard
pile, the Wonders drafted and offered, the progress tokens on the board and in the cities, the
military track. A seat also remembers every card it saw face up (a card taken for a Wonder
stays known), the Wonders it saw offered and the box tokens it was shown. Drawn again: the
face-down cards (by their back), the later Ages' decks, the cards set aside at setup, the
unseen guilds, the tokens in the box (and those drawn for the opponent's Great Library), the
Wonders not yet offered, and the cards under Wonders that this seat never saw.
"""

import random
from typing import TYPE_CHECKING

from app.engine.common.information import UNKNOWN_STEP, InformationSet, View
from app.engine.common.kinds import new_game
from app.engine.config import GameConfig
from app.engine.duel.data import AGES
from app.engine.duel.phases import BOX_TOKEN, DESTROY, DRAFT, OVER
from app.engine.duel.player import DuelPlayer
from app.engine.duel.structure import Structure

if TYPE_CHECKING:
    from app.engine.duel.game import DuelGame

DECISION_PHASES = frozenset({"choose_progress", DESTROY, "build_from_discard", BOX_TOKEN, "choose_starter"})


class DuelInformation(InformationSet):
    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.previous: View | None = None
        self.cards_seen: set[str] = set()
        self.wonders_seen: set[str] = set()
        self.tokens_seen: set[str] = set()

    def learn(self, view: View) -> None:
        self.previous = self.last
        for slot in view["structure"]:
            if "card" in slot:
                self.cards_seen.add(slot["card"])
        self.cards_seen.update(view["discard"])
        for p in view["players"]:
            self.cards_seen.update(p["city"])
            self.wonders_seen.update(w["name"] for w in p["wonders"])
            self.tokens_seen.update(p["progress_tokens"])
        self.tokens_seen.update(view["progress_tokens_board"])
        if view["draft"]:
            self.wonders_seen.update(view["draft"]["offer"])
        decision = view.get("decision") or {}
        if decision.get("kind") == BOX_TOKEN and decision.get("seat") == self.seat:
            self.tokens_seen.update(decision.get("options", ()))

    # ----- rebuilding the public state --------------------------------------------------------------

    def rebuild(self, view: View, rng: random.Random) -> "DuelGame":
        game: DuelGame = new_game(GameConfig(game="duel", seed=rng.randrange(2**32)))  # type: ignore[assignment]
        data = game.data
        card = {c.name: c for c in data.cards}
        wonder = {w.name: w for w in data.wonders}
        token = {t.name: t for t in data.tokens}
        game.players = []
        for pv in view["players"]:
            p = DuelPlayer(pv["seat"], pv["coins"])
            for name in pv["city"]:
                p.add_card(card[name])
            for w in pv["wonders"]:
                p.wonders.append(wonder[w["name"]].id)
                if w["built"]:
                    p.built[wonder[w["name"]].id] = -1
                    p.gain_production(wonder[w["name"]].effects)
                else:
                    p.unbuilt.append(wonder[w["name"]].id)
            for name in pv["progress_tokens"]:
                p.tokens.append(token[name].id)
                p.gain(token[name].effects)
            p.choices = tuple(tuple(sorted(_index(r) for r in options)) for options in pv["choices"])
            game.players.append(p)
        game.military.pawn = view["conflict_pawn"]
        game.military.loot = [(t["seat"], t["from"], t["coins"]) for t in view["military_tokens"]]
        game.age = view["age"]
        game.structure = _structure(game, view) if view["structure"] else None
        game.board_tokens = [token[name].id for name in view["progress_tokens_board"]]
        game.discard = [card[name].id for name in view["discard"]]
        game.first, game.current = view["first_player"], view["current"]
        game.actor = view["to_act"][0] if view["to_act"] else None
        game.phase = view["phase"]
        game.pending = [view["phase"]] if view["phase"] in DECISION_PHASES and view["phase"] != "choose_starter" else []
        game.wonders_total, game.max_wonders = view["wonders_built"], view["max_wonders"]
        game.play_again = self._plays_again(game, view)
        game.destroy_color = self._destroy_color(game, view) if view["phase"] == DESTROY else None
        game.box_offer = []
        decision = view.get("decision") or {}
        if view["phase"] == BOX_TOKEN and decision.get("seat") == self.seat:
            game.box_offer = [token[name].id for name in decision["options"]]
        draft = view["draft"]
        if draft:
            game.draft_order = list(draft["order"])
            game.draft_step = draft["pick"]
            game.draft_offer = [wonder[name].id for name in draft["offer"]]
        else:
            game.draft_step = len(game.draft_order)
            game.draft_offer = []
        if view["phase"] == OVER and "result" in view:
            game.winners = list(view["result"].get("winners", []))
            game.victory = view["result"].get("victory")
        game.log = [UNKNOWN_STEP] * view["version"]
        game.cost_cache = [None, None]
        game._result = None
        return game

    def _plays_again(self, game: "DuelGame", view: View) -> bool:
        """Mid-turn, whether the seat taking its turn plays again: the Wonder it just built says so."""
        if view["phase"] not in DECISION_PHASES or self.previous is None or view["phase"] == "choose_starter":
            return False
        seat = view["current"]
        before = {w["name"] for w in self.previous["players"][seat]["wonders"] if w["built"]}
        new = [w["name"] for w in view["players"][seat]["wonders"] if w["built"] and w["name"] not in before]
        p = game.players[seat]
        wonders = {w.name: w for w in game.data.wonders}
        return any("play_again" in wonders[n].effects.abilities or "wonders_play_again" in p.abilities for n in new)

    def _destroy_color(self, game: "DuelGame", view: View) -> str | None:
        decision = view.get("decision") or {}
        cards = {c.name: c for c in game.data.cards}
        if decision.get("options"):
            return cards[decision["options"][0]].color
        seat = view["current"]
        opponent = game.players[1 - seat]
        for w in game.players[seat].built:
            color = game.data.wonders[w].effects.destroy
            if color and opponent.colors.get(color):
                return color
        return None

    # ----- drawing the hidden parts -----------------------------------------------------------------

    def resample(self, game: "DuelGame", rng: random.Random, rebuilt: bool) -> None:  # type: ignore[override]
        view = self.last
        assert view is not None
        data = game.data
        by_name = {c.name: c.id for c in data.cards}
        seen = {by_name[n] for n in self.cards_seen}
        s = game.structure
        if s is not None:
            seen.update(c for i, c in enumerate(s.cards) if c is not None and c >= 0 and s.up[i])
        age = view["age"]
        unseen = {a: [c for c in data.age_ids[a] if c not in seen] for a in AGES}
        guilds = [c for c in data.guild_ids if c not in seen]
        for pile in (*unseen.values(), guilds):
            rng.shuffle(pile)
        if s is not None:  # the face-down cards, by their back
            for i, c in enumerate(s.cards):
                if c is not None and not s.up[i]:
                    back = view["structure"][i].get("back")
                    s.cards[i] = (guilds if back == "guild" else unseen[s.age]).pop()
        for later in AGES:
            if later <= age:
                game.decks.pop(later, None)
                continue
            deck = unseen[later][: len(data.layouts[later]) - (data.setup.guilds_in_age_3 if later == 3 else 0)]
            del unseen[later][: len(deck)]
            if later == 3:
                deck += guilds[: data.setup.guilds_in_age_3]
                del guilds[: data.setup.guilds_in_age_3]
                rng.shuffle(deck)
            game.decks[later] = deck
        spare = [c for a in AGES if a <= age for c in unseen[a]]
        rng.shuffle(spare)
        kept = set() if rebuilt else {u for p in game.players for u in p.built.values() if u in seen}
        taken_unseen = sorted(
            by_name[n] for n in self.cards_seen if by_name[n] not in kept and not _located(game, by_name[n])
        )
        for p in game.players:  # the cards under Wonders: the seen ones nowhere else, then unseen ones
            for w, under in list(p.built.items()):
                if under not in kept:
                    p.built[w] = taken_unseen.pop() if taken_unseen else (spare.pop() if spare else -1)
        game.removed = spare + guilds + [c for a in AGES if a > age for c in unseen[a]]
        self._tokens(game, rng)
        self._wonders(game, rng)

    def _tokens(self, game: "DuelGame", rng: random.Random) -> None:
        data = game.data
        placed = set(game.board_tokens) | {t for p in game.players for t in p.tokens}
        own_offer = list(game.box_offer) if game.actor == self.seat and game.phase == BOX_TOKEN else []
        box = [t.id for t in data.tokens if t.id not in placed and t.id not in own_offer]
        rng.shuffle(box)
        game.box_tokens = own_offer + box
        if game.phase == BOX_TOKEN and not own_offer:
            draw = max(w.effects.box_draw for w in data.wonders)
            game.box_offer = game.box_tokens[:draw]

    def _wonders(self, game: "DuelGame", rng: random.Random) -> None:
        data = game.data
        names = {w.name: w.id for w in data.wonders}
        shown = {names[n] for n in self.wonders_seen}
        shown.update(w for p in game.players for w in p.wonders)
        shown.update(game.draft_offer)
        unseen = [w.id for w in data.wonders if w.id not in shown]
        rng.shuffle(unseen)
        per_round = data.setup.wonders_per_round
        if game.phase == DRAFT and game.draft_step < per_round:  # the second round's Wonders are not out yet
            first_round = [w for p in game.players for w in p.wonders] + list(game.draft_offer)
            game.draft_pool = first_round + unseen[:per_round]
            unseen = unseen[per_round:]
        in_play = set(game.draft_pool) | {w for p in game.players for w in p.wonders}
        game.wonder_box = unseen + [w.id for w in data.wonders if w.id not in in_play and w.id not in unseen]


def _located(game: "DuelGame", card: int) -> str | None:
    """Where a card seen face up is now, if anywhere public."""
    s = game.structure
    if s is not None and card in s.cards:
        return "structure"
    if card in game.discard:
        return "discard"
    if any(card in p.city for p in game.players):
        return "city"
    return None


def _index(resource: str) -> int:
    from app.engine.common.resources import INDEX

    return INDEX[resource]


def _structure(game: "DuelGame", view: View) -> Structure:
    """The Age's structure as the view shows it: taken slots empty, face-up cards by name, the
    face-down ones still to draw (-1)."""
    age = view["age"]
    slots = game.data.layouts[age]
    by_name = {c.name: c.id for c in game.data.cards}
    s = Structure(age, slots, [-1] * len(slots))
    for entry in view["structure"]:
        i = entry["slot"]
        if entry.get("taken"):
            s.cards[i] = None
        elif "card" in entry:
            s.cards[i] = by_name[entry["card"]]
            s.up[i] = True
        else:
            s.up[i] = False
    s.covered = [sum(1 for c in slot.covered_by if s.cards[c] is not None) for slot in slots]
    s.open = [slot.index for slot in slots if s.cards[slot.index] is not None and s.covered[slot.index] == 0]
    return s
