"""The Armada data file: complete, validated, and honest about what is provisional."""

import json

import pytest

from app.engine.classic.armada.data import TRACKS, armada_data, load_armada
from app.engine.common.data import DataError

ARMADA_JSON = "app/engine/data/armada/armada.json"


def raw() -> dict:
    with open(ARMADA_JSON, encoding="utf-8") as f:
        return json.load(f)


def test_counts_match_the_box():
    data = armada_data()
    assert len(data.cards) == 24
    assert [sum(1 for c in data.cards if c.age == age) for age in (1, 2, 3)] == [8, 8, 8]
    assert len(data.islands) == 27
    assert [sum(1 for i in data.islands if i.level == lv) for lv in (1, 2, 3)] == [9, 9, 9]
    assert len(data.shipyards) == 7
    assert {s.wonder_track for s in data.shipyards} == set(TRACKS)
    assert [w.name for w in data.wonders] == ["Siracusa"] and data.wonders[0].any_order
    assert data.not_at_three == {"Eastern Emporium", "Western Emporium", "Pontoon", "Ballista", "Pier"}
    assert data.hand_size == 8 and data.guild_cap == 10


def test_naval_conflict_table_is_the_verified_one():
    data = armada_data()
    assert data.weakest == {1: -1, 2: -2, 3: -3}
    assert data.ranks == {1: (3, 1), 2: (5, 3), 3: (7, 5, 3)}


def test_every_unverified_number_is_marked_provisional_with_a_reason():
    file = raw()
    for section in ("cards", "islands", "shipyards", "wonders"):
        for entry in file[section]:
            assert entry["provisional"] is True and entry["reason"], f"{section} {entry['name']}"
    assert file["space_effects"]["provisional"] is True and file["space_effects"]["reason"]
    assert "provisional" in file["provisional_notice"]
    assert "ties" in file["naval_conflicts"] and "nobody takes a token" in file["naval_conflicts"]["ties"]


def test_step_costs_rise_along_every_track():
    for board in armada_data().shipyards:
        for track in TRACKS:
            sizes = [sum(step.cost) + step.coin_cost for step in board.costs[track]]
            assert sizes == sorted(sizes) and sizes[0] >= 1 and sizes[-1] <= 5, (board.name, track, sizes)


@pytest.mark.parametrize(
    ("where", "change", "message"),
    [
        ("cards", {"color": "pink"}, "cards entry 'Eastern Emporium'"),
        ("islands", {"effects": [{"type": "naval_strenght", "amount": 1}]}, "islands entry 'Overgrown Island'"),
        ("shipyards", {"wonder_track": "purple"}, "shipyards entry 'Shipyard I'"),
    ],
)
def test_a_typo_fails_at_load_naming_file_and_entry(tmp_path, where, change, message):
    file = raw()
    file[where][0] = {**file[where][0], **change}
    path = tmp_path / "armada.json"
    path.write_text(json.dumps(file))
    with pytest.raises(DataError) as caught:
        load_armada(path)
    assert str(path) in str(caught.value) and message in str(caught.value)


def test_a_duplicate_island_is_refused(tmp_path):
    file = raw()
    file["islands"].append(file["islands"][0])
    path = tmp_path / "armada.json"
    path.write_text(json.dumps(file))
    with pytest.raises(DataError, match="islands entry 'Overgrown Island': duplicate"):
        load_armada(path)
