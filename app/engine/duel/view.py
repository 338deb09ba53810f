"""What a seat (or a spectator) may see of a Duel game, and the full snapshot with hidden parts.

Views show face-down structure cards by their back only, and never the cards set aside at
setup, the decks of later Ages, the Wonders not yet offered in the draft, nor the progress
tokens in the box, except the ones drawn for the Great Library, to the seat choosing.
The seat to play also sees why an accessible card or one of its Wonders cannot be built.
"""

from typing import TYPE_CHECKING, Any

from app.engine.common.resources import INDEX, to_dict
from app.engine.duel.costs import card_cost, discard_gain, seat_prices, wonder_cost
from app.engine.duel.models import DUEL_RESOURCES
from app.engine.duel.phases import DRAFT, OVER, PLAY
from app.engine.duel.player import DuelPlayer

if TYPE_CHECKING:
    from app.engine.duel.game import DuelGame


def public_view(game: "DuelGame") -> dict[str, Any]:
    """What both seats and spectators see alike."""
    data = game.data
    out: dict[str, Any] = {
        "game": "duel",
        "version": game.version,
        "age": game.age,
        "phase": game.phase,
        "to_act": game.to_act,
        "current": game.current,
        "first_player": game.first,
        "conflict_pawn": game.military.pawn,
        "military_tokens": [{"seat": s, "from": start, "coins": c} for s, start, c in game.military.loot],
        "structure": structure(game),
        "progress_tokens_board": [data.tokens[t].name for t in game.board_tokens],
        "discard": [data.cards[c].name for c in game.discard],
        "wonders_built": game.wonders_total,
        "max_wonders": game.max_wonders,
        "draft": _draft(game),
        "players": [_player(game, p) for p in game.players],
    }
    if game.phase == OVER:
        out["result"] = game.result()
    return out


def own_view(game: "DuelGame", seat: int | None) -> dict[str, Any]:
    """What depends on who looks: the decision's options, and why the seat to play cannot build."""
    out: dict[str, Any] = {"seat": seat, "decision": _decision(game, seat)}
    if seat is not None and game.phase == PLAY and seat == game.actor:
        out["unplayable"], out["wonders_unplayable"] = unplayable(game, seat)
    return out


NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def unplayable(game: "DuelGame", seat: int) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """({card: {"build": reason}} for each accessible card seat cannot build now, {wonder: reason}
    for each of its unbuilt Wonders it cannot build now), from the costs the legal actions use.

    A build or a Wonder is only ever refused for its coins (the bank sells every resource) or,
    for a Wonder, because the most Wonders are built.
    """
    p = game.players[seat]
    structure = game.structure
    assert structure is not None
    cards = {}
    for slot in structure.open:
        card_id = structure.cards[slot]
        assert card_id is not None
        cost, _, free = card_cost(game, seat, game.cards[card_id])
        if not free and cost > p.coins:
            cards[game.cards[card_id].name] = {"build": _coins(cost, p.coins)}
    wonders = {}
    for w in p.unbuilt:
        name = game.data.wonders[w].name
        if game.wonders_total >= game.max_wonders:
            most = game.max_wonders
            said = NUMBERS[most] if most < len(NUMBERS) else str(most)
            wonders[name] = {"reason": "max_wonders", "text": f"{said} wonders are already built"}
        else:
            cost = wonder_cost(game, seat, w)
            if cost > p.coins:
                wonders[name] = _coins(cost, p.coins)
    return cards, wonders


def _coins(cost: int, have: int) -> dict[str, Any]:
    return {
        "reason": "coins",
        "cost": cost,
        "have": have,
        "text": f"costs {cost} coin{'' if cost == 1 else 's'}; you have {have}",
    }


def structure(game: "DuelGame") -> list[dict[str, Any]]:
    s = game.structure
    if s is None:
        return []
    cards = game.data.cards
    out = []
    for slot in s.slots:
        i = slot.index
        entry: dict[str, Any] = {"slot": i, "row": slot.row, "col": slot.col}
        card = s.cards[i]
        if card is None:
            entry["taken"] = True
        elif s.up[i]:
            entry["card"] = cards[card].name
        else:
            entry["back"] = cards[card].back
        entry["accessible"] = card is not None and s.covered[i] == 0
        out.append(entry)
    return out


def _draft(game: "DuelGame") -> dict[str, Any] | None:
    if game.phase != DRAFT:
        return None
    per_round = game.data.setup.wonders_per_round
    return {
        "round": 1 + game.draft_step // per_round,
        "offer": [game.data.wonders[w].name for w in game.draft_offer],
        "order": list(game.draft_order),
        "pick": game.draft_step,
    }


def _decision(game: "DuelGame", seat: int | None) -> dict[str, Any] | None:
    if game.phase in (DRAFT, PLAY, OVER):
        return None
    out: dict[str, Any] = {"kind": game.phase, "seat": game.actor}
    if seat is not None and seat == game.actor:
        out["options"] = [next(v for k, v in a.items() if k != "type") for a in game.legal_actions(seat)]
    return out


def _player(game: "DuelGame", p: DuelPlayer) -> dict[str, Any]:
    data = game.data
    price = seat_prices(game, p.seat)
    return {
        "seat": p.seat,
        "coins": p.coins,
        "city": [data.cards[c].name for c in p.city],
        "wonders": [{"name": data.wonders[w].name, "built": w in p.built} for w in p.wonders],
        "progress_tokens": [data.tokens[t].name for t in p.tokens],
        "science": dict(p.science),
        "production": to_dict(p.fixed),
        "choices": [[r for r in DUEL_RESOURCES if INDEX[r] in options] for options in p.choices],
        "trade_prices": {r: price[INDEX[r]] for r in DUEL_RESOURCES},
        "discard_gain": discard_gain(game, p.seat),
        "military_points": game.military.points(p.seat),
    }


def snapshot(game: "DuelGame") -> dict[str, Any]:
    """The whole state, hidden parts included, by name."""
    data = game.data
    cards, wonders, tokens = data.cards, data.wonders, data.tokens
    s = game.structure
    return {
        "config": game.config.model_dump(),
        "phase": game.phase,
        "actor": game.actor,
        "age": game.age,
        "current": game.current,
        "first": game.first,
        "pending": list(game.pending),
        "play_again": game.play_again,
        "destroy_color": game.destroy_color,
        "pawn": game.military.pawn,
        "loot": [list(t) for t in game.military.loot],
        "draft": {
            "pool": [wonders[w].name for w in game.draft_pool],
            "offer": [wonders[w].name for w in game.draft_offer],
            "step": game.draft_step,
            "order": list(game.draft_order),
        },
        "wonder_box": [wonders[w].name for w in game.wonder_box],
        "decks": {str(age): [cards[c].name for c in deck] for age, deck in game.decks.items()},
        "removed": [cards[c].name for c in game.removed],
        "structure": None
        if s is None
        else {
            "age": s.age,
            "cards": [None if c is None else cards[c].name for c in s.cards],
            "up": list(s.up),
            "open": list(s.open),
        },
        "discard": [cards[c].name for c in game.discard],
        "board_tokens": [tokens[t].name for t in game.board_tokens],
        "box_tokens": [tokens[t].name for t in game.box_tokens],
        "box_offer": [tokens[t].name for t in game.box_offer],
        "winners": list(game.winners),
        "victory": game.victory,
        "players": [_snapshot_player(game, p) for p in game.players],
    }


def _snapshot_player(game: "DuelGame", p: DuelPlayer) -> dict[str, Any]:
    data = game.data
    return {
        "coins": p.coins,
        "city": [data.cards[c].name for c in p.city],
        "wonders": [data.wonders[w].name for w in p.wonders],
        "built": {data.wonders[w].name: data.cards[c].name for w, c in p.built.items()},
        "tokens": [data.tokens[t].name for t in p.tokens],
        "science": dict(sorted(p.science.items())),
        "fixed": list(p.fixed),
        "trade_fixed": list(p.trade_fixed),
        "choices": [list(c) for c in p.choices],
        "caps": list(p.caps),
        "reductions": dict(sorted(p.reductions.items())),
        "extra_shields": dict(sorted(p.extra_shields.items())),
        "chain_coins": p.chain_coins,
        "abilities": sorted(p.abilities),
    }
