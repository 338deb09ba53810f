"""What checking an action's shape costs, per action, on the path every submitted action takes.

    python -m bench.action_schema [--actions 10000] [--games 6] [--repeat 7]

Collects the actions random players choose in random games (7 Wonders, with Armada, and Duel), then
times, per action: the shape check alone (`game_action`, the discriminated union of app/api/actions.py),
and a whole websocket `action` message parsed as the server does (JSON text -> `client_message`),
against the same message with the action typed as a bare JSON object (what the server did before).
Prints one JSON line: microseconds of CPU time per action (the best of `--repeat` runs) for each.
"""

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from app.api.actions import game_action
from app.api.ws_messages import client_message
from app.engine import GameConfig, new_game


class _UntypedActionMsg(BaseModel):
    """The websocket action message as it was: the action as any JSON object."""

    model_config = ConfigDict(extra="forbid")
    type: str
    action: dict[str, Any]
    version: int = Field(ge=0)
    action_id: str | None = None


def chosen_actions(games: int, seed: int) -> list[dict[str, Any]]:
    """The actions random players choose, in games of every kind."""
    configs = [
        *(GameConfig(game="classic", players=3 + i % 5, seed=seed + i) for i in range(games)),
        *(GameConfig(game="classic", players=3 + i % 5, seed=seed + i, expansions=["armada"]) for i in range(games)),
        *(GameConfig(game="duel", seed=seed + i) for i in range(games)),
    ]
    out = []
    for config in configs:
        rng = random.Random(config.seed)
        game = new_game(config)
        while not game.is_over:
            for seat in game.to_act:
                action = rng.choice(game.legal_actions(seat))
                out.append(action)
                game.apply(seat, action)
    return out


def best_us(run: Callable[[], None], count: int, repeat: int) -> float:
    """Microseconds of this process's CPU time per item, the best of `repeat` runs (steadier than the
    wall clock on a busy machine)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return round(best / count * 1e6, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pool = chosen_actions(args.games, args.seed)
    actions = [pool[i % len(pool)] for i in range(args.actions)]
    for action in actions:  # every chosen action fits its shape, unchanged
        assert game_action.validate_python(action) == action, action
    texts = [
        json.dumps({"type": "action", "action": a, "version": 3, "action_id": f"a{i}"}) for i, a in enumerate(actions)
    ]
    untyped = TypeAdapter(_UntypedActionMsg)
    n = len(actions)

    def shape() -> None:
        for action in actions:
            game_action.validate_python(action)

    def typed_message() -> None:
        for text in texts:
            client_message.validate_python(json.loads(text))

    def untyped_message() -> None:
        for text in texts:
            untyped.validate_python(json.loads(text))

    print(
        json.dumps(
            {
                "actions": n,
                "distinct_games": 3 * args.games,
                "shape_check_us": best_us(shape, n, args.repeat),
                "ws_message_typed_us": best_us(typed_message, n, args.repeat),
                "ws_message_untyped_us": best_us(untyped_message, n, args.repeat),
            }
        )
    )


if __name__ == "__main__":
    main()
