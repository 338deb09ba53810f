"""Play a whole game of bots in the terminal and print the score sheet.

python -m app.play --game classic --players 4 --seed 1 --bots greedy
python -m app.play --bots medium          # a level: easy, medium or hard, as rooms offer them
"""

import argparse
import sys
from typing import Any

from pydantic import ValidationError

from app.bots import BOT_NAMES, BOTS, DEFAULT_BOT, LEVEL_NAMES, make_bot
from app.engine import GameConfig, game_kind, game_kinds, new_game


def play(config: GameConfig, bot_kind: str) -> dict[str, Any]:
    game = new_game(config)
    bots = [make_bot(bot_kind, seed=config.seed * 100 + seat) for seat in range(config.seats)]
    while not game.is_over:
        for seat in game.to_act:
            game.apply(seat, bots[seat].choose(game.view(seat), game.legal_actions(seat)))
    return game.result()


def _who(score: dict[str, Any]) -> str:
    """A seat in words: `seat 0`, and its wonder and side when it has one (classic)."""
    wonder = f" {score['wonder']} ({score['side']})" if score.get("wonder") else ""
    return f"seat {score['seat']}{wonder}"


def score_sheet(result: dict[str, Any]) -> str:
    """The score sheet as a table: a column per seat (headed by the seat, then its wonder and side in
    the classic game), a row per category, the totals and coins; then the winner line."""
    scores = result["scores"]
    header = [["", *(f"seat {s['seat']}" for s in scores)]]
    if any(s.get("wonder") for s in scores):
        header.append(["", *(str(s.get("wonder", "")) for s in scores)])
        header.append(["", *(str(s.get("side", "")) for s in scores)])
    body = [[cat, *(str(s["categories"][cat]) for s in scores)] for cat in result["categories"]]
    body.append(["total", *(str(s["total"]) for s in scores)])
    body.append(["coins", *(str(s.get("coins", "")) for s in scores)])
    rows = header + body
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    rule = ["-" * w for w in widths]
    lines = ["  ".join(cell.rjust(w) for cell, w in zip(r, widths, strict=True)) for r in [*header, rule, *body]]
    by_seat = {s["seat"]: s for s in scores}
    winners = ", ".join(_who(by_seat[w]) for w in result["winners"])
    label = "winner" if len(result["winners"]) == 1 else "winners (tied)"
    victory = f", {result['victory']} victory" if result.get("victory") else ""
    return "\n".join([*lines, f"{label}: {winners}{victory}"])


def config_from(args: argparse.Namespace) -> GameConfig:
    """The GameConfig the options ask for; ValueError, in words for the command line, if none fits."""
    low, high = game_kind(args.game).players
    if args.players is not None and not low <= args.players <= high:
        allowed = f"exactly {low}" if low == high else f"{low} to {high}"
        raise ValueError(f"argument --players: {args.game} is played by {allowed} players, not {args.players}")
    if args.armada and "armada" not in game_kind(args.game).expansions:
        owner = next(k["name"] for k in game_kinds() if any(e["name"] == "armada" for e in k["expansions"]))
        raise ValueError(f"argument --armada: Armada is an expansion of the {owner} game, not of {args.game}")
    try:
        return GameConfig(
            game=args.game,
            players=args.players,
            seed=args.seed,
            wonder_side=args.side,
            expansions=["armada"] if args.armada else [],
        )
    except ValidationError as exc:  # anything else GameConfig refuses, in its own words
        error = exc.errors()[0]
        raise ValueError(str(error.get("ctx", {}).get("error", error["msg"]))) from None


def players_text(kind: dict[str, Any]) -> str:
    """'3 to 7 (default 3)', 'exactly 2'."""
    low, high = kind["players"]["min"], kind["players"]["max"]
    return f"exactly {low}" if low == high else f"{low} to {high} (default {low})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m app.play", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    kinds = game_kinds()
    parser.add_argument("--game", choices=[k["name"] for k in kinds], default=kinds[0]["name"])
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help="; ".join(f"{k['name']}: {players_text(k)}" for k in kinds),
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--side", choices=["day", "night", "random"], default="random")
    parser.add_argument("--armada", action="store_true", help="play with the Armada expansion (classic)")
    parser.add_argument(
        "--bots",
        choices=BOT_NAMES,
        default=DEFAULT_BOT,
        metavar="BOT",
        help=f"a bot kind ({', '.join(sorted(BOTS))}) or level ({', '.join(LEVEL_NAMES)}); default {DEFAULT_BOT}",
    )
    args = parser.parse_args(argv)
    try:
        config = config_from(args)
    except ValueError as exc:
        parser.error(str(exc))  # one line on stderr, exit 2
    print(score_sheet(play(config, args.bots)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
