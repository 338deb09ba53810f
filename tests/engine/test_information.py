"""Information sets: games consistent with what one seat knows, for fair search.

Over many random positions of the three games, a game sampled from a seat's views (the bot's
way, `information_set` fed view after view) and `game.determinize(seat, rng)` show that seat the
same view and the same legal actions as the real game, play on to the end, never put a card the
seat knows to be elsewhere into a hidden place, and do not depend on the real game's hidden
parts."""

import random
from collections import Counter
from typing import Any

import pytest

from app.engine import GameConfig, InformationSet, information_set, new_game, sample_game
from app.engine.classic.game import ClassicGame
from app.engine.classic.phases import DISCARD_BUILD, PICK
from app.engine.common.game import Game
from app.engine.duel.game import DuelGame

CONFIGS = [
    (GameConfig(game="classic", players=3), 5),
    (GameConfig(game="classic", players=4), 4),
    (GameConfig(game="classic", players=7), 2),
    (GameConfig(game="classic", players=3, expansions=["armada"]), 2),
    (GameConfig(game="classic", players=5, expansions=["armada"]), 2),
    (GameConfig(game="duel"), 16),
]


def play_out(game: Game, rng: random.Random) -> None:
    while not game.is_over:
        for seat in game.to_act:
            game.apply(seat, rng.choice(game.legal_actions(seat)))


def positions(config: GameConfig, seed: int):
    """Every position of a random game, for each seat to act: (game, seat, its information set)."""
    game = new_game(config.model_copy(update={"seed": seed}))
    rng = random.Random(seed)
    infos: dict[int, InformationSet] = {}
    while not game.is_over:
        for seat in game.to_act:
            view = game.view(seat)
            info = infos.setdefault(seat, information_set(view))
            info.observe(view)
            yield game, seat, info
        seat = game.to_act[0]
        action = rng.choice(game.legal_actions(seat))
        infos[seat].record(action)
        game.apply(seat, action)


def config_id(config: object) -> str:
    if not isinstance(config, GameConfig):
        return str(config)
    return f"{config.game}{config.players}{'-' + '-'.join(config.expansions) if config.expansions else ''}"


@pytest.mark.parametrize(("config", "games"), CONFIGS, ids=config_id)
def test_sampled_and_determinized_games_show_the_same_view_and_legal_actions(config: GameConfig, games: int) -> None:
    checked = determinized = played = 0
    for seed in range(games):
        rng = random.Random(1000 + seed)
        for step, (game, seat, info) in enumerate(positions(config, seed)):
            view, legal = game.view(seat), game.legal_actions(seat)
            sampled = info.sample(rng)
            assert sampled.view(seat) == view
            assert sampled.legal_actions(seat) == legal
            check_places(game, sampled, seat)
            checked += 1
            if step % 11 == 0:
                other = game.determinize(seat, rng)
                assert other.view(seat) == view
                assert other.legal_actions(seat) == legal
                check_places(game, other, seat)
                determinized += 1
            if step % 13 == 0:  # a bot that takes a seat mid-game knows only the view it is shown
                alone = information_set(view)
                alone.observe(view)
                fresh = alone.sample(rng)
                assert fresh.view(seat) == view
                assert fresh.legal_actions(seat) == legal
            if step % 37 == 0:
                play_out(sampled, rng)
                assert sampled.result()["winners"]
                played += 1
    assert checked > 200 and determinized > 20 and played > 5


def classic_places(game: ClassicGame) -> dict[str, list[int]]:
    places = {"discard": list(game.discard)}
    for s, p in enumerate(game.players):
        places[f"city {s}"], places[f"tucked {s}"] = list(p.city), list(p.tucked)
        places[f"hand {s}"] = list(game.hands[s])
    for age, deck in game.decks.items():
        places[f"deck {age}"] = list(deck)
    return places


def duel_places(game: DuelGame) -> dict[str, list[int]]:
    s = game.structure
    cards = [] if s is None else [(c, s.up[i]) for i, c in enumerate(s.cards) if c is not None]
    return {
        "face_up": [c for c, up in cards if up],
        "face_down": [c for c, up in cards if not up],
        "decks": [c for deck in game.decks.values() for c in deck],
        "removed": list(game.removed),
        "discard": list(game.discard),
        "cities": [c for p in game.players for c in p.city],
        "under_wonders": [c for p in game.players for c in p.built.values()],
    }


def check_places(real: Game, sampled: Game, seat: int) -> None:
    if isinstance(real, ClassicGame):
        check_classic(real, sampled, seat)  # type: ignore[arg-type]
    else:
        check_duel(real, sampled, seat)  # type: ignore[arg-type]


def check_classic(real: ClassicGame, sampled: ClassicGame, seat: int) -> None:
    """Each card is in one place only; the public ones and the seat's own are where they are;
    the hidden places hold only cards of their Age, as many as the real ones."""
    places = classic_places(sampled)
    every = [c for ids in places.values() for c in ids]
    assert len(every) == len(set(every)), "a card is in two places"
    names = lambda game, ids: sorted(game.cards[c].name for c in ids)  # noqa: E731
    for s, p in enumerate(real.players):
        assert names(sampled, sampled.players[s].city) == names(real, p.city)
        assert len(sampled.hands[s]) == len(real.hands[s])
    assert [sampled.cards[c].name for c in sampled.hands[seat]] == [real.cards[c].name for c in real.hands[seat]]
    assert len(sampled.discard) == len(real.discard)
    for age in (1, 2, 3):
        if age > real.age:
            deck = sampled.decks[age]
            assert len(deck) == len(real.decks[age])
            assert all(sampled.cards[c].age == age for c in deck)
            assert (
                Counter(sampled.cards[c].color for c in deck)["purple"]
                == Counter(real.cards[c].color for c in real.decks[age])["purple"]
            )
    for s in range(real.n):
        if s != seat and real.phase == PICK:
            assert all(sampled.cards[c].age == real.age for c in sampled.hands[s]), "another hand holds another Age"


def check_duel(real: DuelGame, sampled: DuelGame, seat: int) -> None:
    """No card the seat has seen is face down, in a deck or set aside; each card is in one place."""
    places = duel_places(sampled)
    every = [c for ids in places.values() for c in ids]
    assert len(every) == len(set(every)), "a card is in two places"
    seen = {c for p in real.players for c in p.city} | set(real.discard)
    s = real.structure
    if s is not None:
        seen |= {c for i, c in enumerate(s.cards) if c is not None and s.up[i]}
    hidden = set(places["face_down"]) | set(places["decks"]) | set(places["removed"])
    assert not seen & hidden, "a card the seat has seen is in a hidden place"
    assert sorted(sampled.board_tokens) == sorted(real.board_tokens)
    assert not set(sampled.box_tokens) & {t for p in real.players for t in p.tokens}


def test_a_hand_passed_on_is_known_to_be_where_it_went() -> None:
    """At the second turn of an Age, the left neighbour holds the seat's first hand less the
    seat's pick: every sample gives it exactly that hand; a hand never seen is drawn again."""
    game = new_game(GameConfig(game="classic", players=4, seed=3))
    assert isinstance(game, ClassicGame)
    info = sample_info(game, 0)
    first = [game.cards[c].name for c in game.hands[0]]
    picks = {s: game.legal_actions(s)[0] for s in range(4)}
    for s, action in picks.items():
        if s == 0:
            info.record(action)
        game.apply(s, action)
    info.observe(game.view(0))
    assert game.turn == 2
    passed = sorted(Counter(first) - Counter([picks[0]["card"]]))
    assert sorted(game.cards[c].name for c in game.hands[1]) == passed
    rng = random.Random(0)
    drawn_far = set()
    for _ in range(20):
        for sampled in (info.sample(rng), game.determinize(0, rng)):
            assert isinstance(sampled, ClassicGame)
            assert sorted(sampled.cards[c].name for c in sampled.hands[1]) == passed
            drawn_far.add(tuple(sorted(sampled.hands[2])))
    assert len(drawn_far) > 5, "the hands the seat never saw are drawn again"


def sample_info(game: Game, seat: int) -> InformationSet:
    info = information_set(game.view(seat))
    info.observe(game.view(seat))
    return info


def test_a_halikarnassos_decision_keeps_the_discard_as_the_seat_sees_it() -> None:
    """Halikarnassos sees the names of the discard pile it lacks: a sample keeps exactly those
    names (the rest of the pile holds only cards it has), and the same legal actions."""
    found = 0
    for seed in range(60):
        game = new_game(GameConfig(game="classic", players=3, seed=seed, wonders=["Halikarnassos", "Gizah", "Rhodos"]))
        assert isinstance(game, ClassicGame)
        rng = random.Random(seed)
        while not game.is_over and found < 3:
            if game.phase == DISCARD_BUILD and 0 in game.pending:
                own = game.players[0].names
                real = {game.cards[c].name for c in game.discard} - own
                for _ in range(5):
                    other = game.determinize(0, rng)
                    assert isinstance(other, ClassicGame)
                    assert {other.cards[c].name for c in other.discard} - own == real
                    assert other.legal_actions(0) == game.legal_actions(0)
                    assert len(other.discard) == len(game.discard)
                found += 1
            for seat in game.to_act:
                game.apply(seat, rng.choice(game.legal_actions(seat)))
        if found >= 3:
            break
    assert found >= 3


def test_determinize_does_not_depend_on_the_hidden_parts() -> None:
    """Two games alike in all the seat has seen, unlike in other hands, picks, decks and Duel's
    face-down cards, give the same determinized game for the same random numbers."""
    game = new_game(GameConfig(game="classic", players=4, seed=11, expansions=["armada"]))
    assert isinstance(game, ClassicGame)
    rng = random.Random(1)
    for _ in range(9):  # into the second turn, with seat 3 picked and seat 0 to act
        for seat in game.to_act:
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    game.apply(3, game.legal_actions(3)[-1])
    twin = game.clone()
    twin.hands[2], twin.hands[3] = twin.hands[3], twin.hands[2]  # hands seat 0 never held
    twin.decks[2] = twin.decks[2][::-1]
    twin.decks[3] = twin.decks[3][::-1]
    twin.island_decks = {k: v[::-1] for k, v in twin.island_decks.items()}  # type: ignore[attr-defined]
    twin.picks[3] = type(game.picks[3])("discard", twin.hands[3][0])
    assert twin.view(0) == game.view(0) and twin.snapshot() != game.snapshot()
    assert game.determinize(0, random.Random(5)).snapshot() == twin.determinize(0, random.Random(5)).snapshot()

    duel = new_game(GameConfig(game="duel", seed=4))
    assert isinstance(duel, DuelGame)
    while duel.age == 0 or duel.phase != "play":
        duel.apply(duel.actor, rng.choice(duel.legal_actions(duel.actor)))  # type: ignore[arg-type]
    seat = duel.actor
    assert seat is not None
    twin_duel = duel.clone()
    s = twin_duel.structure
    assert s is not None
    down = [i for i, c in enumerate(s.cards) if c is not None and not s.up[i]]
    s.cards[down[0]], s.cards[down[1]] = s.cards[down[1]], s.cards[down[0]]
    twin_duel.decks[2] = twin_duel.decks[2][::-1]
    twin_duel.box_tokens = twin_duel.box_tokens[::-1]
    assert twin_duel.view(seat) == duel.view(seat) and twin_duel.snapshot() != duel.snapshot()
    ours, theirs = duel.determinize(seat, random.Random(5)), twin_duel.determinize(seat, random.Random(5))
    assert ours.snapshot() == theirs.snapshot()


def test_sample_game_reads_only_the_views() -> None:
    game = new_game(GameConfig(game="duel", seed=2))
    rng = random.Random(2)
    views: list[dict[str, Any]] = []
    while len(views) < 12:
        seat = game.to_act[0]
        if seat == 0:
            views.append(game.view(0))
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    sampled = sample_game(views, random.Random(7))
    assert sampled.view(0) == views[-1]
    assert sample_game(views, random.Random(7)).snapshot() == sampled.snapshot()
    with pytest.raises(ValueError, match="at least one view"):
        sample_game([], rng)
    with pytest.raises(ValueError, match="spectator"):
        sample_game([game.view(None)], rng)
