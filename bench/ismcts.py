"""How strong the ismcts bot is: games of one ismcts bot against other bots, with its win rate.

    python -m bench.ismcts --game duel --games 40 --budget-ms 1000
    python -m bench.ismcts --game classic --players 4 --games 40 --budget-ms 1000 [--armada]

Duel: ismcts against one opponent (seats alternate); classic: one ismcts and N-1 opponents, the
ismcts seat turning round the table. Prints one JSON line: games, the ismcts bot's wins (a tie
shared), its win rate, its decisions, the search's iterations per decision and decisions/s.
"""

import argparse
import json
import time
from typing import Any

from app.bots import make_bot
from app.engine import GameConfig, new_game


def play(config: GameConfig, seat: int, bots: list[Any]) -> float:
    game = new_game(config)
    while not game.is_over:
        for s in game.to_act:
            game.apply(s, bots[s].choose(game.view(s), game.legal_actions(s)))
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
    searching = 0.0
    for i in range(args.games):
        seed = args.seed + i
        config = GameConfig(game=args.game, players=players, seed=seed, expansions=["armada"] if args.armada else [])
        seat = i % players
        ismcts = make_bot("ismcts", seed=seed, budget_ms=args.budget_ms, iterations=args.iterations)
        bots = [ismcts if s == seat else make_bot(args.opponent, seed=seed * 10 + s) for s in range(players)]
        started = time.process_time()
        wins += play(config, seat, bots)
        searching += time.process_time() - started
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
                "cpu_s_per_game": round(searching / args.games, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
