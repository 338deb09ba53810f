"""Armada rule examples with exact numbers.

Seats: seat i's left neighbour is seat i+1 and its right neighbour seat i-1; the player two
seats away is seat i+2 ("far_left") or seat i-2 ("far_right"). Seat i plays on Shipyard i+1
(see helpers.new). Every provisional number (step costs, space benefits, Armada card costs
and effects) is read from the loaded data; the verified ones (3 coins for a discard, the
naval token table, 8-card hands) are written out.
"""

import json

import pytest

from app.engine import GameConfig, IllegalAction, new_game
from app.engine.classic import scoring
from app.engine.classic.armada.data import CommercialLevel, FarTrade, NavalStrength, Tax, armada_data
from app.engine.common.resources import RAW, RESOURCES, to_dict
from tests.armada.helpers import (
    card_def,
    coins,
    commerce,
    deal,
    explore_space,
    finish_age,
    give,
    give_island,
    give_stages,
    naval,
    new,
    option,
    play,
    produce,
    ships,
    space,
    space_amount,
    stack_island,
    step,
    to_turn,
)
from tests.classic.helpers import give as classic_give
from tests.classic.helpers import new as classic_new

FILLER = ("Altar", "Loom", "Press", "Tavern", "Well", "Baths", "Theater")  # cards nobody builds here


def hand(*names: str) -> tuple[str, ...]:
    """An 8-card Armada hand: these cards, then filler."""
    return (*names, *FILLER)[:8]


def units(cost) -> int:
    return sum(cost)


def reveal(events):
    return next(e for e in events if e["type"] == "reveal")


# ----- 1. naval construction --------------------------------------------------------------------


def test_naval_construction_on_a_chained_card_pays_only_the_naval_step():
    """Stables is free by chain from the Apothecary; its red naval step is still paid, here by
    buying the step's resources from the left neighbour. The red ship moves to space 1 and
    that space's naval strength (and coins, if any) is gained."""
    game = new(wonders=["Ephesos", "Alexandria", "Halikarnassos"])  # papyrus, glass, loom
    red = step(game, 0, "red")  # Shipyard I, red step 1 (provisional: 1 stone)
    assert red.cost != (0,) * len(RESOURCES) and set(to_dict(red.cost)) <= set(RAW)  # nobody makes it yet
    produce(game, 1, red.cost, tradable=True)  # the left neighbour makes it, and sells it at 2 a unit
    price = 2 * units(red.cost) + red.coin_cost
    give(game, 0, "Apothecary")
    deal(game, 0, *hand("Stables"))
    coins(game, s0=price + 1, s1=0, s2=0)

    plain = option(game, 0, type="build", card="Stables", naval=None)
    assert plain == {
        "type": "build",
        "card": "Stables",
        "free": "chain",
        "trade": {"left": {}, "right": {}},
        "cost": {"bank": 0, "left": 0, "right": 0},
    }
    with_step = option(game, 0, type="build", card="Stables", naval=True)
    assert with_step == {
        "type": "build",
        "card": "Stables",
        "free": "chain",
        "trade": {"left": to_dict(red.cost), "right": {}},
        "cost": {"bank": red.coin_cost, "left": 2 * units(red.cost), "right": 0},
        "naval": True,
    }

    events = play(game, {0: with_step, 1: None, 2: None})
    assert reveal(events)["moves"][0] == {
        "seat": 0,
        "type": "build",
        "card": "Stables",
        "cost": {"bank": red.coin_cost, "left": 2 * units(red.cost), "right": 0},
        "free": "chain",
        "naval": True,
    }
    shipyard = game.view(0)["players"][0]["shipyard"]
    assert shipyard["ships"] == {"red": 1, "yellow": 0, "blue": 0, "green": 0}
    assert shipyard["naval_strength"] == space_amount("red", 1, NavalStrength) == 1
    assert game.players[0].coins == 1 + space("red", 1).coins  # the step only; the card was free
    assert game.players[1].coins == 3 + 2 * units(red.cost)  # discard plus the sale
    assert game.players[2].coins == 3
    assert "Stables" in game.view(0)["players"][0]["city"]
    assert game.players[0].shields == card_def("Stables").effects.shields == 2


# ----- 2. a discard taken as a yellow move ----------------------------------------------------------


def test_a_discard_may_move_the_yellow_ship_instead_of_giving_three_coins():
    game = new()
    deal(game, 0, *hand("Altar"))
    yellow = {"type": "discard", "card": "Altar", "reward": "yellow"}
    assert yellow in game.legal_actions(0) and {"type": "discard", "card": "Altar"} in game.legal_actions(0)
    events = play(game, {0: yellow, 1: None, 2: None})
    assert reveal(events)["moves"][0] == {"seat": 0, "type": "discard", "reward": "yellow"}
    shipyard = game.view(0)["players"][0]["shipyard"]
    assert shipyard["ships"] == {"red": 0, "yellow": 1, "blue": 0, "green": 0}
    assert shipyard["commercial_level"] == space_amount("yellow", 1, CommercialLevel) == 1
    # no 3 coins, only what yellow space 1 gives (provisional: 2 coins)
    assert game.players[0].coins == 3 + space("yellow", 1).coins
    tax = space_amount("yellow", 1, Tax)  # provisional: space 1 levies none
    assert [p.coins for p in game.players[1:]] == [3 + 3 - tax, 3 + 3 - tax]
    assert game.cards[game.discard[0]].name == "Altar"
    assert game.log[0] == {"seat": 0, "action": yellow}


# ----- 3. taxes and piracy come last in the turn -----------------------------------------------------


def test_taxes_and_piracy_are_paid_after_the_turns_income():
    """4 players. Seat 0 builds Pirate Hideout (coins and piracy); seat 3 moves its yellow
    ship from space 1 to space 2 with a discard (commercial level 2, a tax). Seat 1 gains a
    discard's 3 coins and 2 from a sale to seat 2 during the turn, and loses its piracy
    after. Tax hits only levels below 2; piracy takes each other player's own level."""
    game = new(4, wonders=["Gizah", "Rhodos", "Ephesos", "Alexandria"])  # seat 1 makes ore
    pirate = card_def("Pirate Hideout")
    produce(game, 0, pirate.cost)
    deal(game, 0, *hand("Pirate Hideout"))
    deal(game, 2, *hand("Barracks"))  # 1 ore, bought from its right neighbour, seat 1
    deal(game, 3, *hand())
    commerce(game, 1, 2)
    ships(game, 1, yellow=2)
    commerce(game, 2, 1)
    ships(game, 2, yellow=1)
    commerce(game, 3, 1)
    ships(game, 3, yellow=1)
    coins(game, s0=pirate.coin_cost, s1=0, s2=3, s3=4)
    barracks = option(game, 2, type="build", card="Barracks", naval=None)
    assert barracks["trade"] == {"left": {}, "right": {"ore": 1}} and barracks["cost"]["right"] == 2

    tax = space_amount("yellow", 2, Tax)  # provisional: 1
    level3 = 1 + space_amount("yellow", 2, CommercialLevel)  # seat 3's level after its move: 2
    assert tax >= 1 and level3 == 2
    events = play(
        game,
        {
            0: option(game, 0, type="build", card="Pirate Hideout", naval=None),
            1: None,
            2: barracks,
            3: {"type": "discard", "card": "Altar", "reward": "yellow"},
        },
    )
    expected = [
        pirate.effects.coins - tax,  # level 0 < 2: taxed; a pirate never robs itself
        0 + 3 + 2 - 2,  # discard and sale first, then piracy takes its level 2; level 2 is not taxed
        3 - 2 - 1,  # paid 2 for the ore; owes 1 (piracy) + tax but has only 1 left: never below 0
        4 + space("yellow", 2).coins - level3,  # piracy at the level it has at the end of the turn
    ]
    assert [p.coins for p in game.players] == expected
    assert {"type": "coin_losses", "lost": [tax, 2, 1, level3]} in events
    assert events.index({"type": "coin_losses", "lost": [tax, 2, 1, level3]}) > events.index(reveal(events))


def test_foggy_island_protects_from_piracy():
    game = new()
    give_island(game, 1, "Foggy Island")
    deal(game, 0, *hand("Pirate Hideout"))
    produce(game, 0, card_def("Pirate Hideout").cost)
    for seat in (1, 2):
        commerce(game, seat, 2)
    coins(game, s0=card_def("Pirate Hideout").coin_cost, s1=5, s2=5)
    events = play(game, {0: option(game, 0, type="build", card="Pirate Hideout", naval=None), 1: None, 2: None})
    assert [p.coins for p in game.players[1:]] == [5 + 3, 5 + 3 - 2]
    assert {"type": "coin_losses", "lost": [0, 0, 2]} in events


# ----- 4. naval conflicts and their ties ---------------------------------------------------------------


def naval_event(events):
    return next(e for e in events if e["type"] == "naval_conflict")


@pytest.mark.parametrize(
    ("strengths", "tokens"),
    [
        ([5, 5, 3, 1, 1], [1, 1, None, -1, -1]),  # tied 1st: each the 2nd reward; 3rd gets nothing in Age I
        ([3, 2, 2, 1, 1], [3, None, None, -1, -1]),  # tied at 2nd: they drop to 3rd, no reward in Age I
        ([4, 3, 0, 0, 0], [3, 1, -1, -1, -1]),  # every weakest takes the defeat token
        ([2, 2, 2, 2, 2], [None] * 5),  # all tied: nobody is weaker or stronger
    ],
)
def test_naval_conflict_ties_in_age_one_at_five_players(strengths, tokens):
    game = new(5)
    for seat, strength in enumerate(strengths):
        naval(game, seat, strength)
    events = finish_age(game)
    assert naval_event(events) == {"type": "naval_conflict", "age": 1, "strengths": strengths, "tokens": tokens}
    assert [f.naval_tokens for f in game.fleets] == [[] if t is None else [t] for t in tokens]
    military = next(e for e in events if e["type"] == "military")
    assert events.index(military) < events.index(naval_event(events))  # ground conflicts first


def test_naval_conflicts_over_three_ages_with_ties_and_the_third_place_in_age_three():
    game = new(5)
    by_age = {
        1: ([5, 5, 3, 1, 1], [1, 1, None, -1, -1]),
        2: ([6, 4, 4, 2, 0], [5, None, None, None, -2]),  # tied at 2nd drop to 3rd: none in Age II
        3: ([5, 5, 3, 1, 1], [5, 5, 3, -3, -3]),  # tied 1st take 5 each, the next ranks 3rd: 3
    }
    for age, (strengths, tokens) in by_age.items():
        for seat, strength in enumerate(strengths):
            naval(game, seat, strength)
        events = finish_age(game)
        assert naval_event(events) == {"type": "naval_conflict", "age": age, "strengths": strengths, "tokens": tokens}
    assert game.is_over
    result = game.result()
    assert [s["categories"]["naval"] for s in result["scores"]] == [1 + 5 + 5, 1 + 5, 3, -1 - 3, -1 - 2 - 3]
    assert [f.naval_tokens for f in game.fleets] == [[1, 5, 5], [1, 5], [3], [-1, -3], [-1, -2, -3]]
    for score in result["scores"]:
        assert score["total"] == sum(score["categories"].values())


# ----- 5. explorers of one level share its deck -----------------------------------------------------


def explore_with_construction_zone(game, seats, level=1):
    """These seats build Construction Zone and move their green ship onto the space that
    explores `level`; the others discard. Returns the events."""
    zone = card_def("Construction Zone")
    picks = {}
    for seat in range(game.n):
        deal(game, seat, *hand("Construction Zone"))
    for seat in seats:
        ships(game, seat, green=explore_space(level) - 1)
        produce(game, seat, zone.cost)
        picks[seat] = option(game, seat, type="build", card="Construction Zone", naval=None, moves=["green"])
    return play(game, {seat: picks.get(seat) for seat in range(game.n)})


def island_places(game):
    in_decks = [i for deck in game.island_decks.values() for i in deck]
    return sorted(in_decks + [i for f in game.fleets for i in f.islands])


@pytest.mark.parametrize("explorers", [1, 2, 3])
def test_explorers_of_one_level_in_one_turn_share_its_deck(explorers):
    """Level 1 has 9 islands: one explorer draws 4, two draw 4 each, three draw 3 each
    (min(draw, deck // explorers)); each keeps one and the rest go back."""
    game = new()
    names = [island.name for island in armada_data().islands]
    deck = list(game.island_decks[1])
    assert len(deck) == 9 and armada_data().explore_draw == 4
    seats = list(range(explorers))
    events = explore_with_construction_zone(game, seats)

    drawn = min(4, 9 // explorers)
    assert [e for e in events if e["type"] == "exploration"] == [
        {"type": "exploration", "seat": s, "level": 1, "drawn": drawn} for s in seats
    ]
    assert {"type": "decision", "kind": "keep_island", "seats": seats} in events
    assert game.phase == "explore" and game.to_act == seats
    assert len(game.island_decks[1]) == 9 - explorers * drawn
    offers = {}
    for seat in range(3):
        decision = game.view(seat)["decision"]
        if seat in seats:
            assert decision["kind"] == "keep_island" and len(decision["islands"]) == drawn
            offers[seat] = decision["islands"]
            assert {a["island"] for a in game.legal_actions(seat)} == set(offers[seat])
        else:
            assert decision is None and game.legal_actions(seat) == []
    offered = [name for offer in offers.values() for name in offer]
    assert len(set(offered)) == len(offered) and {names.index(n) for n in offered} <= set(deck)
    for seat in range(3):  # each sees only its own offer
        seen = json.dumps(game.view(seat))
        assert not [n for s, offer in offers.items() if s != seat for n in offer if n in seen]
    assert island_places(game) == sorted(set(range(len(names))) - {names.index(n) for n in offered})

    kept = {}
    for seat in seats:  # keep an island that moves no ship
        action = next(a for a in game.legal_actions(seat) if "moves" not in a)
        kept[seat] = action["island"]
        events = game.apply(seat, action)
        assert {"type": "island_kept", "seat": seat, "island": action["island"]} in events
    assert game.phase == "pick" and game.turn == 2
    assert [game.view(None)["players"][s]["shipyard"]["islands"] for s in seats] == [[kept[s]] for s in seats]
    assert len(game.island_decks[1]) == 9 - explorers  # the islands not kept went back
    assert set(game.island_decks[1]) == set(deck) - {names.index(n) for n in kept.values()}
    assert island_places(game) == list(range(len(names)))
    assert game.view(None)["armada"]["island_decks"] == {"1": 9 - explorers, "2": 9, "3": 9}


# ----- 6. the guild cap ---------------------------------------------------------------------------------


def test_a_guild_scores_at_most_ten_with_armada():
    """Magistrates Guild: 1 point per blue card of both neighbours; 12 blue cards make 12
    points, capped to 10 with Armada. The Spies Guild (3 red cards: 3 points) is untouched."""
    blue_left = ("Altar", "Theater", "Well", "Baths", "Courthouse", "Temple")
    blue_right = ("Statue", "Aqueduct", "Gardens", "Senate", "Town Hall", "Pantheon")
    red = ("Stockade", "Barracks", "Guard Tower")
    totals = {}
    for armada, game in (("armada", new()), ("classic", classic_new())):
        give_classic = give if armada == "armada" else classic_give
        give_classic(game, 0, "Magistrates Guild", "Spies Guild")
        give_classic(game, 1, *blue_left, *red)
        give_classic(game, 2, *blue_right)
        totals[armada] = scoring.score_seat(game, 0)["guilds"]
    assert armada_data().guild_cap == 10
    assert totals == {"armada": 10 + 3, "classic": 12 + 3}


# ----- 7. an Emporium buys from the player two seats away --------------------------------------------


def test_eastern_emporium_buys_from_two_seats_away_within_its_limit():
    """5 players. Seat 0 owns the Eastern Emporium: it buys from seat 3 (two seats to its
    right) at the Emporium's price, at most `limit` units a payment; seat 3 is paid at the
    end of the turn."""
    game = new(5, wonders=["Gizah", "Ephesos", "Alexandria", "Rhodos", "Halikarnassos"])  # seat 3 makes ore
    emporium = next(e for e in card_def("Eastern Emporium").effects.extra if isinstance(e, FarTrade))
    assert emporium.side == "right" and emporium.limit < 2  # provisional: 1 coin a unit, 1 unit a payment
    give(game, 0, "Eastern Emporium")
    give(game, 3, "Foundry")  # seat 3: 3 ore in all
    produce(game, 0, card_def("Lumber Yard").effects.produce)  # seat 0's own wood for the Statue
    deal(game, 0, *hand("Barracks", "Statue"))
    coins(game, s0=5, s3=0)

    sides = {"left": {}, "right": {}, "far_right": {"ore": 1}}
    barracks = option(game, 0, type="build", card="Barracks", naval=None)
    assert barracks["trade"] == sides
    assert barracks["cost"] == {"bank": 0, "left": 0, "right": 0, "far_right": emporium.price}
    # the Statue needs 2 ore: only seat 3 has ore, and the Emporium sells one unit a payment
    assert not [a for a in game.legal_actions(0) if a.get("card") == "Statue" and a["type"] == "build"]
    before = game.snapshot()
    with pytest.raises(IllegalAction, match="that trade does not pay for Statue"):
        game.apply(0, {"type": "build", "card": "Statue", "trade": {"far_right": {"ore": 2}}})
    with pytest.raises(IllegalAction, match="keys"):
        game.apply(0, {"type": "build", "card": "Barracks", "trade": {"far_left": {"ore": 1}}})
    assert game.snapshot() == before

    events = play(game, {0: barracks, 1: None, 2: None, 3: None, 4: None})
    assert reveal(events)["moves"][0]["cost"] == {"bank": 0, "left": 0, "right": 0, "far_right": emporium.price}
    assert game.players[0].coins == 5 - emporium.price
    assert game.players[3].coins == 0 + 3 + emporium.price  # its discard and the sale, at the end of the turn
    assert [game.players[s].coins for s in (1, 2, 4)] == [6, 6, 6]


def test_an_emporium_owner_sees_what_the_far_seller_just_built():
    """5 players, nobody makes ore. Seat 0 owns the Eastern Emporium (it buys from seat 3).
    Seat 3 builds an Ore Vein: from the next turn seat 0 may buy that ore for its Barracks,
    although seat 0's offers were already listed before (its market must be renewed)."""
    game = new(5, wonders=["Gizah", "Ephesos", "Alexandria", "Babylon", "Halikarnassos"])
    give(game, 0, "Eastern Emporium")
    deal(game, 0, *hand("Barracks", "Statue"))
    deal(game, 3, *hand("Ore Vein", "Statue"))
    coins(game, s0=5, s3=5)
    assert not [a for a in game.legal_actions(0) if a.get("card") == "Barracks" and a["type"] == "build"]

    play(game, {0: None, 1: None, 2: None, 3: option(game, 3, type="build", card="Ore Vein"), 4: None})
    deal(game, 0, *hand("Barracks", "Statue"))
    barracks = option(game, 0, type="build", card="Barracks", naval=None)
    assert barracks["trade"] == {"left": {}, "right": {}, "far_right": {"ore": 1}}


# ----- 8. landings --------------------------------------------------------------------------------------


def landing_target(owner: int, age: int, players: int) -> int:
    side = armada_data().landing_targets[age]  # right in Ages I and III, left in Age II
    return (owner - 2) % players if side == "right" else (owner + 2) % players


def test_a_landing_card_adds_a_ground_conflict_against_the_player_two_seats_away():
    game = new(5)
    assert landing_target(0, 1, 5) == 3 and landing_target(0, 2, 5) == 2
    pontoon = card_def("Pontoon")
    produce(game, 0, pontoon.cost)
    deal(game, 0, *hand("Pontoon"))
    play(game, {0: option(game, 0, type="build", card="Pontoon", naval=None), 1: None, 2: None, 3: None, 4: None})
    assert game.view(1)["armada"]["landings"] == [{"owner": 0, "target": 3}]
    events = finish_age(game)
    military = next(e for e in events if e["type"] == "military")
    shields = pontoon.effects.shields  # 1: seat 0 also beats both neighbours (0 shields)
    assert {"seats": [0, 3], "shields": [shields, 0], "winner": 0, "landing": True} in military["battles"]
    assert [sorted(p.tokens) for p in game.players] == [[1, 1, 1], [-1], [], [-1], [-1]]
    assert game.view(1)["armada"]["landings"] == []

    # Age II: Ballista lands on seat 2 (two seats to the left), which is stronger
    give(game, 2, "Walls", "Stables")  # 4 shields
    ballista = card_def("Ballista")
    produce(game, 0, ballista.cost)
    deal(game, 0, *hand("Ballista"))
    play(game, {0: option(game, 0, type="build", card="Ballista", naval=None), 1: None, 2: None, 3: None, 4: None})
    assert game.view(None)["armada"]["landings"] == [{"owner": 0, "target": 2}]
    events = finish_age(game)
    military = next(e for e in events if e["type"] == "military")
    mine = shields + ballista.effects.shields
    assert {"seats": [0, 2], "shields": [mine, 4], "winner": 2, "landing": True} in military["battles"]
    assert [sorted(p.tokens) for p in game.players] == [
        [-1, 1, 1, 1, 3, 3],  # Age II: beats both neighbours, loses its landing
        [-1, -1, -1],  # Age II: loses to seats 0 and 2
        [3, 3, 3],  # beats seats 1 and 3, and the landing
        [-1, -1],  # the Age I landing, then seat 2
        [-1, -1],  # seat 0, twice
    ]


# ----- 9. Babylon's 8th card ---------------------------------------------------------------------------


def test_babylon_plays_the_eighth_card_of_an_armada_age():
    game = new(wonders=["Babylon", "Gizah", "Rhodos"], side="night")
    give_stages(game, 0, 1)  # night stage 1: play the last card of each Age
    view = game.view(0)
    assert view["turns_per_age"] == 7 and len(view["hand"]) == 8
    assert [p["hand_size"] for p in view["players"]] == [8, 8, 8]
    to_turn(game, 7)
    assert [len(h) for h in game.hands] == [2, 2, 2]
    deal(game, 0, "Clay Pool", "Lumber Yard")
    events = play(game, {0: option(game, 0, type="build", card="Clay Pool"), 1: None, 2: None})
    assert game.phase == "last_card" and game.to_act == [0] and game.turn == 7
    assert {"type": "decision", "kind": "last_card", "seats": [0]} in events
    assert not any(e["type"] in ("military", "naval_conflict") for e in events)
    events = game.apply(0, option(game, 0, type="build", card="Lumber Yard"))
    assert {"Clay Pool", "Lumber Yard"} <= set(game.view(0)["players"][0]["city"])
    assert any(e["type"] == "naval_conflict" for e in events) and game.age == 2 and game.turn == 1
    # seats 1 and 2 discarded on each of the 7 turns and lost their 8th card; Babylon discarded on 6
    assert len(game.discard) == 6 + 7 * 2 + 2
    assert [len(h) for h in game.hands] == [8, 8, 8]


def test_the_seventh_turns_coin_losses_come_before_babylons_eighth_card():
    """Turn 7 resolves whole (its piracy included) before the end of the Age, where Babylon
    plays its 8th card with the coins it has left."""
    game = new(wonders=["Babylon", "Gizah", "Rhodos"], side="night")
    give_stages(game, 0, 1)
    to_turn(game, 7)
    pirate = card_def("Pirate Hideout")
    produce(game, 1, pirate.cost)
    deal(game, 0, "Altar", "Lumber Yard")
    deal(game, 1, "Pirate Hideout", "Altar")
    commerce(game, 0, 2)
    coins(game, s0=2, s1=pirate.coin_cost)
    events = play(
        game,
        {
            0: {"type": "discard", "card": "Altar"},
            1: option(game, 1, type="build", card="Pirate Hideout", naval=None),
            2: None,
        },
    )
    losses = next(e for e in events if e["type"] == "coin_losses")
    assert losses["lost"][0] == 2 and events.index(losses) < events.index(
        {"type": "decision", "kind": "last_card", "seats": [0]}
    )
    assert game.players[0].coins == 2 + 3 - 2  # the discard's 3 coins, then piracy at level 2
    assert game.phase == "last_card"


# ----- 10. Siracusa ------------------------------------------------------------------------------------


def test_siracusa_builds_its_stages_in_any_order():
    game = new(wonders=["Siracusa", "Gizah", "Rhodos"])
    stages = next(w for w in armada_data().wonders if w.name == "Siracusa").sides["day"]
    produce(game, 0, stages[2].cost)
    coins(game, s0=stages[2].coin_cost + stages[0].coin_cost)
    deal(game, 0, *hand())
    offered = {a["stage"] for a in game.legal_actions(0) if a["type"] == "wonder"}
    assert 3 in offered and 1 not in offered  # only stage 3 is affordable, and it is on offer
    third = option(game, 0, type="wonder", card="Altar", stage=3, naval=None, moves=["blue"])
    play(game, {0: third, 1: None, 2: None})
    p = game.view(0)["players"][0]
    assert p["stages_built"] == 1 and game.players[0].built_stages == [2]
    assert p["shields"] == stages[2].effects.shields and p["shipyard"]["ships"]["blue"] == 1

    produce(game, 0, stages[0].cost)
    deal(game, 0, *hand()[:7])
    assert {a["stage"] for a in game.legal_actions(0) if a["type"] == "wonder"} == {1}
    before = game.snapshot()
    with pytest.raises(IllegalAction, match="you may build stage 1 or 2 now, not 3"):
        game.apply(0, {"type": "wonder", "card": "Loom", "stage": 3, "moves": ["blue"]})
    assert game.snapshot() == before
    first = option(game, 0, type="wonder", card="Loom", stage=1, naval=None, moves=["red"])
    play(game, {0: first, 1: None, 2: None})
    assert game.players[0].built_stages == [2, 0] and game.view(0)["players"][0]["stages_built"] == 2
    naval_of_stage = sum(e.amount for e in stages[0].effects.extra if isinstance(e, NavalStrength))
    assert game.fleets[0].naval == naval_of_stage + space_amount("red", 1, NavalStrength)
    assert not [a for a in game.legal_actions(0) if a["type"] == "wonder" and a["stage"] != 2]


# ----- 11. without Armada nothing changes -----------------------------------------------------------


def test_a_game_without_armada_has_no_armada_fields_and_refuses_them():
    game = classic_new()
    actions = game.legal_actions(0)
    assert actions and not [a for a in actions if {"naval", "moves", "reward"} & set(a)]
    assert len(game.view(0)["hand"]) == 7 and game.view(0)["turns_per_age"] == 6
    assert "armada" not in game.view(0) and "shipyard" not in game.view(0)["players"][0]
    assert "armada" not in game.snapshot()
    card = game.view(0)["hand"][0]
    build = next(a for a in actions if a["type"] == "build")
    before = game.snapshot()
    with pytest.raises(IllegalAction, match=r"unknown field\(s\) \['naval'\] in a 'build' action"):
        game.apply(0, {**build, "naval": True})
    with pytest.raises(IllegalAction, match=r"unknown field\(s\) \['moves'\] in a 'build' action"):
        game.apply(0, {**build, "moves": ["red"]})
    with pytest.raises(IllegalAction, match=r"unknown field\(s\) \['reward'\] in a 'discard' action"):
        game.apply(0, {"type": "discard", "card": card, "reward": "yellow"})
    with pytest.raises(IllegalAction, match="unknown action type 'keep_island'"):
        game.apply(0, {"type": "keep_island", "island": "Foggy Island"})
    assert game.snapshot() == before and game.log == []
    with pytest.raises(ValueError, match="unknown wonder 'Siracusa'"):
        new_game(GameConfig(players=3, wonders=["Siracusa", "Gizah", "Rhodos"]))
    assert game.result()["categories"] == [
        "military",
        "treasury",
        "wonder",
        "civilian",
        "commercial",
        "guilds",
        "science",
    ]


# ----- 12. bad Armada input ------------------------------------------------------------------------------


def test_bad_armada_actions_are_refused_with_a_reason_and_change_nothing():
    game = new()
    deal(game, 0, *hand("Lumber Yard", "Barracks", "Construction Zone"))
    produce(game, 0, card_def("Barracks").cost)
    ships(game, 0, red=6, yellow=6)
    assert not [a for a in game.legal_actions(0) if a.get("card") == "Barracks" and a.get("naval")]
    assert not [a for a in game.legal_actions(0) if a.get("reward")]  # yellow at the top
    zone = [a for a in game.legal_actions(0) if a["type"] == "build" and a["card"] == "Construction Zone"]
    assert {tuple(a["moves"]) for a in zone} == {("blue",), ("green",)}  # red and yellow are at the top
    before = game.snapshot()
    bad = [
        ({"type": "build", "card": "Lumber Yard", "naval": True}, "no naval construction with this build: no ship"),
        ({"type": "build", "card": "Barracks", "naval": True}, "your red ship is at the top"),
        ({"type": "build", "card": "Barracks", "naval": "yes"}, "'naval' must be true or false"),
        ({"type": "build", "card": "Construction Zone", "moves": ["red"]}, r"cannot move the ships \['red'\]"),
        ({"type": "build", "card": "Construction Zone", "moves": ["blue", "green"]}, "cannot move the ships"),
        ({"type": "build", "card": "Construction Zone"}, "'moves' must list the ships to move"),
        ({"type": "build", "card": "Lumber Yard", "moves": ["blue"]}, "this card or stage moves no ship"),
        ({"type": "discard", "card": "Altar", "reward": "yellow"}, "your yellow ship is at the top"),
        ({"type": "discard", "card": "Altar", "reward": "blue"}, "a discard gives 'coins' \\(3\\) or moves the"),
        ({"type": "discard", "card": "Altar", "naval": True}, r"unknown field\(s\) \['naval'\]"),
        ({"type": "keep_island", "island": "Foggy Island"}, "unknown action type 'keep_island' now"),
    ]
    for action, message in bad:
        with pytest.raises(IllegalAction, match=message):
            game.apply(0, action)
    assert game.snapshot() == before and game.log == []


def test_keeping_an_island_not_drawn_is_refused():
    game = new()
    explore_with_construction_zone(game, [1])
    assert game.phase == "explore" and game.to_act == [1]
    drawn = game.view(1)["decision"]["islands"]
    other = next(i.name for i in armada_data().islands if i.level == 1 and i.name not in drawn)
    level2 = next(i.name for i in armada_data().islands if i.level == 2)
    before = game.snapshot()
    bad = [
        (1, {"type": "keep_island", "island": other}, f"'{other}' is not among the islands you drew"),
        (1, {"type": "keep_island", "island": level2}, "is not among the islands you drew"),
        (1, {"type": "keep_island"}, "'None' is not among the islands you drew"),
        (1, {"type": "keep_island", "island": drawn[0], "card": "Altar"}, r"unknown field\(s\) \['card'\]"),
        (1, {"type": "discard", "card": "Altar"}, "now keep one of the islands you drew"),
        (0, {"type": "keep_island", "island": drawn[0]}, "seat 0 has nothing to decide now"),
    ]
    for seat, action, message in bad:
        with pytest.raises(IllegalAction, match=message):
            game.apply(seat, action)
    assert game.snapshot() == before


# ----- more about naval construction --------------------------------------------------------------------


def test_a_wonder_stage_advances_only_the_track_with_the_wonder_symbol():
    game = new(wonders=["Gizah", "Rhodos", "Ephesos"])
    track = game.view(0)["players"][0]["shipyard"]["wonder_track"]
    assert track == armada_data().shipyards[0].wonder_track  # Shipyard I (provisional: red)
    stage = game.players[0].stages[0]
    produce(game, 0, stage.cost)
    produce(game, 0, step(game, 0, track).cost)
    coins(game, s0=stage.coin_cost + step(game, 0, track).coin_cost)
    deal(game, 0, *hand())
    staged = [a for a in game.legal_actions(0) if a["type"] == "wonder" and a["card"] == "Altar"]
    assert [a.get("naval") for a in staged] == [None, True]  # one naval variant: the wonder track's
    play(game, {0: staged[1], 1: None, 2: None})
    assert game.fleets[0].ships == {t: int(t == track) for t in ("red", "yellow", "blue", "green")}
    assert game.players[0].coins == space(track, 1).coins


def test_a_card_built_from_the_discard_moves_its_ships_but_allows_no_naval_step():
    """Halikarnassos (day stage 2) builds Construction Zone from the discard pile: free, with
    its ship move, never with a naval construction."""
    game = new(wonders=["Halikarnassos", "Gizah", "Rhodos"])
    give_stages(game, 0, 1)
    produce(game, 0, game.players[0].stages[1].cost)
    produce(game, 0, step(game, 0, "blue").cost)  # a naval step would be affordable
    coins(game, s0=0)
    deal(game, 0, *hand())
    deal(game, 1, *hand("Construction Zone"))
    events = play(
        game,
        {0: option(game, 0, type="wonder", card="Altar", stage=2, naval=None), 1: "Construction Zone", 2: None},
    )
    assert {"type": "decision", "kind": "build_from_discard", "seats": [0]} in events
    zone = [a for a in game.legal_actions(0) if a.get("card") == "Construction Zone"]
    assert zone == [
        {"type": "build_from_discard", "card": "Construction Zone", "moves": [track]}
        for track in ("red", "yellow", "blue", "green")
    ]
    before = game.snapshot()
    for action, message in [
        ({"type": "build_from_discard", "card": "Construction Zone", "moves": ["blue"], "naval": True}, "'naval'"),
        ({"type": "build_from_discard", "card": "Construction Zone"}, "'moves' must list the ships to move"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            game.apply(0, action)
    assert game.snapshot() == before
    events = game.apply(0, zone[2])
    assert {"type": "built_from_discard", "seat": 0, "card": "Construction Zone", "moves": ["blue"]} in events
    assert game.fleets[0].ships == {"red": 0, "yellow": 0, "blue": 1, "green": 0}
    assert game.players[0].coins == space("blue", 1).coins  # the card's coin cost is not paid


# ----- naval strength, card dealing --------------------------------------------------------------------


def naval_of(effects) -> int:
    return sum(e.amount for e in effects.extra if isinstance(e, NavalStrength))


def test_naval_strength_adds_the_red_track_cards_and_islands():
    """Seat 0: Coastal Defenses with a red step, then Whistling Island from Helmsman's Rest;
    seat 1: two red steps with Barracks and Stockade; seat 2: Coastal Defenses alone."""
    game = new(wonders=["Ephesos", "Alexandria", "Halikarnassos"])
    coastal = card_def("Coastal Defenses")
    helmsman = card_def("Helmsman's Rest")
    whistling = next(i for i in armada_data().islands if i.name == "Whistling Island")
    produce(game, 0, coastal.cost)
    produce(game, 0, step(game, 0, "red").cost)
    produce(game, 1, card_def("Barracks").cost)
    produce(game, 1, step(game, 1, "red").cost)
    produce(game, 2, coastal.cost)
    coins(game, s0=10, s1=10, s2=10)
    deal(game, 0, *hand("Coastal Defenses"))
    deal(game, 1, *hand("Barracks"))
    deal(game, 2, *hand("Coastal Defenses"))
    play(
        game,
        {
            0: option(game, 0, type="build", card="Coastal Defenses", naval=True),
            1: option(game, 1, type="build", card="Barracks", naval=True),
            2: option(game, 2, type="build", card="Coastal Defenses", naval=None),
        },
    )
    produce(game, 0, helmsman.cost)
    produce(game, 1, card_def("Stockade").cost)
    produce(game, 1, step(game, 1, "red").cost)  # red step 2
    stack_island(game, "Whistling Island")
    deal(game, 0, *hand("Helmsman's Rest")[:7])
    deal(game, 1, *hand("Stockade")[:7])
    deal(game, 2, *hand()[:7])
    events = play(
        game,
        {
            0: option(game, 0, type="build", card="Helmsman's Rest", naval=None),
            1: option(game, 1, type="build", card="Stockade", naval=True),
            2: None,
        },
    )
    assert {"type": "island_kept", "seat": 0, "island": "Whistling Island"} in events  # one drawn: kept
    red = [space_amount("red", n, NavalStrength) for n in (1, 2)]
    strengths = [
        naval_of(coastal.effects) + red[0] + naval_of(whistling.effects),  # card + track + island: 3
        red[0] + red[1],  # track: 2
        naval_of(coastal.effects),  # card: 1
    ]
    assert strengths == [3, 2, 1]
    assert [p["shipyard"]["naval_strength"] for p in game.view(None)["players"]] == strengths
    events = finish_age(game)
    assert naval_event(events) == {"type": "naval_conflict", "age": 1, "strengths": strengths, "tokens": [3, 1, -1]}


def test_three_players_never_get_the_emporiums_or_the_landing_cards():
    far = {"Western Emporium", "Eastern Emporium", "Pontoon", "Ballista", "Pier"}
    assert armada_data().not_at_three == far
    for seed in range(400):
        game = new_game(GameConfig(players=3, seed=seed, expansions=["armada"]))
        assert not far & {c.name for c in game.cards}, seed
    seen = set()
    for seed in range(30):  # at 4 players they do come up
        seen |= {c.name for c in new_game(GameConfig(players=4, seed=seed, expansions=["armada"])).cards}
    assert far <= seen


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_each_age_deals_eight_cards_a_player_with_one_armada_card_a_player(players):
    game = new_game(GameConfig(players=players, seed=players, expansions=["armada"]))
    for age in (1, 2, 3):
        cards = [c for c in game.cards if c.age == age]
        assert len(cards) == 8 * players
        assert len([c for c in cards if c.expansion == "armada"]) == players
        assert len([c for c in cards if c.expansion is None]) == 7 * players
    for age in (1, 2, 3):
        assert game.age == age and [len(h) for h in game.hands] == [8] * players
        assert game.decks[age] == []
        assert {game.cards[c].age for h in game.hands for c in h} == {age}
        discards = len(game.discard)
        finish_age(game)
        assert len(game.discard) - discards == 8 * players  # 7 turns of discards, then the 8th cards
    assert game.is_over


# ----- engine bugs found while writing these examples (fixed) --------------------------------------------------


def test_a_reward_on_a_build_is_refused():
    game = new()
    deal(game, 0, *hand())
    before = game.snapshot()
    with pytest.raises(IllegalAction, match="reward"):
        game.apply(0, {"type": "build", "card": "Altar", "reward": "yellow"})
    assert game.snapshot() == before and game.log == []


def test_the_snapshot_accounts_for_every_island_during_a_shared_exploration():
    game = new()
    explore_with_construction_zone(game, [0, 1])
    game.apply(0, next(a for a in game.legal_actions(0) if "moves" not in a))
    assert game.phase == "explore" and game.to_act == [1]
    snap = game.snapshot()["armada"]
    ids = [i for deck in snap["island_decks"].values() for i in deck]
    ids += [i for offer in snap["offers"].values() for i in offer]
    ids += [i for _, i in snap["returned"]]
    kept = [name for fleet in snap["fleets"] for name in fleet["islands"]]
    assert len(ids) + len(kept) == len(armada_data().islands)
