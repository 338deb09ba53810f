"""Golden games: every bot plays fixed games at fixed seeds exactly as recorded.

Each case plays one complete game (classic 3, 4 and 7 players on day and night sides, Armada at
3, 5 and 7 players and with Siracusa, Duel; every seat the same bot kind, plus mixed tables and
bench.armada_balance's FleetBots) and compares a digest of it, the sha256 of the engine's JSON
action log and the result, with the one recorded here.

The digests change only when a bot's play is meant to change (a new weight, a new rule of thumb)
or when the engine's own rules, views or legal actions change: a refactor of the bots (how they
read the cards, how they are organised) keeps every digest. When a change of play is intended,
regenerate them with `.venv/bin/python -m tests.bots.test_bots_golden` and say in the commit
why the bots play differently.
"""

import hashlib
import json
from typing import Any

import pytest

from app.bots import Bot, make_bot
from app.engine import GameConfig, new_game

KINDS = ("random", "greedy", "heuristic")
FOCUSES = ("red", "yellow", "blue", "green", "none")


def _cases() -> dict[str, tuple[dict[str, Any], list[str]]]:
    """name: (GameConfig arguments, the bot kind of each seat; 'fleet-<focus>' is a FleetBot)."""
    cases: dict[str, tuple[dict[str, Any], list[str]]] = {}
    for kind in KINDS:
        for players in (3, 4, 7):
            for side in ("day", "night"):
                config = {"players": players, "seed": players * 2 + (side == "night"), "wonder_side": side}
                cases[f"classic-{players}-{side}-{kind}"] = (config, [kind] * players)
        for players in (3, 5, 7):
            config = {"players": players, "seed": 20 + players, "expansions": ["armada"]}
            cases[f"armada-{players}-{kind}"] = (config, [kind] * players)
        siracusa = {
            "players": 3,
            "seed": 5,
            "expansions": ["armada"],
            "wonders": ["Siracusa", "Rhodos", "Gizah"],
            "wonder_side": "night",
        }
        cases[f"armada-siracusa-{kind}"] = (siracusa, [kind] * 3)
        cases[f"duel-{kind}"] = ({"game": "duel", "seed": 31}, [kind] * 2)
    mixed = ["heuristic", "greedy", "random", "heuristic", "greedy"]
    cases["classic-5-mixed"] = ({"players": 5, "seed": 41}, mixed)
    cases["armada-5-mixed"] = ({"players": 5, "seed": 42, "expansions": ["armada"]}, mixed)
    cases["armada-5-fleet"] = ({"players": 5, "seed": 43, "expansions": ["armada"]}, [f"fleet-{f}" for f in FOCUSES])
    return cases


CASES = _cases()

GOLDEN: dict[str, str] = {
    "armada-3-greedy": "0dfa20bbad12cf34daaaa745e1b94fc8d4f97482fc7e8c957042e2c369f07836",
    "armada-3-heuristic": "28af84a0b85ed9ad2ec98a40b15699e0cfe961d9a48ca88c1fec797055c9e6d1",
    "armada-3-random": "68f518ff63eeb1731664bd5e46706f959e21b63bb6f2e9256da5050cd6ba641d",
    "armada-5-fleet": "9fd64bf0d7a5e76b05ec270861652cbe0f0e109693a2a65ae199a9fc315857e8",
    "armada-5-greedy": "661e1811e46699d464a929368f43b70e663f576e36a3e7289e5528e7eef2d49e",
    "armada-5-heuristic": "2f605bddb6b13efe99436a626322423b8f326741317f4cdf46bf13a29c8d9877",
    "armada-5-mixed": "32e3d1c85efc011cb295d50040d3314c1d48790bd62411a9e0a2e01b2e7653f4",
    "armada-5-random": "985dd473d1830b821981dd33ec8b363f1cf6f9b44185606be8445d53873bd259",
    "armada-7-greedy": "4134a415a577ef7e0e05955c168ad1258a7bfe9acdefd80ca415e31a3adc7ff9",
    "armada-7-heuristic": "3bcc52d3d2044f29b28209fd0451f80693d437b8b70bc88c97cb342cb455b389",
    "armada-7-random": "6a8701ddbce01697dcfc9cf589ea713ef6dbbac981e9ce21746a15ed383b2a3e",
    "armada-siracusa-greedy": "a06c3a18044a9c6c99dd70d8c0045824c2d9d18d91a35171ec1c4afb74a34796",
    "armada-siracusa-heuristic": "b41028e4610144b59457dbfa1d89a859e069963a818bcb8f1cfdff504953a59d",
    "armada-siracusa-random": "6441c5e20ed59ec23c8994f50ff34c3ef9ba7315ad8bbcbb2786d8cd88654f09",
    "classic-3-day-greedy": "d0d575635a420838b5b8de5cd3d1c8c7f10fdb8fb712c589a9fa809cbe5f830f",
    "classic-3-day-heuristic": "b35a7385b07052703aa202908765d0a1303b4cfb49697d69eec5c0a37d709e48",
    "classic-3-day-random": "fd444e3197fb9c8166f4fa6ee8a7cc5533418c7c94629257d5577660719d6ac7",
    "classic-3-night-greedy": "d2753dde6d12a611ffd258904e264956bab2f6f2e6a50d2df8671169611c3286",
    "classic-3-night-heuristic": "a9ba893442d9d72af56164a745680e00afd9b27b0498c7be62a1dc7eac1569d2",
    "classic-3-night-random": "5e69cfcb0b46eae49b12b7915570f18dc75ac3a6e75747073f9f6e414f13d1d8",
    "classic-4-day-greedy": "d57c787403bbb0075f05a249a01155c69570c750c1265ab11c3de4b32236aa50",
    "classic-4-day-heuristic": "bc3cdc2708000e1476c250eeb6fe3ce161c5963949b4a78c81b7f7679c4b61fc",
    "classic-4-day-random": "a48c19b71d8a59df4ca2fb5109c6fc985639b4a6f7baf5739e9a53ecfa93180a",
    "classic-4-night-greedy": "234444358273a0f88b0aaad5b8871a5bb2cb4c0b3af86add92594b5e50417b0b",
    "classic-4-night-heuristic": "15aa3a772f1b4857e86ec4de50e9a557f2d42194a010169dfd24e69279a795af",
    "classic-4-night-random": "cffeb83c6b524c486239bd189ca99247673b5a41bb8538bed11f572bd1f49a07",
    "classic-5-mixed": "8d6fadc31e81fb0616b90f5529a9943af60d13f4b52b9f6f8dc5ee189a705398",
    "classic-7-day-greedy": "9eed3d3bf0a74be72713334d1ae93bea458af4af9852dc8dc320c1b15fb55379",
    "classic-7-day-heuristic": "5fb2bca724133cc7394d2b32f211d994a4a3608fe52f7aea693a655c09ca0785",
    "classic-7-day-random": "11e81be8988b641f181d2bc63617bc4349e3cc41ee6fcc76f3038b13fb79b1f4",
    "classic-7-night-greedy": "f153e62db570bf04b7f7436583fc31999984bb1e39f663b34ddd66397b10ef3e",
    "classic-7-night-heuristic": "289f26ac30dac5bc5508f4a61cdde97158aa0beddf13c34bb1596a880778da05",
    "classic-7-night-random": "258f5eb41597627f662e5e6a68dac770a515f59050f04d177b2dec86e3103870",
    "duel-greedy": "9a341f5f0dda18e5252b7f2ff9202d86ec8f4cfea37cbd0bf771fff42224b445",
    "duel-heuristic": "c106c27a6438098925a61fe6428165ae77a88561669ba6fd0aeec4fe92fd6aa9",
    "duel-random": "9c8f3abc18d07866cb1f0d75a9f671d8719227444ff4ce0598b6f2eca4cc98e3",
}


def _bot(kind: str, seed: int) -> Bot:
    if kind.startswith("fleet-"):
        from bench.armada_balance import FleetBot

        return FleetBot(kind.removeprefix("fleet-"), seed)
    return make_bot(kind, seed=seed)


def digest(name: str) -> str:
    """Play the case's game to its end; the sha256 of its action log and result."""
    config, kinds = CASES[name]
    game = new_game(GameConfig(**config))
    seed = config["seed"]
    bots = [_bot(kind, seed * 10 + seat) for seat, kind in enumerate(kinds)]
    while not game.is_over:
        for seat in game.to_act:
            game.apply(seat, bots[seat].choose(game.view(seat), game.legal_actions(seat)))
    record = {"log": game.log, "result": game.result()}
    return hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()


def test_every_case_has_a_digest() -> None:
    assert sorted(GOLDEN) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_bots_play_the_recorded_game(name: str) -> None:
    assert digest(name) == GOLDEN.get(name), f"{name}: the bots played a different game"


if __name__ == "__main__":  # print the digests to paste into GOLDEN
    for case in sorted(CASES):
        print(f'    "{case}": "{digest(case)}",')
