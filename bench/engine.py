"""Engine speed: random legal games on one core.

    python -m bench.engine [--game classic|duel] [--players 3 4 7] [--games N] [--seed S] [--armada] [--built]

Each player count prints one JSON line with games, games_per_s and decisions_per_s. Random
players choose uniformly among every legal action, every payment option included;
`actions_per_game` counts the legal actions listed to them in a game (what the engine's
time grows with: an Armada game lists about 1.9x a base game's, see README). They read the
listing as a random playout does, from `lazy_legal_actions` (each action's dict made when read:
one a decision); `--built` makes every listed action's dict (`legal_actions`, what the server
and a bot weighing every action read).
"""

import argparse
import json
import random
import time
from collections import Counter
from typing import Any

from pydantic import ValidationError

from app.engine import GameConfig, game_kind, game_kinds, new_game
from bench import positive_int


def play_random(config: GameConfig, rng: random.Random, built: bool = False) -> tuple[int, int, dict[str, Any]]:
    """Play one game with uniformly random legal actions; returns (decisions, actions listed, result).
    built: list them with legal_actions (every dict made), not lazy_legal_actions."""
    game = new_game(config)
    decisions = listed = 0
    while not game.is_over:
        for seat in game.to_act:
            actions = game.legal_actions(seat) if built else game.lazy_legal_actions(seat)
            game.apply(seat, rng.choice(actions))
            decisions += 1
            listed += len(actions)
    return decisions, listed, game.result()


def run(
    game: str, players: int | None, games: int, seed: int, expansions: list[str], *, built: bool = False
) -> dict[str, Any]:
    """Time `games` random games with seeds seed, seed+1, ...; one JSON-able line of figures.

    `cpu_games_per_s` counts this process's CPU time only: on a busy machine it shows what
    one free core would do.
    """
    rng = random.Random(seed)
    new_game(GameConfig(game=game, players=players, seed=seed, expansions=expansions))  # load data first
    decisions = listed = 0
    victories: Counter[str] = Counter()
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(games):
        config = GameConfig(game=game, players=players, seed=seed + i, expansions=expansions)
        made, offered, result = play_random(config, rng, built)
        decisions += made
        listed += offered
        if "victory" in result:
            victories[result["victory"]] += 1
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    line = {
        "game": game,
        "expansions": expansions,
        "players": players or 2,
        "games": games,
        "listing": "built" if built else "lazy",
        "seed": seed,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 1),
        "decisions_per_s": round(decisions / elapsed),
        "decisions_per_game": round(decisions / games, 1),
        "actions_per_game": round(listed / games),
        "cpu_games_per_s": round(games / cpu, 1),
    }
    if victories:
        line["victories"] = dict(sorted(victories.items()))
    return line


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=[kind["name"] for kind in game_kinds()], default="classic")
    parser.add_argument("--players", type=int, nargs="*", default=None)
    parser.add_argument("--games", type=positive_int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--armada", action="store_true")
    parser.add_argument("--built", action="store_true", help="make every listed action's dict (legal_actions)")
    args = parser.parse_args(argv)
    low, high = game_kind(args.game).players
    counts = args.players or sorted({low, min(low + 1, high), high})  # classic: 3, 4 and 7; Duel: 2
    expansions = ["armada"] if args.armada else []
    for players in counts:
        try:
            GameConfig(game=args.game, players=players, expansions=expansions)
        except ValidationError as exc:
            parser.error(f"--players {players}: {exc.errors()[0]['msg']}")
        print(json.dumps(run(args.game, players, args.games, args.seed, expansions, built=args.built)), flush=True)


if __name__ == "__main__":
    main()
