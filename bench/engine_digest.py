"""A fingerprint of the engine's behaviour, to compare before and after a change meant to keep it.

    python -m bench.engine_digest [--games N]

Plays N seeded random games of each kind (classic 3, 4 and 7 players, Duel, Armada 3 and 5) and
prints one hash per kind of everything they show: every legal action list (order and key order
included), the events of every action, the refusal (or events) of altered copies of some
actions applied to clones, every seat's view and a clone's legal actions every 17 actions, and
the log, result and snapshot at the end. Equal hashes on two commits mean the same behaviour in
those games.
"""

import argparse
import hashlib
import json
import random
from typing import Any

from app.engine import Game, GameConfig, IllegalAction, new_game

KINDS = [("classic", 3, []), ("classic", 4, []), ("classic", 7, []), ("duel", 2, []),
         ("classic", 3, ["armada"]), ("classic", 5, ["armada"])]  # fmt: skip


def altered(action: dict[str, Any]) -> list[dict[str, Any]]:
    """Copies of a paid action with a wrong trade or cost, a dropped cost, or an unknown side."""
    more = json.loads(json.dumps(action))
    more["trade"]["left"]["wood"] = more["trade"]["left"].get("wood", 0) + 1
    no_cost = {k: v for k, v in action.items() if k != "cost"}
    swapped = {**no_cost, "trade": {"left": action["trade"].get("right", {}), "right": action["trade"]["left"]}}
    return [more, no_cost, swapped, {**action, "trade": {"up": {}}}]


def outcome(game: Game, seat: int, action: dict[str, Any]) -> str:
    try:
        return json.dumps(game.clone().apply(seat, action))
    except IllegalAction as e:
        return f"IllegalAction {e}"


def digest(kind: str, players: int, expansions: list[str], games: int) -> str:
    h = hashlib.sha256()
    rng = random.Random(7)
    for i in range(games):
        game = new_game(GameConfig(game=kind, players=players, seed=100 + i, expansions=expansions))
        step = 0
        while not game.is_over:
            for seat in game.to_act:
                actions = game.legal_actions(seat)
                h.update(json.dumps(actions).encode())
                action = rng.choice(actions)
                if step % 5 == 0 and "trade" in action:
                    h.update("|".join(outcome(game, seat, a) for a in altered(action)).encode())
                h.update(json.dumps(game.apply(seat, action)).encode())
                step += 1
                if step % 17 == 0:
                    h.update(json.dumps([game.view(s) for s in [None, *range(game.config.seats)]]).encode())
                    clone = game.clone()
                    h.update(json.dumps(clone.legal_actions(clone.to_act[0]) if clone.to_act else []).encode())
        for part in (game.log, game.result(), game.snapshot()):
            h.update(json.dumps(part).encode())
    return h.hexdigest()[:16]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args(argv)
    for kind, players, expansions in KINDS:
        print(kind, players, ",".join(expansions) or "-", digest(kind, players, expansions, args.games), flush=True)


if __name__ == "__main__":
    main()
