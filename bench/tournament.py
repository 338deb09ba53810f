"""A round robin of bot kinds, rated with OpenSkill (the `openskill` package, Plackett-Luce model).

    python -m bench.tournament --game duel --games 50
    python -m bench.tournament --game classic --players 4 --kinds random greedy heuristic --games 40
    python -m bench.tournament --game duel --bot-option ismcts:budget_ms=100

Every pair of kinds plays `--games` games: game g of a pairing is dealt from seed S + g, and its
seats alternate between the two kinds (seat s plays the first kind when s + g is even), so both
sit in every seat. A game ranks the two kinds by the best total among each one's seats (equal
bests tie). Prints each pairing's score (the first kind's share of the games, a tie counted
half) and then every kind's rating after all games, played in order: mu, sigma and the ordinal
mu - 3 sigma, best first. The ratings follow the order of the games, so they are reproducible
for a seed.
"""

import argparse
import itertools
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

from app.bots import BOT_NAMES, BOTS, make_bot
from bench.bots import Match, parse_options, parser, play_table


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two kinds at one kind of table."""

    first: str
    second: str
    match: Match  # the game, table and seed (its bot and vs are unused)
    options: dict[str, dict[str, Any]] = field(default_factory=dict)  # per kind

    def kinds(self, g: int) -> list[str]:
        return [self.first if (s + g) % 2 == 0 else self.second for s in range(self.match.seats)]


def rank_of_game(pairing: Pairing, g: int) -> tuple[int, int]:
    """Game g of the pairing: the ranks (1 best) of its first and second kind."""
    config = pairing.match.config(g)
    kinds = pairing.kinds(g)
    bots = [make_bot(k, seed=config.seed * 10 + s, **pairing.options.get(k, {})) for s, k in enumerate(kinds)]
    result = play_table(config, bots).result
    totals = {s["seat"]: s["total"] for s in result["scores"]}
    winners = set(result["winners"])
    best = {}
    for kind in (pairing.first, pairing.second):
        seats = [s for s, k in enumerate(kinds) if k == kind]
        best[kind] = (any(s in winners for s in seats), max(totals[s] for s in seats))
    first, second = best[pairing.first], best[pairing.second]
    if first == second:
        return 1, 1
    return (1, 2) if first > second else (2, 1)


def _rank_args(args: tuple[Pairing, int]) -> tuple[int, int]:
    return rank_of_game(*args)


def play_round_robin(pairings: list[Pairing], games: int, jobs: int) -> list[list[tuple[int, int]]]:
    """Each pairing's ranks, game by game."""
    work = [(p, g) for p in pairings for g in range(games)]
    if jobs <= 1:
        ranks = [rank_of_game(p, g) for p, g in work]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            ranks = list(pool.map(_rank_args, work, chunksize=max(1, len(work) // (jobs * 8))))
    return [ranks[i * games : (i + 1) * games] for i in range(len(pairings))]


def ratings(pairings: list[Pairing], ranks: list[list[tuple[int, int]]], kinds: list[str]) -> list[tuple[str, Any]]:
    """Every kind's OpenSkill rating after all games (pairing by pairing, game by game), best first."""
    model = PlackettLuce()
    rating = {k: model.rating(name=k) for k in kinds}
    for pairing, games in zip(pairings, ranks, strict=True):
        for first, second in games:
            [[a], [b]] = model.rate([[rating[pairing.first]], [rating[pairing.second]]], ranks=[first, second])
            rating[pairing.first], rating[pairing.second] = a, b
    return sorted(rating.items(), key=lambda kv: kv[1].ordinal(), reverse=True)


def report(pairings: list[Pairing], ranks: list[list[tuple[int, int]]], kinds: list[str]) -> str:
    match = pairings[0].match
    table = "" if match.game == "duel" else f" {match.seats} players {match.side}"
    lines = [
        f"{match.game}{table}: round robin of {', '.join(kinds)}, {len(ranks[0])} games per pairing from seed "
        f"{match.seed}, seats alternated"
    ]
    for pairing, games in zip(pairings, ranks, strict=True):
        score = sum(1.0 if f < s else 0.5 if f == s else 0.0 for f, s in games)
        lines.append(
            f"{pairing.first} vs {pairing.second}: {pairing.first} scored {score:g} of {len(games)} "
            f"({score / len(games):.3f})"
        )
    lines.append("ratings (OpenSkill Plackett-Luce, ordinal = mu - 3 sigma):")
    for place, (kind, r) in enumerate(ratings(pairings, ranks, kinds), 1):
        lines.append(f"{place}. {kind} mu {r.mu:.2f} sigma {r.sigma:.2f} ordinal {r.ordinal():.2f}")
    return "\n".join(lines)


def kind_options(pairs: list[str]) -> dict[str, dict[str, Any]]:
    """KIND:KEY=VALUE pairs as {kind: {key: value}}."""
    out: dict[str, dict[str, Any]] = {}
    for pair in pairs:
        kind, sep, option = pair.partition(":")
        if not sep:
            raise argparse.ArgumentTypeError(f"a bot option here is KIND:KEY=VALUE, not {pair!r}")
        out.setdefault(kind, {}).update(parse_options([option]))
    return out


def main(argv: list[str] | None = None) -> None:
    p = parser(__doc__, json_option=False)
    p.add_argument("--kinds", nargs="+", choices=BOT_NAMES, default=list(BOTS), help="default: every kind")
    p.add_argument("--bot-option", action="append", default=[], metavar="KIND:KEY=VALUE")
    p.set_defaults(games=20)
    args = p.parse_args(argv)
    kinds = list(dict.fromkeys(args.kinds))
    if len(kinds) < 2:
        p.error("argument --kinds: at least two kinds")
    if args.game != "duel" and not 3 <= (args.players or 3) <= 7:
        p.error(f"argument --players: {args.game} is played by 3 to 7 players, not {args.players}")
    try:
        options = kind_options(args.bot_option)
    except argparse.ArgumentTypeError as exc:
        p.error(str(exc))
    match = Match(game=args.game, players=args.players or 3, side=args.side, seed=args.seed)
    pairings = [Pairing(a, b, match, options) for a, b in itertools.combinations(kinds, 2)]
    ranks = play_round_robin(pairings, args.games, args.jobs)
    print(report(pairings, ranks, kinds), flush=True)


if __name__ == "__main__":
    main()
