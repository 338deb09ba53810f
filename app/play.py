"""Play a whole game of bots in the terminal and print the score sheet.

python -m app.play --game classic --players 4 --seed 1 --bots greedy
"""

import argparse
import sys
from typing import Any

from app.bots import make_bot
from app.engine import GameConfig, new_game


def play(config: GameConfig, bot_kind: str) -> dict[str, Any]:
    game = new_game(config)
    bots = [make_bot(bot_kind, seed=config.seed * 100 + seat) for seat in range(config.seats)]
    while not game.is_over:
        for seat in game.to_act:
            game.apply(seat, bots[seat].choose(game.view(seat), game.legal_actions(seat)))
    return game.result()


def score_sheet(result: dict[str, Any]) -> str:
    scores = result["scores"]
    categories = result["categories"]
    header = ["", *(f"{s['seat']}:{s.get('wonder', '')}"[:14] for s in scores)]
    rows = [header]
    for cat in categories:
        rows.append([cat, *(str(s["categories"][cat]) for s in scores)])
    rows.append(["total", *(str(s["total"]) for s in scores)])
    rows.append(["coins", *(str(s.get("coins", "")) for s in scores)])
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines = ["  ".join(cell.rjust(w) for cell, w in zip(r, widths, strict=True)) for r in rows]
    winners = ", ".join(str(w) for w in result["winners"])
    extra = f" by {result['victory']}" if result.get("victory") else ""
    return "\n".join([*lines, f"winner(s): seat {winners}{extra}"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=["classic", "duel"], default="classic")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--side", choices=["day", "night", "random"], default="random")
    parser.add_argument("--armada", action="store_true", help="play with the Armada expansion")
    parser.add_argument("--bots", default="heuristic", help="random, greedy or heuristic")
    args = parser.parse_args(argv)
    config = GameConfig(
        game=args.game,
        players=args.players,
        seed=args.seed,
        wonder_side=args.side,
        expansions=["armada"] if args.armada else [],
    )
    print(score_sheet(play(config, args.bots)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
