"""Armada fleet balance: bots that each push one fleet play Armada games against each other.

    python -m bench.armada_balance [--games N] [--players 3 4 5 7] [--seed S] [--bonus B] [--jobs J]

Every seat is a FleetBot: the classic HeuristicBot with a focus. A red, yellow, blue or green
bot strongly prefers the actions that move its own ship: it adds --bonus points (default 4) to
a build or wonder stage that pays the naval step on its track (a stage when its board's wonder
track is its track) and to a free ship move that it points at its track; it never pays a step
on another track. The yellow bot also takes the yellow move whenever it discards, valued by the
space it reaches plus --discard-bonus (default 0): with the full bonus it would discard its
whole Age I hand to race up the yellow track, which measures that bot, not the fleet. The
"none" bot never pays a naval step nor discards for yellow. Otherwise each bot plays as
HeuristicBot, with Armada cards, islands and spaces valued in estimated points.

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
from functools import cache
from typing import Any

from app.bots.base import Action
from app.bots.classic_heuristic import HeuristicBot
from app.engine import GameConfig, new_game
from app.engine.classic.armada_data import (
    TRACKS,
    CoinsPerShipMove,
    CommercialLevel,
    Explore,
    FarTrade,
    Flag,
    IslandDef,
    Landing,
    NavalStrength,
    PerOwn,
    Piracy,
    TakeIsland,
    Tax,
    armada_data,
)
from app.engine.classic.data import CardDef, Effects, StageDef, classic_data
from app.engine.classic.scoring import ARMADA_CATEGORIES

FOCUSES = (*TRACKS, "none")
FOCUS_BONUS = 4.0  # points added to an action that moves the bot's own ship one space
DISCARD_BONUS = 0.0  # the yellow bot's bonus for a yellow discard (see the module docstring)
TOP = 6
ISLAND_WORTH = {1: 2.0, 2: 3.0, 3: 4.0}  # an exploration or a drawn island, before seeing it
FLAG_WORTH = {"coin_loss_immunity": 1.0, "naval_defeat_immunity": 1.5, "naval_discount": 1.0}
HURT = 0.1  # points per coin an opponent loses to my taxes or piracy (a third of a point, shared)
SYMBOLS = ("compass", "gear", "tablet")


@cache
def cards_by_name() -> dict[str, CardDef]:
    data = classic_data()
    return {c.name: c for c in (*data.cards, *data.guilds, *armada_data().cards)}


@cache
def islands_by_name() -> dict[str, IslandDef]:
    return {i.name: i for i in armada_data().islands}


@cache
def stages_of(wonder: str, side: str) -> tuple[StageDef, ...]:
    for w in (*classic_data().wonders, *armada_data().wonders):
        if w.name == wonder:
            return w.sides[side]
    raise KeyError(wonder)


def naval_reward(strengths: list[int], seat: int, age: int) -> int:
    """The naval token this seat would take at the end of `age` (the engine's rule, ties included)."""
    data = armada_data()
    if len(set(strengths)) == 1:
        return 0
    mine = strengths[seat]
    if mine == min(strengths):
        return data.weakest[age]
    position = 1 + sum(1 for s in strengths if s > mine)
    rank = position + (1 if strengths.count(mine) > 1 else 0)
    ranks = data.ranks[age]
    return ranks[rank - 1] if rank <= len(ranks) else 0


class FleetBot(HeuristicBot):
    """HeuristicBot that, in Armada games, pushes one fleet (or none) and values Armada effects."""

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
        if view.get("game") != "classic" or "armada" not in view.get("expansions", ()):
            return super().choose(view, actions)
        seat = view["seat"]
        allowed = [a for a in actions if self.allowed(view, seat, a)] or actions
        return max(allowed, key=lambda a: (self.armada_value(view, seat, a), self.rng.random()))

    # ----- which actions this focus may take ---------------------------------------------------

    @staticmethod
    def paid_track(view: dict[str, Any], seat: int, action: Action) -> str | None:
        """The track this action moves a ship up on by a naval step or a yellow discard."""
        if action["type"] == "discard":
            return "yellow" if action.get("reward") == "yellow" else None
        if not action.get("naval"):
            return None
        if action["type"] == "wonder":
            return view["players"][seat]["shipyard"]["wonder_track"]
        return cards_by_name()[action["card"]].color

    def allowed(self, view: dict[str, Any], seat: int, action: Action) -> bool:
        track = self.paid_track(view, seat, action)
        return track is None or track == self.focus

    # ----- what an action is worth ---------------------------------------------------------------

    def armada_value(self, view: dict[str, Any], seat: int, action: Action) -> float:
        kind = action["type"]
        me = view["players"][seat]
        ships = dict(me["shipyard"]["ships"])
        if kind == "pass":
            return 0.0
        if kind == "keep_island":
            effects = islands_by_name()[action["island"]].effects
            worth = self.effects_value(view, seat, effects) + self.extras_value(view, seat, effects)
        elif kind == "discard":
            if action.get("reward") != "yellow":
                return 1.0  # 3 coins, as HeuristicBot
            worth = self.step_value(view, seat, "yellow", ships) + (self.discard_bonus if self.focus == "yellow" else 0)
        else:
            if kind == "wonder":
                effects = stages_of(me["wonder"], me["side"])[action["stage"] - 1].effects
                worth = self.effects_value(view, seat, effects) + 1.0  # stages also hide a card
            else:
                card = cards_by_name()[action["card"]]
                effects = card.effects
                worth = self.effects_value(view, seat, effects) + self.card_extras(view, seat, card)
            worth += self.extras_value(view, seat, effects)
            track = self.paid_track(view, seat, action)
            if track is not None:
                worth += self.step_value(view, seat, track, ships) + self.focus_bonus(track)
            cost = action.get("cost") or {}
            paid = sum(cost.values())
            trading = sum(v for k, v in cost.items() if k != "bank")
            worth -= paid / 3 + trading * 0.1
        for track in action.get("moves", ()):
            worth += self.step_value(view, seat, track, ships) + self.focus_bonus(track)
        return worth

    @staticmethod
    def count(view: dict[str, Any], seat: int, what: str, colors: list[str] | None, whose: list[str]) -> int:
        """HeuristicBot.count, knowing the Armada cards too."""
        players = view["players"]
        me = players[seat]
        total = 0
        for who in whose:
            p = me if who == "self" else players[me[who]]
            if what == "card":
                total += sum(1 for name in p["city"] if cards_by_name()[name].color in (colors or ()))
            elif what == "wonder_stage":
                total += p["stages_built"]
            else:
                total += sum(1 for t in p["military_tokens"] if t < 0)
        return total

    def focus_bonus(self, track: str) -> float:
        return self.bonus if track == self.focus else 0.0

    def step_value(self, view: dict[str, Any], seat: int, track: str, ships: dict[str, int]) -> float:
        """What the next space of this track gives; `ships` is advanced (several moves in one action)."""
        position = ships[track]
        if position >= TOP:
            return 0.0
        ships[track] = position + 1
        space = armada_data().spaces[track][position]
        return self.effects_value(view, seat, space) + self.extras_value(view, seat, space)

    def extras_value(self, view: dict[str, Any], seat: int, effects: Effects) -> float:
        """Armada's effects, in estimated points (ship moves are valued by the moves chosen)."""
        if not effects.extra:
            return 0.0
        players = view["players"]
        me = players[seat]["shipyard"]
        others = [p["shipyard"] for p in players if p["seat"] != seat]
        ages_left = 3 - view["age"]
        worth = 0.0
        for e in effects.extra:
            match e:
                case NavalStrength():
                    worth += self.naval_value(view, seat, e.amount)
                case CommercialLevel():
                    worth += 0.1 * e.amount  # shelter from taxes, exposure to piracy: about even
                case Tax():
                    worth += HURT * e.amount * sum(1 for o in others if o["commercial_level"] <= me["commercial_level"])
                case Piracy():
                    worth += HURT * sum(o["commercial_level"] for o in others)
                case Explore() | TakeIsland():
                    worth += ISLAND_WORTH[e.level] if len(me["islands"]) < 3 else 0.0
                case Landing():
                    worth += 1.0
                case FarTrade():
                    worth += 0.8 * (ages_left + 0.5)
                case PerOwn() if e.type == "vp_per_commercial_level":
                    worth += e.amount * (me["commercial_level"] + 0.5 * ages_left)
                case PerOwn() if e.type == "vp_per_island":
                    worth += e.amount * (len(me["islands"]) + 0.5 * ages_left)
                case PerOwn():
                    colors = Counter(cards_by_name()[name].color for name in players[seat]["city"])
                    worth += e.amount * max(colors.values(), default=0)
                case CoinsPerShipMove():
                    worth += e.amount * (ages_left + 1)
                case Flag() if e.type == "science_most_common":
                    science = players[seat]["science"]
                    worth += self.science_value(view, seat, max(SYMBOLS, key=lambda s: science.get(s, 0)))
                case Flag():
                    worth += FLAG_WORTH.get(e.type, 1.0) * (1 + ages_left / 2)
        return worth

    def naval_value(self, view: dict[str, Any], seat: int, amount: int) -> float:
        """Change in naval tokens now (and half of it in the Ages to come) from more naval strength."""
        strengths = [p["shipyard"]["naval_strength"] for p in view["players"]]
        stronger = list(strengths)
        stronger[seat] += amount
        worth = 0.0
        for age in range(view["age"], 4):
            weight = 1.0 if age == view["age"] else 0.5
            worth += weight * (naval_reward(stronger, seat, age) - naval_reward(strengths, seat, age))
        return worth


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
                "categories": {c: round(_mean([r["categories"][c] for r in rows]), 2) for c in ARMADA_CATEGORIES},
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
    names = [i.name for i in armada_data().islands]
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
