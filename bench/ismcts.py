"""How strong the ismcts bot is: games of one ismcts bot against other bots, with its win rate.

    python -m bench.ismcts --game duel --games 40 --budget-ms 1000
    python -m bench.ismcts --game classic --players 4 --games 40 --budget-ms 1000 [--armada]

Duel: ismcts against one opponent (seats alternate); classic: one ismcts and N-1 opponents, the
ismcts seat turning round the table. Prints one JSON line: games, the ismcts bot's wins (a tie
shared), its win rate, its searched decisions (those with more than one choice), the search's
iterations (Duel) or rollouts (classic) per decision, the wall time per searched decision and the
iterations per CPU second (on a busy machine a wall-clock budget buys fewer of them).
"""

import argparse
import json
import time
from typing import Any

from app.bots import make_bot
from app.engine import GameConfig, new_game


def play(config: GameConfig, seat: int, bots: list[Any], clock: dict[str, float]) -> float:
    """One game; `clock` adds up the wall and CPU seconds the `seat`'s bot took to choose."""
    game = new_game(config)
    while not game.is_over:
        for s in game.to_act:
            view, legal = game.view(s), game.legal_actions(s)
            wall, cpu = time.perf_counter(), time.process_time()
            action = bots[s].choose(view, legal)
            if s == seat:
                clock["wall"] += time.perf_counter() - wall
                clock["cpu"] += time.process_time() - cpu
            game.apply(s, action)
    winners = game.result()["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=("classic", "duel"), default="duel")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--armada", action="store_true")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget-ms", type=float, default=1000)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--opponent", default="heuristic")
    args = parser.parse_args()
    players = 2 if args.game == "duel" else args.players
    wins = 0.0
    decisions = iterations = 0
    clock = {"wall": 0.0, "cpu": 0.0}
    for i in range(args.games):
        seed = args.seed + i
        config = GameConfig(game=args.game, players=players, seed=seed, expansions=["armada"] if args.armada else [])
        seat = i % players
        ismcts = make_bot("ismcts", seed=seed, budget_ms=args.budget_ms, iterations=args.iterations)
        bots = [ismcts if s == seat else make_bot(args.opponent, seed=seed * 10 + s) for s in range(players)]
        wins += play(config, seat, bots, clock)
        decisions += ismcts.stats["decisions"]
        iterations += ismcts.stats["iterations"]
    print(
        json.dumps(
            {
                "game": args.game,
                "players": players,
                "armada": args.armada,
                "opponent": args.opponent,
                "budget_ms": args.budget_ms,
                "iterations_cap": args.iterations,
                "games": args.games,
                "wins": wins,
                "win_rate": round(wins / args.games, 3),
                "searched_decisions": decisions,
                "iterations_per_decision": round(iterations / max(decisions, 1), 1),
                "ms_per_searched_decision": round(1000 * clock["wall"] / max(decisions, 1)),
                "iterations_per_cpu_s": round(iterations / max(clock["cpu"], 1e-9)),
            }
        )
    )


if __name__ == "__main__":
    main()
