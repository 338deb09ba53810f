"""Engine benchmark for 7 Wonders Duel: random legal games on one core.

    python -m bench.duel --games 2000 --seed 1

Prints one JSON line: game, players, games, seconds, games_per_s, decisions_per_s and how the
games were won. `cpu_games_per_s` counts this process's CPU time only: on a shared, busy
machine it shows what one free core would do. `bench.engine --game duel` uses `run`.
"""

import argparse
import json
import random
import sys
import time
from collections import Counter
from typing import Any

from app.engine import GameConfig, new_game


def run(games: int, seed: int) -> dict[str, Any]:
    """Play `games` games with uniformly random legal actions; seeds seed, seed+1, ..."""
    rng = random.Random(seed)
    new_game(GameConfig(game="duel", seed=seed))  # load the data before timing
    decisions = 0
    victories: Counter[str] = Counter()
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(games):
        game = new_game(GameConfig(game="duel", seed=seed + i))
        while not game.is_over:
            seat = game.to_act[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            decisions += 1
        victories[game.result()["victory"]] += 1
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start
    return {
        "game": "duel",
        "players": 2,
        "games": games,
        "seed": seed,
        "seconds": round(seconds, 3),
        "games_per_s": round(games / seconds, 1),
        "decisions_per_s": round(decisions / seconds),
        "decisions_per_game": round(decisions / games, 1),
        "cpu_games_per_s": round(games / cpu_seconds, 1),
        "victories": dict(sorted(victories.items())),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(json.dumps(run(args.games, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
