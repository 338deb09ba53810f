"""describe_components(): every component of the three games, in the data's own vocabulary and in
words, checked against the compiled data the engine plays with and against the data files."""

import json
import re
from collections.abc import Iterator
from typing import Any, get_args

import pytest

from app.engine import describe_components
from app.engine.classic.armada.data import TRACKS, ArmadaEffect, armada_data
from app.engine.classic.data import CLASSIC_DIR, classic_data
from app.engine.common import data as d
from app.engine.common.resources import RESOURCES, vector
from app.engine.components import cost_text, effect_text, effects_text
from app.engine.duel import models as duel
from app.engine.duel.data import DUEL_DIR, duel_data

BOX = describe_components()
CLASSIC, ARMADA, DUEL = BOX["classic"], BOX["armada"], BOX["duel"]


def vocabulary() -> set[str]:
    """Every effect type the data models accept (Armada's union holds the classic one)."""
    out: set[str] = set()
    for union in (ArmadaEffect, duel.Effect):
        for model in get_args(get_args(union)[0]):
            out.update(get_args(model.model_fields["type"].annotation))
    return out


def components(node: Any = BOX) -> Iterator[dict[str, Any]]:
    """Every dict in the result that is a component (it has a 'kind')."""
    if isinstance(node, dict):
        if "kind" in node:
            yield node
        for value in node.values():
            yield from components(value)
    elif isinstance(node, list):
        for value in node:
            yield from components(value)


def stage(wonder: str, side: str, n: int) -> dict[str, Any]:
    wonders = CLASSIC["wonders"] | ARMADA["wonders"]
    return wonders[wonder]["sides"][side][n - 1]


def test_every_component_of_the_three_games_is_there_once() -> None:
    data, armada, duel_box = classic_data(), armada_data(), duel_data()
    names = {c.name for c in (*data.cards, *data.guilds)}
    assert len(data.cards) + len(data.guilds) > len(names)  # some names stand in two Ages
    assert set(CLASSIC["cards"]) == names and len(names) == 77
    merged = {name: c["ages"] for name, c in CLASSIC["cards"].items() if len(c["ages"]) > 1}
    assert merged == {"Loom": [1, 2], "Glassworks": [1, 2], "Press": [1, 2]}
    assert all(c["age"] == c["ages"][0] for c in CLASSIC["cards"].values())
    guilds = {name for name, c in CLASSIC["cards"].items() if c["color"] == "purple"}
    assert guilds == {g.name for g in data.guilds} and len(guilds) == 10
    stages = {
        w["name"]: (len(w["sides"]["day"]), len(w["sides"]["night"]))
        for w in (*CLASSIC["wonders"].values(), *ARMADA["wonders"].values())
    }
    assert stages == {w.name: (len(w.sides["day"]), len(w.sides["night"])) for w in (*data.wonders, *armada.wonders)}
    assert len(CLASSIC["wonders"]) == 7 and list(ARMADA["wonders"]) == ["Siracusa"]
    assert stages["Gizah"] == (3, 4) and stages["Babylon"] == (3, 2) and stages["Siracusa"] == (3, 3)
    assert len(ARMADA["cards"]) == 24 == len(armada.cards)
    assert all(c["expansion"] == "armada" for c in ARMADA["cards"].values())
    assert len(ARMADA["islands"]) == 27 and {i["level"] for i in ARMADA["islands"].values()} == {1, 2, 3}
    assert ARMADA["ship_tracks"] == list(TRACKS)
    assert {t: [s["space"] for s in spaces] for t, spaces in ARMADA["ship_spaces"].items()} == {
        t: [1, 2, 3, 4, 5, 6] for t in TRACKS
    }
    assert set(ARMADA["shipyards"]) == {s.name for s in armada.shipyards}
    assert len(DUEL["cards"]) == 73 == len(duel_box.cards)
    assert sum(c["guild"] for c in DUEL["cards"].values()) == 7
    assert all((c["color"], c["age"]) == ("purple", 3) for c in DUEL["cards"].values() if c["guild"])
    assert len(DUEL["wonders"]) == 12 and len(DUEL["progress_tokens"]) == 10
    assert BOX["resources"] == list(RESOURCES)


@pytest.mark.parametrize(
    ("component", "text"),
    [
        (CLASSIC["cards"]["Lumber Yard"], "Produces 1 wood."),
        (CLASSIC["cards"]["Tree Farm"], "Produces wood or clay."),
        (CLASSIC["cards"]["Caravansery"], "Produces wood, stone, clay or ore (not for trade)."),
        (CLASSIC["cards"]["Press"], "Produces 1 papyrus."),
        (CLASSIC["cards"]["Barracks"], "1 shield."),
        (CLASSIC["cards"]["Altar"], "3 points."),
        (CLASSIC["cards"]["Tavern"], "5 coins."),
        (CLASSIC["cards"]["Apothecary"], "Compass (science)."),
        (CLASSIC["cards"]["East Trading Post"], "Buy wood, stone, clay and ore from your right neighbour for 1 coin."),
        (CLASSIC["cards"]["Marketplace"], "Buy glass, papyrus and loom from both neighbours for 1 coin."),
        (CLASSIC["cards"]["Vineyard"], "1 coin per brown card in your city and your neighbours' cities."),
        (CLASSIC["cards"]["Haven"], "1 coin and 1 point per brown card in your city."),
        (CLASSIC["cards"]["Arena"], "3 coins and 1 point per wonder stage built in your city."),
        (CLASSIC["cards"]["Philosophers Guild"], "1 point per green card in your neighbours' cities."),
        (CLASSIC["cards"]["Shipowners Guild"], "1 point per brown, grey or purple card in your city."),
        (
            CLASSIC["cards"]["Builders Guild"],
            "1 point per wonder stage built in your city and your neighbours' cities.",
        ),
        (CLASSIC["cards"]["Decorators Guild"], "7 points if all your wonder stages are built."),
        (CLASSIC["cards"]["Scientists Guild"], "A science symbol of your choice."),
        (stage("Halikarnassos", "day", 2), "Build a card from the discard pile for free."),
        (stage("Halikarnassos", "night", 1), "2 points and build a card from the discard pile for free."),
        (stage("Rhodos", "night", 1), "3 points, 1 shield and 3 coins."),
        (stage("Babylon", "night", 1), "Play the last card of each Age instead of discarding it."),
        (stage("Alexandria", "night", 2), "Produces glass, papyrus or loom (not for trade)."),
        (stage("Siracusa", "day", 1), "+1 naval strength and move one of your ships up one space for free."),
        (stage("Siracusa", "night", 2), "Move 2 different ships up one space each for free."),
        (ARMADA["cards"]["Dry Hold"], "1 point and move one of your ships up one space for free."),
        (
            ARMADA["cards"]["Pirate Hideout"],
            "3 coins and piracy (every other player loses coins equal to their commercial level).",
        ),
        (
            ARMADA["cards"]["Pontoon"],
            "1 shield and a landing (one more military conflict this Age against the player two seats away).",
        ),
        (
            ARMADA["cards"]["Western Emporium"],
            "Buy up to 2 resources a turn from the player two seats to your left for 1 coin each.",
        ),
        (ARMADA["cards"]["Cabinet of Explorers"], "One more of your most common science symbol."),
        (ARMADA["islands"]["Topaz Island (Blue)"], "Move your blue ship up one space for free."),
        (ARMADA["islands"]["Overgrown Island"], "Produces wood or ore (not for trade)."),
        (ARMADA["islands"]["Sheltered Archipelago"], "2 points per island you own."),
        (ARMADA["islands"]["Foggy Island"], "You never lose coins to taxes or piracy."),
        (
            ARMADA["ship_spaces"]["yellow"][1],
            "+1 commercial level, 4 coins and a tax of 1 coin on each player whose commercial level is lower than "
            "yours.",
        ),
        (ARMADA["ship_spaces"]["red"][3], "+2 naval strength."),
        (ARMADA["ship_spaces"]["green"][0], "Explore the level 1 islands and keep one."),
        (ARMADA["ship_spaces"]["green"][1], "Nothing."),
        (DUEL["cards"]["Workshop"], "Plumb line (science) and 1 point."),
        (DUEL["cards"]["University"], "Armillary sphere (science) and 2 points."),
        (DUEL["cards"]["Stone Reserve"], "Buy stone from the bank for 1 coin."),
        (DUEL["cards"]["Forum"], "Produces glass or papyrus."),
        (DUEL["cards"]["Arena"], "2 coins per Wonder built in your city and 3 points."),
        (
            DUEL["cards"]["Shipowners Guild"],
            "1 coin and 1 point per brown or grey card in the city with the most brown and grey cards.",
        ),
        (DUEL["cards"]["Moneylenders Guild"], "1 point per 3 coins in the city with the most coins."),
        (DUEL["cards"]["Builders Guild"], "2 points per Wonder in the city with the most Wonders."),
        (DUEL["wonders"]["The Appian Way"], "3 coins, 3 points, your opponent loses 3 coins and play again."),
        (DUEL["wonders"]["The Great Lighthouse"], "Produces wood, clay or stone; 4 points."),
        (DUEL["wonders"]["The Great Library"], "4 points and keep one of 3 progress tokens drawn from the box."),
        (DUEL["wonders"]["Circus Maximus"], "1 shield, 3 points and destroy one of your opponent's grey cards."),
        (
            DUEL["progress_tokens"]["Urbanism"],
            "6 coins and 4 coins each time you build a card for free through a chain.",
        ),
        (DUEL["progress_tokens"]["Theology"], "Every Wonder you build lets you play again."),
        (DUEL["progress_tokens"]["Masonry"], "Your blue cards cost 2 fewer resources."),
        (DUEL["progress_tokens"]["Law"], "Law (science)."),
    ],
    ids=lambda x: (
        x.get("name", f"{x.get('wonder') or x.get('track')} {x.get('stage') or x.get('space')}")
        if isinstance(x, dict)
        else ""
    ),
)
def test_components_read_as_one_sentence(component: dict[str, Any], text: str) -> None:
    assert component["text"] == text


def test_each_effect_keeps_the_data_vocabulary_and_has_a_phrase() -> None:
    lumber = CLASSIC["cards"]["Lumber Yard"]["effects"]
    assert lumber == [{"type": "produce", "resources": {"wood": 1}, "tradable": True, "text": "1 wood"}]
    assert DUEL["cards"]["Builders Guild"]["effects"] == [
        {
            "type": "guild",
            "what": "wonder",
            "coins_per": 0,
            "vp_per": 2,
            "text": "2 points per Wonder in the city with the most Wonders",
        }
    ]
    types = vocabulary()
    used = set()
    for c in components():
        for e in c.get("effects", []):
            assert e["type"] in types, e
            assert e["text"] and "_" not in e["text"], e
            used.add(e["type"])
    assert used == types  # the data uses every word of its vocabulary, and every one has words


def test_effects_are_the_data_files_own_entries() -> None:
    """Each effect holds every field of the file's entry (and the defaults the model fills in)."""
    raw_classic = json.loads((CLASSIC_DIR / "cards.json").read_text())
    raw_duel = json.loads((DUEL_DIR / "cards.json").read_text())
    checked = 0
    for raw, box in ((raw_classic, CLASSIC), (raw_duel, DUEL)):
        for entry in (*raw["cards"], *raw["guilds"]):
            effects = box["cards"][entry["name"]]["effects"]
            assert len(effects) == len(entry["effects"])
            for file_effect, effect in zip(entry["effects"], effects, strict=True):
                assert file_effect.items() <= effect.items(), (entry["name"], file_effect, effect)
                checked += 1
    assert checked > 150


def test_every_text_is_a_capitalised_sentence_without_internal_ids() -> None:
    raw_words = {"vp", "ability", "produce", "tradable", "guild_", "coins_per"}
    texts = 0
    for c in components():
        if c["kind"] in ("wonder", "shipyard") and "text" not in c:
            continue  # a classic wonder is its stages; a shipyard is its costs
        text = c["text"]
        assert text and text.endswith(".") and not text.endswith(".."), c
        assert not text[0].islower(), c
        assert "_" not in text, c
        assert not raw_words & set(re.findall(r"[a-z_]+", text)), c
        texts += 1
    assert texts > 250


def test_chain_to_is_exactly_the_inverse_of_chain_from_in_each_game() -> None:
    for cards in ({**CLASSIC["cards"], **ARMADA["cards"]}, DUEL["cards"]):
        forward = {(source, c["name"]) for c in cards.values() for source in c["chain_from"]}
        backward = {(c["name"], target) for c in cards.values() for target in c["chain_to"]}
        assert forward == backward and forward
        assert all(source in cards for source, _ in forward)
    assert CLASSIC["cards"]["Scriptorium"]["chain_to"] == ["Courthouse", "Library"]
    assert CLASSIC["cards"]["Forum"]["chain_from"] == ["East Trading Post", "West Trading Post"]
    assert CLASSIC["cards"]["Forum"]["chain_to"] == ["Haven"]
    assert DUEL["cards"]["Tavern"]["chain_to"] == ["Lighthouse"]
    assert "Tavern" not in CLASSIC["cards"]["Tavern"]["chain_to"]  # Duel's chains stay in Duel


def _compiled(cost: dict[str, Any]) -> tuple[tuple[int, ...], int]:
    assert set(cost) == {"coins", "resources"}
    return vector(cost["resources"]), cost["coins"]


def test_costs_match_the_compiled_data() -> None:
    assert CLASSIC["cards"]["Pantheon"]["cost"] == {
        "coins": 0,
        "resources": {"clay": 2, "ore": 1, "glass": 1, "papyrus": 1, "loom": 1},
    }
    assert CLASSIC["cards"]["Tree Farm"]["cost"] == {"coins": 1, "resources": {}}
    assert CLASSIC["cards"]["Altar"]["cost"] == {"coins": 0, "resources": {}}
    assert DUEL["cards"]["Caravansery"]["cost"] == {"coins": 2, "resources": {"glass": 1, "papyrus": 1}}
    data, armada, duel_box = classic_data(), armada_data(), duel_data()
    for c in (*data.cards, *data.guilds):
        assert _compiled(CLASSIC["cards"][c.name]["cost"]) == (c.cost, c.coin_cost)
    for c in armada.cards:
        assert _compiled(ARMADA["cards"][c.name]["cost"]) == (c.cost, c.coin_cost)
    for w in (*data.wonders, *armada.wonders):
        for side, stages in w.sides.items():
            for n, s in enumerate(stages, start=1):
                assert _compiled(stage(w.name, side, n)["cost"]) == (s.cost, s.coin_cost)
    for y in armada.shipyards:
        for track, steps in y.costs.items():
            assert [_compiled(c) for c in ARMADA["shipyards"][y.name]["costs"][track]] == [
                (s.cost, s.coin_cost) for s in steps
            ]
    for c in duel_box.cards:
        assert _compiled(DUEL["cards"][c.name]["cost"]) == (c.cost, c.coin_cost)
        assert (DUEL["cards"][c.name]["age"], DUEL["cards"][c.name]["guild"]) == (c.age, c.guild)
    for w in duel_box.wonders:
        assert _compiled(DUEL["wonders"][w.name]["cost"]) == (w.cost, 0)


def test_the_rest_of_the_box() -> None:
    assert CLASSIC["science_symbols"] == ["compass", "gear", "tablet"]
    used = {e["ability"] for c in components(CLASSIC) for e in c.get("effects", []) if e["type"] == "ability"}
    assert set(CLASSIC["abilities"]) == used and len(used) == 5
    assert CLASSIC["wonders"]["Alexandria"]["starting_resource"] == "glass"
    assert not CLASSIC["wonders"]["Alexandria"]["any_order"] and ARMADA["wonders"]["Siracusa"]["any_order"]
    siracusa = ARMADA["wonders"]["Siracusa"]
    assert (siracusa["expansion"], siracusa["provisional"]) == ("armada", True) and siracusa["reason"]
    assert "provisional" not in CLASSIC["wonders"]["Gizah"] and CLASSIC["wonders"]["Gizah"]["expansion"] is None
    assert "provisional" not in CLASSIC["cards"]["Altar"] and "guild" not in CLASSIC["cards"]["Altar"]
    assert ARMADA["notice"] == armada_data().notice
    yard = ARMADA["shipyards"]["Shipyard I"]
    assert yard["kind"] == "shipyard" and yard["wonder_track"] == "red" and yard["provisional"] is True
    assert yard["costs"]["red"][0] == {"coins": 1, "resources": {"stone": 1}}
    assert DUEL["science_symbols"] == list(duel_data().science_symbols)
    assert set(DUEL["abilities"]) == {
        "play_again",
        "build_from_discard",
        "receive_trade_payments",
        "wonders_play_again",
    }
    assert DUEL["progress_tokens"]["Philosophy"]["rules"] == "Worth 7 VP."
    assert DUEL["military_track"] == {
        "capital": 9,
        "vp_zones": [{"from": 1, "to": 2, "vp": 2}, {"from": 3, "to": 5, "vp": 5}, {"from": 6, "to": 8, "vp": 10}],
        "loot_tokens": [{"from": 3, "to": 5, "coins": 2}, {"from": 6, "to": 8, "coins": 5}],
    }


def test_the_result_is_json_the_same_every_time_and_cached() -> None:
    assert describe_components() is BOX
    assert json.loads(json.dumps(BOX)) == BOX
    describe_components.cache_clear()
    try:
        again = describe_components()
        assert again is not BOX and again == BOX
    finally:
        describe_components.cache_clear()


def test_cost_words() -> None:
    assert cost_text({"coins": 1, "resources": {"wood": 2, "glass": 1}}) == "2 wood, 1 glass and 1 coin"
    assert cost_text({"coins": 0, "resources": {}}) == "free"
    assert cost_text({"coins": 3, "resources": {}}) == "3 coins"
    assert cost_text(CLASSIC["cards"]["Statue"]["cost"]) == "1 wood and 2 ore"


def test_words_for_effects_the_data_does_not_use_yet() -> None:
    defeats = d.PerCount(type="vp_per", amount=1, what="military_defeat_token", whose=["left", "right"])
    assert effect_text(defeats) == "1 point per military defeat token in your neighbours' cities"
    left = d.PerCount(type="coins_per", amount=2, what="card", whose=["self", "left"])
    assert effect_text(left) == "2 coins per card in your city and your left neighbour's city"
    free = d.TradeDiscount(type="trade_discount", resources=["glass"], sides=["left"], price=0)
    assert effects_text([free, d.Coins(type="coins", amount=1)]) == (
        "Buy glass from your left neighbour for nothing and 1 coin."
    )
    assert effects_text([]) == "Nothing."
    with pytest.raises(ValueError, match="ability"):
        effect_text(d.Ability(type="ability", ability="fly"))


def test_armada_rules_that_bots_weigh_are_described_too() -> None:
    armada = describe_components()["armada"]
    assert armada["naval_conflicts"]["weakest"] == {"1": -1, "2": -2, "3": -3}
    assert armada["naval_conflicts"]["ranks"] == {"1": [3, 1], "2": [5, 3], "3": [7, 5, 3]}
    assert "tied" in armada["naval_conflicts"]["ties"]
    assert armada["landing"]["targets"] == {"1": "right", "2": "left", "3": "right"}
