"""Hints and reviews: the search bot's estimate, in points, of a seat's choices, from what that seat
knows (its information set: the views it was shown and its own answers), never from the real game.

`estimate` plays the search bot's candidate actions (the heuristic's best `width`, and any action
asked for: a review's action taken) in the same games sampled from the information set, with the
same rollout dice (paired, as the ismcts bot does), and gives each its **margin**: the mean, over
those played-out games, of the seat's final score minus the best other seat's. In Duel a military or
scientific supremacy counts as a margin of at least SUPREMACY_MARGIN points (the winner's, negative
for the loser). A hint's `points` are an action's margin less the best action's (0 for the best,
negative for the others); a review's points lost at a decision are the best margin less the margin
of the action taken.

`hint(views, answers, legal, ...)` and `review_seat(...)` take only what the seat was shown: given
the same views, answers, legal actions and seed, they give the same answer whatever the hidden
parts of the real game are (tests/bots/test_advice.py checks it on twin games).
"""

import math
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from app.bots.base import Action
from app.bots.duel_heuristic import DuelJudge
from app.bots.ismcts import DUEL_WEIGHTS, IsmctsBot, action_key, distinct
from app.engine import Game, GameConfig, InformationSet, describe_components, information_set, new_game

SUPREMACY_MARGIN = 20.0  # Duel: a supremacy is worth at least this many points of margin
HINT_ACTIONS = 3  # a hint lists at most this many actions
WIDTH = 5  # the heuristic's best actions the search compares


def margin(result: dict[str, Any], seat: int) -> float:
    """The seat's final score minus the best other seat's (Duel: a supremacy at least +-20)."""
    scores = result.get("scores") or []
    if len(scores) < 2:
        return 0.0
    mine = next(s["total"] for s in scores if s["seat"] == seat)
    best_other = max(s["total"] for s in scores if s["seat"] != seat)
    value = float(mine - best_other)
    if result.get("victory") in ("military", "science"):
        won = seat in result.get("winners", [])
        value = max(value, SUPREMACY_MARGIN) if won else min(value, -SUPREMACY_MARGIN)
    return value


@dataclass(frozen=True)
class Estimate:
    action: Action
    margin: float  # the mean final margin of the games played out after it (nan: not searched)
    samples: int  # how many sampled games it was played out in


def knowledge(views: Sequence[dict[str, Any]], answers: Iterable[Action | None] = ()) -> InformationSet:
    """The information set of the views' seat: every view it was shown, in order, and its answers
    (`answers[i]` answered `views[i]`; None where it answered nothing)."""
    if not views:
        raise ValueError("give at least one view")
    info = information_set(views[0])
    answered = list(answers)
    for i, view in enumerate(views):
        info.observe(view)
        if i < len(answered) and answered[i] is not None:
            info.record(answered[i])  # type: ignore[arg-type]
    return info


def estimate(
    info: InformationSet,
    legal: list[Action],
    *,
    seed: int,
    budget_ms: float | None,
    iterations: int | None = None,
    width: int = WIDTH,
    include: Action | None = None,
) -> list[Estimate]:
    """The search's candidate actions (the heuristic's best `width`, and `include`), best margin first
    (the heuristic's order on a tie). One distinct action (others differ only in payment): it alone,
    unsearched. The info set's last view is the decision's."""
    view = info.last
    assert view is not None
    options = distinct(legal)
    if len(options) == 1:
        return [Estimate(next(iter(options.values())), math.nan, 0)]
    bot = IsmctsBot(seed, budget_ms=budget_ms, iterations=iterations, width=width)
    bot.info = info
    bot.score = margin
    seat = view["seat"]
    if view["game"] == "duel":
        judge = DuelJudge(view, seat, DUEL_WEIGHTS)
        values = {k: judge.value(a) for k, a in options.items()}
        prepare, rollout = (lambda sample, dice: None), (lambda game, dice: bot._duel_rollout(game, seat, dice))
    else:
        values = bot._priors(view, list(options.values()))
        prepare, rollout = bot._classic_play(view)
    arms = sorted(options, key=lambda k: -values.get(k, 0.0))[:width]
    if include is not None:
        key = action_key(include)
        if key in options and key not in arms:
            arms.append(key)
    totals, rounds = bot.play_arms(seat, arms, prepare=prepare, rollout=rollout, rng=random.Random(seed))
    means = {k: totals[k] / max(rounds, 1) for k in arms}
    ranked = sorted(arms, key=lambda k: (-means[k], arms.index(k)))
    return [Estimate(options[k], means[k], rounds) for k in ranked]


def hint(
    views: Sequence[dict[str, Any]],
    answers: Iterable[Action | None],
    legal: list[Action],
    *,
    seed: int,
    budget_ms: float | None,
    iterations: int | None = None,
    count: int = HINT_ACTIONS,
) -> list[dict[str, Any]]:
    """Up to `count` of the seat's legal actions, best first: {"action", "points" (its margin less
    the best one's), "margin", "samples", "why"}. Only the seat's views and answers are read."""
    info = knowledge(views, answers)
    found = estimate(info, legal, seed=seed, budget_ms=budget_ms, iterations=iterations)
    best = found[0].margin
    out = []
    for rank, e in enumerate(found[:count]):
        points = 0.0 if math.isnan(e.margin) else round(e.margin - best, 1) + 0.0  # never -0.0
        out.append(
            {
                "action": e.action,
                "points": points,
                "margin": None if math.isnan(e.margin) else round(e.margin, 1),
                "samples": e.samples,
                "why": why(info.last or {}, e, best, rank),
            }
        )
    return out


def review_decision(
    info: InformationSet,
    legal: list[Action],
    taken: Action,
    *,
    seed: int,
    budget_ms: float | None,
    iterations: int | None = None,
) -> dict[str, Any]:
    """One decision reviewed: the action taken, the search's best, the points lost (the best margin
    less the taken action's; 0 when they are one, or only one choice there was)."""
    found = estimate(info, legal, seed=seed, budget_ms=budget_ms, iterations=iterations, include=taken)
    best = found[0]
    key = action_key(taken)
    mine = next((e for e in found if action_key(e.action) == key), None)
    lost = 0.0
    if mine is not None and not math.isnan(best.margin):
        lost = max(0.0, best.margin - mine.margin)
    return {
        "action": taken,
        "best": taken if mine is best else best.action,
        "points_lost": round(lost, 2),
        "margin": None if math.isnan(best.margin) else round(best.margin, 2),
        "samples": best.samples,
    }


# ----- why, in one sentence -----------------------------------------------------------------------


def why(view: dict[str, Any], e: Estimate, best: float, rank: int) -> str:
    """One sentence: what the action does, and how it fared in the games played out after it."""
    does = what_it_does(view, e.action)
    if math.isnan(e.margin):
        return f"{does}: your only choice."
    ahead = "ahead of" if e.margin >= 0 else "behind"
    played = f"in {e.samples} games played out from what you know, you ended {abs(e.margin):.1f} points {ahead}"
    if rank == 0:
        return f"{does}: the search's choice; {played} the best other player on average."
    return f"{does}: {best - e.margin:.1f} points below the best; {played} the best other player on average."


def what_it_does(view: dict[str, Any], action: Action) -> str:
    kind, card = action.get("type"), action.get("card")
    duel = view.get("game") == "duel"
    texts = _texts()
    if kind == "build":
        free = " for free" if action.get("free") else ""
        return f"Build {card}{free} ({_lower(texts['duel' if duel else 'classic'].get(card, ''))})"
    if kind == "wonder" and duel:
        wonder = action.get("wonder")
        return f"Build the Wonder {wonder} with {card} ({_lower(texts['duel_wonders'].get(wonder, ''))})"
    if kind == "wonder":
        return f"Build stage {action.get('stage')} of your wonder with {card}"
    if kind == "discard" and action.get("reward") == "yellow":
        return f"Discard {card} to move your yellow ship"
    if kind == "discard":
        return f"Discard {card} for coins"
    if kind == "build_from_discard":
        return f"Build {card} from the discard"
    if kind == "pass":
        return "Pass"
    if kind == "draft_wonder":
        wonder = action.get("wonder")
        return f"Take the Wonder {wonder} ({_lower(texts['duel_wonders'].get(wonder, ''))})"
    if kind in ("choose_progress", "choose_box_token"):
        token = action.get("token")
        return f"Take the progress token {token} ({_lower(texts['tokens'].get(token, ''))})"
    if kind == "destroy":
        return f"Destroy your opponent's {card}"
    if kind == "choose_starter":
        return "Start the next Age yourself" if action.get("seat") == view.get("seat") else "Let your opponent start"
    if kind == "keep_island":
        return f"Keep the island {action.get('island')}"
    return str(kind).replace("_", " ").capitalize()


def _lower(text: str) -> str:
    text = text.rstrip(".")
    return text[:1].lower() + text[1:] if text else "no effect"


@cache
def _texts() -> dict[str, dict[str, str]]:
    c = describe_components()
    classic = {name: e["text"] for name, e in c["classic"]["cards"].items()}
    classic.update({name: e["text"] for name, e in c["armada"]["cards"].items()})
    return {
        "classic": classic,
        "duel": {name: e["text"] for name, e in c["duel"]["cards"].items()},
        "duel_wonders": {name: e["text"] for name, e in c["duel"]["wonders"].items()},
        "tokens": {name: e["text"] for name, e in c["duel"]["progress_tokens"].items()},
    }


# ----- a whole game reviewed ---------------------------------------------------------------------


def review_game(
    game: Game, steps: Sequence[dict[str, Any]], *, seed: int, budget_ms: float | None, iterations: int | None = None
) -> dict[str, Any]:
    """Every decision of every seat in a finished game's log (`steps`: {"seat", "action"} each),
    evaluated from what that seat knew then. `game` is a new game of the log's config: it is
    replayed step by step, each seat's information set fed its view after every step and its own
    answers; the search sees only that information set."""
    seats = game.config.seats
    infos = [information_set(game.view(s)) for s in range(seats)]
    for s in range(seats):
        infos[s].observe(game.view(s))
    decisions: list[list[dict[str, Any]]] = [[] for _ in range(seats)]
    for step, entry in enumerate(steps):
        seat, action = entry["seat"], entry["action"]
        legal = game.legal_actions(seat)
        dice = (seed * 1_000_003 + step) % 2**32
        reviewed = review_decision(infos[seat], legal, action, seed=dice, budget_ms=budget_ms, iterations=iterations)
        decisions[seat].append({"step": step, **reviewed})
        infos[seat].record(action)
        game.apply(seat, action)
        for s in range(seats):
            infos[s].observe(game.view(s))
    out = []
    for s in range(seats):
        lost = sum(d["points_lost"] for d in decisions[s])
        swings = sorted((d for d in decisions[s] if d["points_lost"] > 0), key=lambda d: -d["points_lost"])[:3]
        out.append(
            {
                "seat": s,
                "points_lost": round(lost, 1),
                "swings": [{"step": d["step"], "points_lost": d["points_lost"]} for d in swings],
                "decisions": decisions[s],
            }
        )
    return {"seats": out}


# ----- jobs from a stored log (run in a thread or a worker process) -------------------------------


def seat_knowledge(
    config: dict[str, Any], steps: Sequence[dict[str, Any]], seat: int
) -> tuple[list[dict[str, Any]], list[Action | None], list[Action]]:
    """What a seat was shown of a game stored as its config and log: its view after every step, its
    answers (`answers[i]` answered `views[i]`), and its legal actions now. Only these leave here."""
    game = new_game(GameConfig.model_validate(config))
    views: list[dict[str, Any]] = [game.view(seat)]
    answers: list[Action | None] = [None]
    for entry in steps:
        if entry["seat"] == seat:
            answers[-1] = entry["action"]
        game.apply(entry["seat"], entry["action"])
        views.append(game.view(seat))
        answers.append(None)
    return views, answers, game.legal_actions(seat)


def hint_from_log(
    config: dict[str, Any],
    steps: Sequence[dict[str, Any]],
    seat: int,
    *,
    seed: int,
    budget_ms: float | None,
    iterations: int | None = None,
) -> list[dict[str, Any]]:
    """A hint for the seat at the end of the stored log, from what it was shown only."""
    views, answers, legal = seat_knowledge(config, steps, seat)
    if not legal:
        return []
    return hint(views, answers, legal, seed=seed, budget_ms=budget_ms, iterations=iterations)


def review_from_log(
    config: dict[str, Any],
    steps: Sequence[dict[str, Any]],
    *,
    seed: int,
    budget_ms: float | None,
    iterations: int | None = None,
) -> dict[str, Any]:
    """A finished game's review from its stored config and log (see review_game), with the CPU
    seconds it took."""
    started = time.process_time()
    out = review_game(
        new_game(GameConfig.model_validate(config)),
        [{"seat": e["seat"], "action": e["action"]} for e in steps],
        seed=seed,
        budget_ms=budget_ms,
        iterations=iterations,
    )
    out["cpu_seconds"] = round(time.process_time() - started, 2)
    return out
