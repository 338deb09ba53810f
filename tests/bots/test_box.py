"""app.bots.box: the bots' summary of the engine's public component description."""

from app.bots import box
from app.engine import describe_components

# the expansion effects app.bots.armada values by type (ship_move: the action says which ships move)
ARMADA_VALUED = {
    "naval_strength",
    "commercial_level",
    "tax",
    "piracy",
    "explore",
    "take_island",
    "landing",
    "far_trade",
    "vp_per_commercial_level",
    "vp_per_island",
    "vp_per_best_color",
    "coins_per_ship_move",
    "science_most_common",
    "coin_loss_immunity",
    "naval_defeat_immunity",
    "naval_discount",
    "ship_move",
}


def test_cards_are_summed_up_by_effect_type() -> None:
    cards = box.all_cards()
    assert cards["Lumber Yard"].effects == box.Effects(units=1)
    assert cards["Forum"].effects.choices == (("glass", "papyrus", "loom"),)
    assert cards["Loom"].age == 1 and cards["Loom"].effects.units == 1
    assert cards["Scriptorium"].effects.science == "tablet"
    assert cards["Scriptorium"].chain_to_ages == (2, 2)  # Courthouse and Library
    assert cards["East Trading Post"].effects.discounts == 1
    (per,) = cards["Vineyard"].effects.coins_per
    assert per == box.Per(1, "card", ("self", "left", "right"), ("brown",))


def test_wonders_islands_and_ship_spaces() -> None:
    stages = box.all_wonders()["Gizah"].sides["day"]
    assert [s.vp for s in stages] == [3, 5, 7]
    spaces = box.ship_spaces()
    assert set(spaces) == set(box.ship_tracks()) == {"red", "yellow", "blue", "green"}
    assert all(len(track) == 6 for track in spaces.values())
    assert spaces["red"][0].extra[0]["type"] == "naval_strength"
    assert set(box.islands()) == set(describe_components()["armada"]["islands"])


def test_every_effect_type_of_the_description_is_known_to_the_bots() -> None:
    """A new effect type in the data is summed by box.summary or valued by app.bots.armada."""
    described = describe_components()
    effects = [
        e
        for game in ("classic", "armada")
        for component in [
            *described[game]["cards"].values(),
            *(s for w in described[game]["wonders"].values() for side in w["sides"].values() for s in side),
        ]
        for e in component["effects"]
    ]
    effects += [e for i in described["armada"]["islands"].values() for e in i["effects"]]
    effects += [e for t in described["armada"]["ship_spaces"].values() for s in t for e in s["effects"]]
    extra = {e["type"] for e in effects if box.summary([e]).extra}
    assert extra <= ARMADA_VALUED
