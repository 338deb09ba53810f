"""Bot strength: one bot against a table of another kind, seats rotated between games.

    python -m bench.bots --game classic --players 7 --side night --bot heuristic --vs greedy --games 200
    python -m bench.bots --game duel --bot heuristic --vs greedy --games 400 --jobs 2
    python -m bench.bots --game duel --bot ismcts --bot-option budget_ms=200 --vs heuristic --games 100

Game g (g = 0, 1, ...) is dealt from seed S + g and the tested bot (`--bot`) sits in seat
g mod N, every other seat is a `--vs` bot. Prints the win rate of the tested bot (a tie shared
among the tied winners) with its 95% Wilson interval and the fair share 1/N, the mean margin (its
total minus the best other total) with its 95% interval, and the decisions per second of each kind
(its time in `choose` only). `--json` prints the same figures as one JSON line.
"""

import argparse
import json
import math
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from app.bots import BOT_NAMES, Bot, make_bot
from app.engine import GameConfig, new_game

GAMES = ("classic", "armada", "duel")
Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class Match:
    """What to play: the game, the table and the two kinds of bot with their options."""

    game: str = "classic"
    players: int = 3
    side: str = "random"
    bot: str = "heuristic"
    vs: str = "greedy"
    bot_options: dict[str, Any] = field(default_factory=dict)
    vs_options: dict[str, Any] = field(default_factory=dict)
    seed: int = 1

    def config(self, g: int) -> GameConfig:
        if self.game == "duel":
            return GameConfig(game="duel", seed=self.seed + g)
        expansions = ["armada"] if self.game == "armada" else []
        return GameConfig(players=self.players, seed=self.seed + g, wonder_side=self.side, expansions=expansions)

    @property
    def seats(self) -> int:
        return 2 if self.game == "duel" else self.players


@dataclass(slots=True)
class Outcome:
    """One game, seen from the tested bot's seat."""

    share: float  # 1 won alone, 1/k won with k-1 others, 0 lost
    margin: int  # its total minus the best other total
    decisions: tuple[int, int]  # the tested bot's, the others'
    seconds: tuple[float, float]  # their time choosing


@dataclass(slots=True)
class Table:
    """A whole game of bots: its result, and each seat's decisions and time choosing."""

    result: dict[str, Any]
    decisions: list[int]
    seconds: list[float]


def play_table(config: GameConfig, bots: list[Bot]) -> Table:
    """Play the game to its end, seat s played by bots[s]."""
    game = new_game(config)
    decisions, seconds = [0] * len(bots), [0.0] * len(bots)
    while not game.is_over:
        for seat in game.to_act:
            view, legal = game.view(seat), game.legal_actions(seat)
            start = time.perf_counter()
            action = bots[seat].choose(view, legal)
            seconds[seat] += time.perf_counter() - start
            decisions[seat] += 1
            game.apply(seat, action)
    return Table(game.result(), decisions, seconds)


def play(match: Match, g: int) -> Outcome:
    """Game g of the match, played to its end."""
    config = match.config(g)
    hero = g % match.seats
    bots = [
        make_bot(match.bot, seed=config.seed * 10 + s, **match.bot_options)
        if s == hero
        else make_bot(match.vs, seed=config.seed * 10 + s, **match.vs_options)
        for s in range(match.seats)
    ]
    table = play_table(config, bots)
    totals = {s["seat"]: s["total"] for s in table.result["scores"]}
    best_other = max(t for s, t in totals.items() if s != hero)
    winners = table.result["winners"]
    share = 1 / len(winners) if hero in winners else 0.0
    others = [s for s in range(match.seats) if s != hero]
    return Outcome(
        share,
        totals[hero] - best_other,
        (table.decisions[hero], sum(table.decisions[s] for s in others)),
        (table.seconds[hero], sum(table.seconds[s] for s in others)),
    )


def _play_args(args: tuple[Match, int]) -> Outcome:
    return play(*args)


def outcomes(match: Match, games: int, jobs: int = 1) -> Iterator[Outcome]:
    """Games 0..games-1 of the match, in order; on `jobs` processes when jobs > 1."""
    if jobs <= 1:
        yield from (play(match, g) for g in range(games))
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(_play_args, [(match, g) for g in range(games)], chunksize=max(1, games // (jobs * 8)))


def wilson(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion p observed over n trials."""
    if n == 0:
        return 0.0, 1.0
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: list[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean and its normal-approximation 95% interval."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, mean, mean
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = z * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def summary(match: Match, results: list[Outcome]) -> dict[str, Any]:
    """The figures of a match as one JSON-able dict."""
    n = len(results)
    win = sum(r.share for r in results) / n
    low, high = wilson(win, n)
    margin, m_low, m_high = mean_interval([float(r.margin) for r in results])
    rates = []
    for who in (0, 1):
        made = sum(r.decisions[who] for r in results)
        spent = sum(r.seconds[who] for r in results)
        rates.append(round(made / spent) if spent else None)
    return {
        "game": match.game,
        "players": match.seats,
        "side": None if match.game == "duel" else match.side,
        "bot": match.bot,
        "bot_options": match.bot_options,
        "vs": match.vs,
        "vs_options": match.vs_options,
        "games": n,
        "seed": match.seed,
        "win_rate": round(win, 4),
        "win_interval": [round(low, 4), round(high, 4)],
        "fair_share": round(1 / match.seats, 4),
        "margin": round(margin, 2),
        "margin_interval": [round(m_low, 2), round(m_high, 2)],
        "decisions_per_s": {"bot": rates[0], "vs": rates[1]},
    }


def report(figures: dict[str, Any]) -> str:
    """The figures in words, one per line."""
    table = "" if figures["game"] == "duel" else f" {figures['side']}"
    others = figures["players"] - 1
    low, high = figures["win_interval"]
    m_low, m_high = figures["margin_interval"]
    rates = figures["decisions_per_s"]
    return "\n".join(
        [
            f"{figures['game']} {figures['players']} players{table}: {_named(figures['bot'], figures['bot_options'])} "
            f"vs {others} {_named(figures['vs'], figures['vs_options'])}, {figures['games']} games from seed "
            f"{figures['seed']}, seats rotated",
            f"win rate {figures['win_rate']:.3f} (95% {low:.3f} to {high:.3f}; fair share {figures['fair_share']:.3f})",
            f"mean margin {figures['margin']:+.2f} (95% {m_low:+.2f} to {m_high:+.2f})",
            f"decisions per second {figures['bot']} {rates['bot']}, {figures['vs']} {rates['vs']}",
        ]
    )


def _named(kind: str, options: dict[str, Any]) -> str:
    return kind + "".join(f" {k}={v}" for k, v in options.items())


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """key=value pairs, each value an int, a float or else a string."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise argparse.ArgumentTypeError(f"a bot option is key=value, not {pair!r}")
        for cast in (int, float):
            try:
                options[key] = cast(value)
                break
            except ValueError:
                continue
        else:
            options[key] = value
    return options


def parser(description: str | None = __doc__, *, json_option: bool = True) -> argparse.ArgumentParser:
    """The options bench.bots and bench.tournament share: the game, the table, games, seed, jobs."""
    p = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", choices=GAMES, default="classic")
    p.add_argument("--players", type=int, default=None, help="classic and Armada: 3 to 7 (default 3)")
    p.add_argument("--side", choices=["day", "night", "random"], default="random", help="wonder sides")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="processes playing games at once")
    if json_option:
        p.add_argument("--json", action="store_true", help="one JSON line instead of words")
    return p


def main(argv: list[str] | None = None) -> None:
    p = parser()
    p.add_argument("--bot", choices=BOT_NAMES, default="heuristic", help="the tested bot")
    p.add_argument("--vs", choices=BOT_NAMES, default="greedy", help="the bot in every other seat")
    p.add_argument("--bot-option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--vs-option", action="append", default=[], metavar="KEY=VALUE")
    args = p.parse_args(argv)
    if args.game == "duel" and args.players not in (None, 2):
        p.error("argument --players: Duel is played by exactly 2 players")
    if args.game != "duel" and not 3 <= (args.players or 3) <= 7:
        p.error(f"argument --players: {args.game} is played by 3 to 7 players, not {args.players}")
    if args.games < 1:
        p.error("argument --games: at least 1")
    try:
        bot_options, vs_options = parse_options(args.bot_option), parse_options(args.vs_option)
    except argparse.ArgumentTypeError as exc:
        p.error(str(exc))
    match = Match(
        game=args.game,
        players=args.players or (2 if args.game == "duel" else 3),
        side=args.side,
        bot=args.bot,
        vs=args.vs,
        bot_options=bot_options,
        vs_options=vs_options,
        seed=args.seed,
    )
    figures = summary(match, list(outcomes(match, args.games, args.jobs)))
    print(json.dumps(figures) if args.json else report(figures), flush=True)


if __name__ == "__main__":
    main()
