"""Armada fleet balance: bots that each push one fleet play Armada games against each other.

    python -m bench.armada_balance [--games N] [--players 3 4 5 7] [--seed S] [--bonus B] [--jobs J]

Every seat is a FleetBot: the Armada-aware HeuristicBot (app.bots) with a focus. A red, yellow,
blue or green bot values every action as HeuristicBot does and adds --bonus points (default 4)
for each space its own ship moves up by it: a naval step on its track (a wonder stage's when its
board's wonder track is its track) and a free ship move that it points at its track; it never
pays a naval step on another track. The yellow bot may also take the yellow move when it
discards, valued by the space it reaches plus --discard-bonus (default 0): with the full bonus it
would discard its whole Age I hand to race up the yellow track, which measures that bot, not the
fleet. The other fleet bots never discard for yellow (it pays for a step on another track), and
the "none" bot never pays a naval step nor discards for yellow.

The focuses sit in rotation (seat s of game g takes focus (s + g) mod 5), so over every
5 games each focus plays each seat once; the seeds are fixed, so two runs with the same data
play the same games.

Each player count prints one JSON line per focus (win rate with shared wins split, so the win
rates of a player count sum to 1; mean total and its standard error; mean of every score
category; mean final ship positions; coins lost to taxes and piracy), then one summary line
(how often each island is kept, coins lost per game, which focus dominates or is useless).

A focus dominates when its win rate is above 1.5 times the fair share (1 / number of focuses)
or its mean total is above the best other focus's by more than two standard errors of the
difference. A fleet is useless when its win rate is below half the fair share or its mean
total is below the "none" bot's by more than two standard errors (the "none" bot is never
called useless: fleets are meant to beat it). A player count is balanced when no focus
dominates and no fleet is useless. `vs_others` (against every other seat), `vs_best_other`
and `vs_none` give the differences of mean totals.
"""

import argparse
import json
import math
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from app.bots.armada import ArmadaValues, is_armada
from app.bots.base import Action
from app.bots.classic_heuristic import ARMADA_NAVAL_WEIGHT, HeuristicBot
from app.engine import GameConfig, describe_components, new_game

ARMADA = describe_components()["armada"]
TRACKS = tuple(ARMADA["ship_tracks"])

FOCUSES = (*TRACKS, "none")
FOCUS_BONUS = 4.0  # points added to an action for each space it moves the bot's own ship up
DISCARD_BONUS = 0.0  # the yellow bot's bonus for a yellow discard (see the module docstring)


class FleetValues(ArmadaValues):
    """HeuristicBot's Armada values, plus a bonus for each step of the focus fleet's ship."""

    def __init__(self, view: dict[str, Any], seat: int, bot: "FleetBot") -> None:
        super().__init__(view, seat, naval_weight=ARMADA_NAVAL_WEIGHT)
        self.bot = bot

    def step_value(self, track: str, position: int, how: str) -> float:
        worth = super().step_value(track, position, how)
        if track != self.bot.focus:
            return worth
        return worth + (self.bot.discard_bonus if how == "discard" else self.bot.bonus)


class FleetBot(HeuristicBot):
    """HeuristicBot that, in Armada games, pushes one fleet (or none): see the module docstring."""

    def __init__(
        self, focus: str, seed: int | None = None, bonus: float = FOCUS_BONUS, discard_bonus: float = DISCARD_BONUS
    ) -> None:
        if focus not in FOCUSES:
            raise ValueError(f"unknown focus '{focus}'; focuses: {list(FOCUSES)}")
        super().__init__(seed)
        self.focus = focus
        self.bonus = bonus
        self.discard_bonus = discard_bonus
        self.name = f"fleet-{focus}"

    def choose(self, view: dict[str, Any], actions: list[Action]) -> Action:
        if view.get("game") == "classic" and is_armada(view):
            armada = self.armada_values(view, view["seat"])
            actions = [a for a in actions if self.paid_track(armada, a) in (None, self.focus)] or actions
        return super().choose(view, actions)

    def armada_values(self, view: dict[str, Any], seat: int) -> ArmadaValues:
        return FleetValues(view, seat, self)

    @staticmethod
    def paid_track(armada: ArmadaValues, action: Action) -> str | None:
        """The track this action pays to move a ship up on: by a naval step or a yellow discard."""
        if action["type"] == "discard":
            return "yellow" if action.get("reward") == "yellow" else None
        return armada.track_of(action) if action.get("naval") else None


# ----- playing and counting ---------------------------------------------------------------------


def focus_of(seat: int, game_index: int) -> str:
    return FOCUSES[(seat + game_index) % len(FOCUSES)]


ACTION_KINDS = ("build", "wonder", "naval_step", "discard", "yellow_discard", "keep_island")


def action_kind(action: Action) -> str:
    """How a chosen action is counted: a build or stage that pays a naval step counts as a naval step."""
    kind = action["type"]
    if action.get("naval"):
        return "naval_step"
    if kind == "discard":
        return "yellow_discard" if action.get("reward") == "yellow" else "discard"
    return "build" if kind == "build_from_discard" else kind


def play_one(players: int, seed: int, game_index: int, bonus: float, discard_bonus: float) -> dict[str, Any]:
    """One Armada game of FleetBots; what each seat scored and what happened on the way."""
    config = GameConfig(players=players, seed=seed, expansions=["armada"])
    game = new_game(config)
    focuses = [focus_of(s, game_index) for s in range(players)]
    bots = [FleetBot(f, seed * 10 + s, bonus, discard_bonus) for s, f in enumerate(focuses)]
    lost = [0] * players
    kept: list[str] = []
    done: list[Counter[str]] = [Counter() for _ in range(players)]
    while not game.is_over:
        for seat in game.to_act:
            action = bots[seat].choose(game.view(seat), game.legal_actions(seat))
            done[seat][action_kind(action)] += 1
            events = game.apply(seat, action)
            for e in events:
                if e["type"] == "coin_losses":
                    lost = [a + b for a, b in zip(lost, e["lost"], strict=True)]
                elif e["type"] == "island_kept":
                    kept.append(e["island"])
    result = game.result()
    public = game.view(None)["players"]
    share = 1 / len(result["winners"])
    seats = []
    for s, score in enumerate(result["scores"]):
        yard = public[s]["shipyard"]
        seats.append(
            {
                "focus": focuses[s],
                "win": share if s in result["winners"] else 0.0,
                "total": score["total"],
                "categories": score["categories"],
                "ships": yard["ships"],
                "naval_strength": yard["naval_strength"],
                "commercial_level": yard["commercial_level"],
                "islands": len(yard["islands"]),
                "coins_lost": lost[s],
                "actions": done[s],
            }
        )
    return {"seats": seats, "kept": kept}


def _play_args(args: tuple[int, int, int, float, float]) -> dict[str, Any]:
    return play_one(*args)


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _se(xs: list[float]) -> float:
    if len(xs) < 2:
        return 0.0
    m = _mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1) / len(xs))


def summarize(players: int, games: list[dict[str, Any]], seed: int, bonus: tuple[float, float]) -> list[dict[str, Any]]:
    """One line per focus and a summary line for one player count."""
    n_games = len(games)
    by_focus: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for g in games:
        for s in g["seats"]:
            by_focus[s["focus"]].append(s)
    fair = 1 / len(FOCUSES)
    played = [f for f in FOCUSES if by_focus[f]]
    mean = {f: _mean([r["total"] for r in by_focus[f]]) for f in played}
    se = {f: _se([r["total"] for r in by_focus[f]]) for f in played}
    lines = []
    flags: dict[str, list[str]] = {"dominates": [], "useless": []}
    for focus in played:
        rows = by_focus[focus]
        win_rate = sum(r["win"] for r in rows) / n_games
        rest = [s["total"] for f in played if f != focus for s in by_focus[f]]
        best = max((f for f in played if f != focus), key=lambda f: mean[f], default=focus)
        vs_best = mean[focus] - mean[best]
        vs_none = mean[focus] - mean.get("none", mean[focus])
        dominates = win_rate > 1.5 * fair or vs_best > 2 * math.hypot(se[focus], se[best])
        useless = focus != "none" and (
            win_rate < 0.5 * fair or -vs_none > 2 * math.hypot(se[focus], se.get("none", 0.0))
        )
        if dominates:
            flags["dominates"].append(focus)
        if useless:
            flags["useless"].append(focus)
        lines.append(
            {
                "players": players,
                "focus": focus,
                "games": n_games,
                "seat_games": len(rows),
                "win_rate": round(win_rate, 4),
                "fair_share": round(fair, 4),
                "mean_total": round(mean[focus], 2),
                "se_total": round(se[focus], 2),
                "vs_others": round(mean[focus] - _mean(rest), 2),
                "vs_best_other": round(vs_best, 2),
                "vs_none": round(vs_none, 2),
                "categories": {c: round(_mean([r["categories"][c] for r in rows]), 2) for c in rows[0]["categories"]},
                "ships": {t: round(_mean([r["ships"][t] for r in rows]), 2) for t in TRACKS},
                "naval_strength": round(_mean([r["naval_strength"] for r in rows]), 2),
                "commercial_level": round(_mean([r["commercial_level"] for r in rows]), 2),
                "islands": round(_mean([r["islands"] for r in rows]), 2),
                "coins_lost": round(_mean([r["coins_lost"] for r in rows]), 2),
                "actions": {k: round(_mean([r["actions"][k] for r in rows]), 2) for k in ACTION_KINDS},
                "dominates": dominates,
                "useless": useless,
            }
        )
    kept = Counter(name for g in games for name in g["kept"])
    names = list(ARMADA["islands"])
    lines.append(
        {
            "players": players,
            "summary": True,
            "games": n_games,
            "seed": seed,
            "bonus": bonus[0],
            "discard_bonus": bonus[1],
            "mean_total": round(_mean([s["total"] for g in games for s in g["seats"]]), 2),
            "coins_lost_per_game": round(_mean([sum(s["coins_lost"] for s in g["seats"]) for g in games]), 2),
            "islands_kept_per_game": round(_mean([len(g["kept"]) for g in games]), 2),
            "island_kept_rate": {name: round(kept[name] / n_games, 3) for name in names},
            "dominates": flags["dominates"],
            "useless": flags["useless"],
            "balanced": not flags["dominates"] and not flags["useless"],
        }
    )
    return lines


def run(
    players: int,
    games: int,
    seed: int,
    *,
    bonus: float = FOCUS_BONUS,
    discard_bonus: float = DISCARD_BONUS,
    jobs: int = 1,
) -> list[dict[str, Any]]:
    """Play `games` games at this player count (seeds seed * 100000 + players * 10000 + g)."""
    base = seed * 100_000 + players * 10_000
    work = [(players, base + g, g, bonus, discard_bonus) for g in range(games)]
    start = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            played = list(pool.map(_play_args, work, chunksize=max(1, games // (4 * jobs))))
    else:
        played = [_play_args(w) for w in work]
    lines = summarize(players, played, seed, (bonus, discard_bonus))
    lines[-1]["seconds"] = round(time.perf_counter() - start, 1)
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per player count (a multiple of 5 is fair)")
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4, 5, 7])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bonus", type=float, default=FOCUS_BONUS, help="points for moving the bot's own ship")
    parser.add_argument(
        "--discard-bonus", type=float, default=DISCARD_BONUS, help="the yellow bot's bonus for a yellow discard"
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args(argv)
    for players in args.players:
        for line in run(
            players, args.games, args.seed, bonus=args.bonus, discard_bonus=args.discard_bonus, jobs=args.jobs
        ):
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
