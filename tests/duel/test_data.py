"""The Duel data files: counts, consistency, and errors that name the file and the entry."""

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from app.engine.common.data import DataError
from app.engine.duel.data import DUEL_DIR, duel_data, load


def test_component_counts():
    data = duel_data()
    ages = Counter("guild" if c.guild else c.age for c in data.cards)
    assert ages == {1: 23, 2: 23, 3: 20, "guild": 7}
    assert len(data.wonders) == 12
    assert len(data.tokens) == 10
    assert all(c.color == "purple" for c in data.cards if c.guild)


def test_names_are_unique_across_cards_wonders_and_tokens():
    data = duel_data()
    names = [c.name for c in data.cards] + [w.name for w in data.wonders] + [t.name for t in data.tokens]
    assert len(names) == len(set(names)) == 95


def test_science_symbols_two_of_each_and_law_on_a_token():
    data = duel_data()
    symbols = Counter(c.effects.science for c in data.cards if c.effects.science)
    assert symbols == dict.fromkeys(("armillary_sphere", "sundial", "mortar", "plumb_line", "quill", "wheel"), 2)
    assert data.token_named("Law").effects.science == "law"


def test_chains_link_earlier_cards():
    data = duel_data()
    chains = {(source, c.name) for c in data.cards for source in c.chain_from}
    assert len(chains) == 17
    assert ("Theater", "Statue") in chains
    assert ("Statue", "Gardens") in chains
    assert ("Tavern", "Lighthouse") in chains


def test_structures_and_military_track():
    data = duel_data()
    for age, front in ((1, 6), (2, 2), (3, 2)):
        slots = data.layouts[age]
        assert len(slots) == 20
        assert sum(1 for s in slots if not s.covered_by) == front
        assert all(s.face_up == (s.row % 2 == 0) for s in slots)
    age3 = data.layouts[3]
    assert [s.col for s in age3 if s.row == 3] == [4, 8]
    assert age3[9].covered_by == (11, 12)  # the middle pair is covered by the row in front only
    assert data.layouts[1][0].covered_by == (2, 3)
    assert data.track.capital == 9
    assert data.track.vp_zones == ((1, 2, 2), (3, 5, 5), (6, 8, 10))
    assert data.track.loot == ((3, 2), (6, 5))


def test_doubts_are_recorded_in_the_data_files():
    text = "".join(p.read_text() for p in DUEL_DIR.glob("*.json"))
    for doubt in (
        "play_again_at_end_of_age",
        "guild_majority",
        "Reference uncertainty 3",
        "uncertainty 4",
        "uncertainty 5",
    ):
        assert doubt in text


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    target = tmp_path / "duel"
    shutil.copytree(DUEL_DIR, target)
    return target


def corrupt(path: Path, section: str, name: str, change) -> None:
    raw = json.loads(path.read_text())
    entry = next(e for e in raw[section] if e["name"] == name)
    change(entry)
    path.write_text(json.dumps(raw))


@pytest.mark.parametrize(
    ("where", "change", "message"),
    [
        (("cards.json", "cards", "Baths"), lambda e: e.update(efects=[]), "efects"),
        (("cards.json", "cards", "Baths"), lambda e: e["cost"].update(stoen=1), "stoen"),
        (("cards.json", "cards", "Baths"), lambda e: e["cost"].update(ore=1), "not a Duel resource"),
        (("cards.json", "cards", "Workshop"), lambda e: e["effects"][0].update(symbol="wheeel"), "wheeel"),
        (("cards.json", "cards", "Aqueduct"), lambda e: e.update(chain_from=["Bath"]), "Bath"),
        (("cards.json", "cards", "Garrison"), lambda e: e["effects"][0].update(amount=0), "amount"),
        (("cards.json", "guilds", "Builders Guild"), lambda e: e["effects"][0].update(what="cards"), "what"),
        (
            ("wonders.json", "wonders", "The Sphinx"),
            lambda e: e["effects"][0].update(ability="play_twice"),
            "play_twice",
        ),
        (("wonders.json", "wonders", "Piraeus"), lambda e: e["cost"].update(coins=2), "resources only"),
        (("progress.json", "tokens", "Strategy"), lambda e: e["effects"][0].update(colors=["rde"]), "colors"),
    ],
)
def test_a_typo_fails_at_load_naming_file_and_entry(copy, where, change, message):
    file, section, name = where
    corrupt(copy / file, section, name, change)
    with pytest.raises(DataError) as error:
        load(copy)
    text = str(error.value)
    assert file in text and name in text and message in text


def test_a_wrong_card_count_fails_at_load(copy):
    path = copy / "cards.json"
    raw = json.loads(path.read_text())
    raw["cards"] = [c for c in raw["cards"] if c["name"] != "Guard Tower"]
    path.write_text(json.dumps(raw))
    with pytest.raises(DataError, match="Age 1 deals 19 cards but its structure has 20 slots"):
        load(copy)


def test_a_structure_typo_fails_at_load(copy):
    path = copy / "board.json"
    raw = json.loads(path.read_text())
    raw["structures"]["2"]["rows"][0]["face_upp"] = True
    path.write_text(json.dumps(raw))
    with pytest.raises(DataError, match=r"board\.json.*face_upp"):
        load(copy)
