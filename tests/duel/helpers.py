"""Helpers to set up Duel situations: play the draft, put chosen cards in reach, give cities cards.

Situations are arranged by moving cards between their places (swaps keep every card in
exactly one place); outcomes are then checked through the public API.
"""

import random
from typing import Any

from app.engine import GameConfig, IllegalAction, new_game
from app.engine.duel.game import DuelGame
from app.engine.duel.phases import PLAY


def new(seed: int = 0) -> DuelGame:
    game = new_game(GameConfig(game="duel", seed=seed))
    assert isinstance(game, DuelGame)
    return game


def drafted(seed: int = 0, wonders: tuple[list[str], list[str]] | None = None, first: int = 0) -> DuelGame:
    """A game at the start of Age I, seat `first` to play, with these Wonders (or drafted in order)."""
    game = new(seed)
    if wonders is not None:
        ids = [[game.data.wonder_ids[n] for n in names] for names in wonders]
        chosen = [w for pair in zip(ids[0], ids[1], strict=True) for w in pair]
        others = [w for w in range(len(game.data.wonders)) if w not in chosen]
        game.draft_pool = chosen
        game.wonder_box = others
        game.draft_offer = chosen[:4]
        game.first = first
        game.draft_order = [first, 1 - first] * 4
        game.actor = first
    while game.phase == "draft":
        seat = game.to_act[0]
        game.apply(seat, game.legal_actions(seat)[0])
    if wonders is not None:
        for seat in (0, 1):
            assert sorted(game.view(None)["players"][seat]["wonders"], key=lambda w: w["name"]) == sorted(
                ({"name": n, "built": False} for n in wonders[seat]), key=lambda w: w["name"]
            )
    set_turn(game, first)
    return game


def refresh(game: DuelGame) -> None:
    """Forget cached costs and legal actions after the state was changed by hand."""
    game.cost_cache = [None, None]
    game._result = None


def set_turn(game: DuelGame, seat: int) -> None:
    game.current = seat
    game.actor = seat
    game.phase = PLAY
    refresh(game)


def set_coins(game: DuelGame, seat: int, coins: int) -> None:
    game.players[seat].coins = coins
    refresh(game)


def _places(game: DuelGame) -> list[list[Any]]:
    structure = game.structure
    assert structure is not None
    return [structure.cards, *game.decks.values(), game.removed, game.discard]


def take_out(game: DuelGame, name: str) -> int:
    """Remove a card from wherever it waits (structure, decks, removed, discard) and return its id.

    A card taken from the structure is replaced by another card from the removed ones so the
    structure keeps its shape.
    """
    card = game.data.card_ids[name]
    structure = game.structure
    assert structure is not None
    if card in structure.cards:
        spare = next(c for c in game.removed if c != card)
        game.removed.remove(spare)
        structure.cards[structure.cards.index(card)] = spare
        return card
    for place in _places(game)[1:]:
        if card in place:
            place.remove(card)
            return card
    raise AssertionError(f"{name} is not waiting anywhere: it is in a city or under a Wonder")


def put_in_reach(game: DuelGame, name: str) -> None:
    """Swap a card into an accessible slot of the current structure."""
    card = game.data.card_ids[name]
    structure = game.structure
    assert structure is not None
    if card in structure.accessible_cards():
        return
    slot = next(s for s in structure.open if structure.cards[s] != card)
    displaced = structure.cards[slot]
    for place in _places(game):
        if card in place:
            place[place.index(card)] = displaced
            break
    else:
        raise AssertionError(f"{name} is not waiting anywhere")
    structure.cards[slot] = card
    refresh(game)


def give(game: DuelGame, seat: int, *names: str) -> None:
    """Put cards straight into a city, with their lasting effects (not their immediate ones)."""
    for name in names:
        card = game.cards[take_out(game, name)]
        game.players[seat].add_card(card)
    refresh(game)


def give_token(game: DuelGame, seat: int, name: str) -> None:
    token = game.data.token_ids[name]
    for place in (game.board_tokens, game.box_tokens):
        if token in place:
            place.remove(token)
    game.players[seat].tokens.append(token)
    game.players[seat].gain(game.data.tokens[token].effects)
    refresh(game)


def put_on_board(game: DuelGame, *names: str) -> None:
    """Make these the progress tokens on the board (the others go to the box)."""
    ids = [game.data.token_ids[n] for n in names]
    everything = game.board_tokens + game.box_tokens
    game.board_tokens = sorted(ids)
    game.box_tokens = [t for t in everything if t not in ids]


def build(game: DuelGame, name: str, **expect: Any) -> list[dict[str, Any]]:
    """Put a card in reach and build it with the legal action the engine lists for it."""
    put_in_reach(game, name)
    seat = game.to_act[0]
    action = next((a for a in game.legal_actions(seat) if a["type"] == "build" and a["card"] == name), None)
    assert action is not None, f"cannot build {name}: {game.legal_actions(seat)}"
    for key, value in expect.items():
        assert action.get(key) == value, f"{name}: {key} is {action.get(key)!r}, expected {value!r}"
    return game.apply(seat, action)


def build_wonder(game: DuelGame, wonder: str, card: str | None = None) -> list[dict[str, Any]]:
    seat = game.to_act[0]
    if card is not None:
        put_in_reach(game, card)
    actions = [a for a in game.legal_actions(seat) if a["type"] == "wonder" and a["wonder"] == wonder]
    assert actions, f"cannot build {wonder}: {game.legal_actions(seat)}"
    action = next(a for a in actions if card is None or a["card"] == card)
    return game.apply(seat, action)


def act(game: DuelGame, action: dict[str, Any]) -> list[dict[str, Any]]:
    return game.apply(game.to_act[0], action)


def legal_of(game: DuelGame, kind: str) -> list[dict[str, Any]]:
    return [a for a in game.legal_actions(game.to_act[0]) if a["type"] == kind]


def refused(game: DuelGame, seat: Any, action: Any) -> str:
    """Apply an illegal action: it must raise IllegalAction and change nothing; return the message."""
    before = game.snapshot()
    log = list(game.log)
    try:
        game.apply(seat, action)
    except IllegalAction as exc:
        assert game.snapshot() == before
        assert game.log == log
        return str(exc)
    raise AssertionError(f"{action} was accepted")


def play_random(game: DuelGame, rng: random.Random, steps: int | None = None) -> None:
    while not game.is_over and steps != 0:
        seat = game.to_act[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        steps = None if steps is None else steps - 1


def points(game: DuelGame, seat: int) -> dict[str, int]:
    return game.result()["scores"][seat]["categories"]


def coins(game: DuelGame) -> list[int]:
    return [p["coins"] for p in game.view(None)["players"]]


OTHERS = ["The Pyramids", "The Sphinx", "Piraeus", "The Colossus", "Circus Maximus", "The Mausoleum",
          "The Great Library", "The Appian Way", "The Hanging Gardens", "The Statue of Zeus",
          "The Temple of Artemis", "The Great Lighthouse"]  # fmt: skip


def with_wonder(name: str, seed: int = 1, coins: int | None = None) -> DuelGame:
    """Seat 0 owns this Wonder (and 3 others), seat 0 to play, no production on either side."""
    rest = [w for w in OTHERS if w != name]
    game = drafted(seed, ([name, *rest[:3]], rest[3:7]))
    if coins is not None:
        set_coins(game, 0, coins)
    return game


def leave_last_card(game: DuelGame, name: str) -> None:
    """Empty the structure but for this card, accessible; the others are set aside."""
    card = game.data.card_ids[name]
    put_in_reach(game, name)
    structure = game.structure
    assert structure is not None
    for slot, other in enumerate(structure.cards):
        if other != card:
            if other is not None:
                game.removed.append(other)
            structure.cards[slot] = None
            structure.covered[slot] = 99  # never to be uncovered again
    slot = structure.cards.index(card)
    structure.open = [slot]
    structure.covered[slot] = 0
    structure.up[slot] = True
    refresh(game)
