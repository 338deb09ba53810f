"""What a game review costs: one game each of 7 Wonders at 3, 4 and 7 players, Armada at 4 and Duel,
played by heuristic bots, then reviewed as the server does (app/bots/advice.review_from_log: every
decision of every seat, from that seat's information set, `--budget-ms` of search per decision).

    python -m bench.review [--budget-ms 300] [--seed 1] [--only classic-7]

Prints one JSON line per game: its decisions (steps), those searched (more than one distinct
choice), the review's CPU seconds (process time, in this one process) and wall seconds, and a last
line with the target: at most 60 CPU seconds for the 7-player game at the default budget
(REVIEW_BUDGET_MS, 300 ms). A budget is wall time: on a busy machine a decision gets fewer rollouts,
and the CPU seconds stay near budget x decisions searched.
"""

import argparse
import json
import time
from typing import Any

from app.bots import make_bot
from app.bots.advice import review_from_log
from app.engine import GameConfig, new_game

GAMES = {
    "classic-3": GameConfig(game="classic", players=3),
    "classic-4": GameConfig(game="classic", players=4),
    "classic-7": GameConfig(game="classic", players=7),
    "armada-4": GameConfig(game="classic", players=4, expansions=["armada"]),
    "duel": GameConfig(game="duel"),
}
TARGET_CPU_SECONDS = 60.0


def played(config: GameConfig, seed: int) -> list[dict[str, Any]]:
    """A whole game by heuristic bots: its log."""
    config = config.model_copy(update={"seed": seed})
    game = new_game(config)
    bots = [make_bot("heuristic", seed=seed + s) for s in range(config.seats)]
    steps = []
    while not game.is_over:
        for s in game.to_act:
            action = bots[s].choose(game.view(s), game.legal_actions(s))
            steps.append({"seat": s, "action": action})
            game.apply(s, action)
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--budget-ms", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=sorted(GAMES), action="append")
    args = parser.parse_args()
    for name in args.only or GAMES:
        config = GAMES[name].model_copy(update={"seed": args.seed})
        steps = played(config, args.seed)
        wall = time.perf_counter()
        review = review_from_log(config.model_dump(mode="json"), steps, seed=args.seed, budget_ms=args.budget_ms)
        searched = sum(1 for s in review["seats"] for d in s["decisions"] if d["samples"])
        line = {
            "game": name,
            "budget_ms": args.budget_ms,
            "decisions": len(steps),
            "searched": searched,
            "cpu_seconds": review["cpu_seconds"],
            "wall_seconds": round(time.perf_counter() - wall, 2),
            "points_lost": [s["points_lost"] for s in review["seats"]],
        }
        if name == "classic-7":
            line["target_cpu_seconds"] = TARGET_CPU_SECONDS
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
