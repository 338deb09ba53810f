"""The client's command line: join a room (or take a seat by token or rejoin link) and play it with
a bot of app.bots to the game's end, one line per notable event (`python -m app.bots.client`, or
`python -m app.client`; see docs/BOTS.md)."""

import argparse
import asyncio
import json
import sys
from typing import NoReturn

from app.bots import BOTS, DEFAULT_BOT
from app.client.api import play
from app.client.errors import ClientError
from app.client.rest import parse_rejoin_link


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not the usage block
        self.exit(2, f"error: {message} (see --help)\n")


def _arguments() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m app.bots.client",
        description="Join a room of a Wonders server and play one seat with a bot until the game ends.",
        epilog="Exit status: 0 when the game finished, 1 on an error or an abandoned game, 2 for bad arguments.",
    )
    parser.add_argument("url", help="the server, e.g. http://127.0.0.1:8000")
    parser.add_argument("code", nargs="?", help="the room code (not needed with a --rejoin-link URL)")
    parser.add_argument("--name", help="the seat's name when joining (default: '<Bot> client')")
    parser.add_argument(
        "--bot", default=DEFAULT_BOT, help=f"the bot that plays: {', '.join(BOTS)} (default {DEFAULT_BOT})"
    )
    parser.add_argument("--seed", type=int, help="the bot's own random seed")
    parser.add_argument("--seat", type=int, help="a preferred free seat (else the first free one)")
    held = parser.add_mutually_exclusive_group()
    held.add_argument("--token", help="play the seat this token holds instead of joining")
    held.add_argument("--rejoin-link", help="take a seat with the server's rejoin link (its URL, or its token)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every decision")
    parser.add_argument(
        "--retry-for", type=float, default=300.0, help="seconds to keep reconnecting after a lost connection (300)"
    )
    parser.add_argument("--json", action="store_true", help="print the outcome as one JSON line at the end")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _arguments()
    args = parser.parse_args(argv)
    if args.bot not in BOTS:
        parser.error(f"unknown bot {args.bot!r}; bots: {', '.join(BOTS)}")
    if args.seat is not None and (args.token or args.rejoin_link):
        parser.error("--seat is for joining, not with --token or --rejoin-link")
    if not args.code and not (args.rejoin_link and parse_rejoin_link(args.rejoin_link)[0]):
        parser.error("give the room code")

    def say(line: str) -> None:
        print(line, flush=True)

    try:
        outcome = asyncio.run(
            play(
                args.url,
                args.code,
                args.bot,
                name=args.name or f"{args.bot.capitalize()} client",
                seat=args.seat,
                token=args.token,
                rejoin_link=args.rejoin_link,
                seed=args.seed,
                log=say,
                verbose=args.verbose,
                retry_for=args.retry_for,
            )
        )
    except ClientError as exc:
        print(f"error: {exc.message}", file=sys.stderr, flush=True)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr, flush=True)
        return 130
    if args.json:
        say(
            json.dumps(
                {
                    "code": outcome.code,
                    "seat": outcome.seat,
                    "game_id": outcome.game_id,
                    "status": outcome.status,
                    "version": outcome.version,
                    "actions": outcome.actions,
                    "reconnects": outcome.reconnects,
                    "timeouts": outcome.timeouts,
                    "result": outcome.result,
                }
            )
        )
    return 0 if outcome.status == "finished" else 1
