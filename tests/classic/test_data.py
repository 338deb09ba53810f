"""The classic data files: counts per player count, doubts recorded, typos caught."""

import json

import pytest

from app.engine import GameConfig, new_game
from app.engine.classic.data import CLASSIC_DIR, classic_data, load_cards, load_wonders
from app.engine.common.data import DataError


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_each_age_deals_seven_cards_per_player(players):
    game = new_game(GameConfig(players=players, seed=players))
    sizes = {age: len(deck) for age, deck in game.decks.items()}
    dealt_now = sum(len(h) for h in game.hands)
    assert dealt_now == 7 * players
    assert sizes[2] == sizes[3] == 7 * players
    guilds = [game.cards[c] for c in game.decks[3] if game.cards[c].color == "purple"]
    assert len(guilds) == players + 2
    assert len({g.name for g in guilds}) == players + 2


def test_reference_counts():
    data = classic_data()
    assert len(data.guilds) == 10
    assert len(data.wonders) == 7
    assert {len({c.name for c in data.cards if c.age == age}) for age in (1, 2, 3)} == {27, 23, 20}
    assert sum(len(c.copies) for c in data.cards if c.age == 1) == 49
    gizah = data.wonder("Gizah")
    assert len(gizah.sides["night"]) == 4


def test_doubts_are_recorded_with_their_alternative():
    raw = json.loads((CLASSIC_DIR / "cards.json").read_text())
    doubted = {c["name"]: c["doubt"] for c in raw["cards"] + raw["guilds"] if "doubt" in c}
    for name in ("Theater", "Well", "Craftsmens Guild", "Arena", "Circus", "Town Hall"):
        assert name in doubted
        assert doubted[name]["note"]
    assert doubted["Town Hall"]["alternative"] == {"cost": {"stone": 3, "glass": 1}}
    wonders = json.loads((CLASSIC_DIR / "wonders.json").read_text())
    babylon = next(w for w in wonders["wonders"] if w["name"] == "Babylon")
    assert len(babylon["night"]) == 2 and len(babylon["doubt"]["alternative"]["night"]) == 3


def _write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def test_a_typo_in_a_card_names_file_and_entry(tmp_path):
    raw = json.loads((CLASSIC_DIR / "cards.json").read_text())
    raw["cards"][3]["effects"][0]["resources"] = {"oar": 1}
    path = _write(tmp_path, "cards.json", raw)
    with pytest.raises(DataError) as err:
        load_cards(path)
    assert str(path) in str(err.value) and "'Ore Vein'" in str(err.value)


def test_an_unknown_field_or_chain_is_refused(tmp_path):
    raw = json.loads((CLASSIC_DIR / "cards.json").read_text())
    raw["cards"][0]["cots"] = {}
    with pytest.raises(DataError, match=r"'Lumber Yard'.*cots"):
        load_cards(_write(tmp_path, "a.json", raw))
    raw["cards"][0].pop("cots")
    raw["cards"][30]["chain_from"] = ["Scriptorum"]
    with pytest.raises(DataError, match="unknown card 'Scriptorum'"):
        load_cards(_write(tmp_path, "b.json", raw))


def test_a_wonder_typo_is_named(tmp_path):
    raw = json.loads((CLASSIC_DIR / "wonders.json").read_text())
    raw["wonders"][2]["night"][0]["effects"] = [{"type": "ability", "ability": "fly"}]
    with pytest.raises(DataError, match=r"'Ephesos'.*unknown ability 'fly'"):
        load_wonders(_write(tmp_path, "w.json", raw))
