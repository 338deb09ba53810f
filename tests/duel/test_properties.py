"""Properties of random games: every game ends by one of the three victories, every card,
Wonder and token is in exactly one place, coins never go negative, views and events never
show what is hidden, `apply` accepts exactly the listed actions, and replay gives the same state.

2,000 seeded games check the invariants after every action (the events' secrecy too, and
every fourth action one viewer's view in turn); hypothesis plays 40 more games checking
every view after every action and the agreement of listing and validation.
"""

import json
import random
import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import IllegalAction, replay
from app.engine.duel.data import duel_data
from app.engine.duel.game import DuelGame
from tests.duel.helpers import new

DATA = duel_data()
CARDS = sorted(c.name for c in DATA.cards)
WONDERS = sorted(w.name for w in DATA.wonders)
TOKENS = sorted(t.name for t in DATA.tokens)
VICTORIES = {"military", "science", "civilian"}
COLOR = {c.name: c.color for c in DATA.cards}


QUOTED = re.compile(r'"([^"\\]*)"')


def shown(value: Any, names: set[str]) -> set[str]:
    """Which of these names appear as a whole string (a value or a key) in a JSON-able value."""
    return names.intersection(QUOTED.findall(json.dumps(value)))  # no name holds a quote or a backslash


def hidden_names(snap: dict[str, Any], seat: int | None) -> set[str]:
    """What seat may not know: set-aside cards, later decks, face-down cards, box tokens, unseen Wonders."""
    hidden = set(snap["removed"])
    for deck in snap["decks"].values():
        hidden |= set(deck)
    structure = snap["structure"]
    if structure:
        hidden |= {c for c, up in zip(structure["cards"], structure["up"], strict=True) if c is not None and not up}
    box = set(snap["box_tokens"])
    if seat is not None and seat == snap["actor"] and snap["phase"] == "choose_box_token":
        box -= set(snap["box_offer"])
    hidden |= box
    draft = snap["draft"]
    offered = set(draft["pool"][:4]) | (set(draft["pool"][4:]) if draft["step"] >= 4 else set())
    return hidden | (set(WONDERS) - offered)


def check_secrecy(game: DuelGame, snap: dict[str, Any], seats: tuple[int | None, ...], events: list) -> None:
    for seat in seats:
        leaked = shown(game.view(seat), hidden_names(snap, seat))
        assert not leaked, f"view of {seat} shows {leaked}"
    if events:
        leaked = shown(events, hidden_names(snap, None))
        assert not leaked, f"events show {leaked}: {events}"


def check_conservation(snap: dict[str, Any]) -> None:
    players = snap["players"]
    structure = snap["structure"]
    cards = list(snap["removed"]) + list(snap["discard"])
    cards += [c for deck in snap["decks"].values() for c in deck]
    cards += [c for c in structure["cards"] if c is not None] if structure else []
    for p in players:
        cards += p["city"] + list(p["built"].values())
    assert sorted(cards) == CARDS
    draft = snap["draft"]
    undrafted = draft["offer"] + (draft["pool"][4:] if draft["step"] < 4 else [])
    wonders = undrafted + snap["wonder_box"] + [w for p in players for w in p["wonders"]]
    assert sorted(wonders) == WONDERS
    assert all(w in p["wonders"] for p in players for w in p["built"])
    tokens = snap["board_tokens"] + snap["box_tokens"] + [t for p in players for t in p["tokens"]]
    assert sorted(tokens) == TOKENS
    assert all(p["coins"] >= 0 for p in players)


def check_end(game: DuelGame) -> str:
    assert game.is_over and game.to_act == []
    result = game.result()
    assert result["finished"] and result["victory"] in VICTORIES
    assert result["winners"] and set(result["winners"]) <= {0, 1}
    for sheet in result["scores"]:
        assert sheet["total"] == sum(sheet["categories"].values())
    if result["victory"] == "civilian":
        best = max(s["total"] for s in result["scores"])
        assert all(result["scores"][w]["total"] == best for w in result["winners"])
    else:
        assert len(result["winners"]) == 1
    return result["victory"]


def choose(game: DuelGame, rng: random.Random, actions: list[dict[str, Any]], policy: str) -> dict[str, Any]:
    """Uniformly random, or leaning to science or to military cards to reach those victories."""
    if policy == "uniform":
        return rng.choice(actions)
    colour = "green" if policy == "science" else "red"

    def weight(a: dict[str, Any]) -> float:
        if a["type"] == "build":
            return 30.0 if COLOR[a["card"]] == colour else 3.0
        if a["type"] == "choose_progress" and a["token"] in ("Law", "Strategy"):
            return 30.0
        return 1.0 if a["type"] != "wonder" else 0.3

    return rng.choices(actions, weights=[weight(a) for a in actions])[0]


def play(seed: int, policy: str, every_viewer: bool, agreement: bool) -> DuelGame:
    game = new(seed)
    rng = random.Random(seed)
    viewers: tuple[int | None, ...] = (0, 1, None)
    step = 0
    while not game.is_over:
        seat = game.to_act[0]
        actions = game.legal_actions(seat)
        assert actions, "a seat to act always has a legal action"
        if agreement and step % 4 == 0:
            check_agreement(game, seat, actions)
        events = game.apply(seat, choose(game, rng, actions, policy))
        snap = game.snapshot()
        check_conservation(snap)
        if every_viewer:
            check_secrecy(game, snap, viewers, events)
        else:  # one viewer in turn, every fourth action
            check_secrecy(game, snap, (viewers[step // 4 % 3],) if step % 4 == 0 else (), events)
        step += 1
    check_end(game)
    assert replay(game.config, game.log).snapshot() == game.snapshot()
    return game


def check_agreement(game: DuelGame, seat: int, actions: list[dict[str, Any]]) -> None:
    """Whatever names are tried, `apply` accepts an action exactly when it is listed."""
    listed = {tuple(sorted((k, v) for k, v in a.items() if k not in ("cost", "free"))) for a in actions}
    view = game.view(seat)
    accessible = [s["card"] for s in view["structure"] if s["accessible"]]
    candidates: list[dict[str, Any]] = []
    for card in accessible + ["Altar"]:
        candidates += [{"type": "build", "card": card}, {"type": "discard", "card": card}]
        candidates += [{"type": "wonder", "card": card, "wonder": w} for w in WONDERS]
    candidates += [{"type": k, "token": t} for k in ("choose_progress", "choose_box_token") for t in TOKENS]
    candidates += [{"type": k, "card": c} for k in ("destroy", "build_from_discard") for c in CARDS]
    candidates += [{"type": "draft_wonder", "wonder": w} for w in WONDERS]
    candidates += [{"type": "choose_starter", "seat": s} for s in (0, 1)]
    for action in candidates:
        if tuple(sorted(action.items())) in listed:
            game.clone().apply(seat, action)
        else:
            with pytest.raises(IllegalAction):
                game.apply(seat, action)  # refused, so the game is unchanged


@pytest.mark.parametrize("first", range(0, 2000, 500))
def test_two_thousand_random_games_hold_the_invariants(first):
    """Four batches of 500 games; each batch sees all three kinds of victory."""
    victories: Counter[str] = Counter()
    policies = ("uniform", "uniform", "science", "military")
    for seed in range(first, first + 500):
        game = play(seed, policies[seed % 4], every_viewer=False, agreement=False)
        victories[game.result()["victory"]] += 1
    assert set(victories) == VICTORIES, victories


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), policy=st.sampled_from(["uniform", "science", "military"]))
def test_random_games_show_nothing_hidden_and_accept_exactly_the_listed_actions(seed, policy):
    play(seed, policy, every_viewer=True, agreement=True)
