"""Information-set Monte Carlo search for the three games: the ismcts bot.

The bot never sees what its seat may not: it keeps an information set of the game
(`app.engine.information_set`), fed with every view it is shown and every action it answers,
and it searches only in games sampled from it (other hands, decks, other seats' pending picks
and every other hidden part drawn again), never in the real game.

Duel: the Duel heuristic's (app.bots.duel_heuristic) best `width` actions, each played in the
same sampled games with the same rollout dice; a rollout plays `duel_plies` plies by the Duel
heuristic for both seats, then the light greedy policy to the end; the heuristic's value, as a
prior, weighs in the final choice. With `duel_plies=None`: single-observer ISMCTS instead (one
tree shared by a few samples reused in turn, children the actions legal in the sample at hand,
UCB with availability counts, both seats' decisions in the tree, light rollouts); it loses to
the Duel heuristic.

Classic and Armada (simultaneous picks): the heuristic bot's best `width` actions, each played
in the same sampled games with the same rollout dice (paired, so that the comparison sees the
action rather than the luck). Each sample's other seats that already picked get a pick of the
heuristic bot's; rollouts play the rest of the present Age with the heuristic bot's choices for
every seat (as the seats it plays against may), later Ages with the light policy. The
heuristic's value breaks near ties.

Everywhere actions that differ only in how they pay are one choice, paid the cheapest way; the
reward is the win (shared on a tie) with a fifth for the margin over the best other seat.
Options: `budget_ms` (time per decision, default 1000; None: no limit), `iterations` (at most
that many iterations, or rollouts, per decision), `exploration` (UCB constant), `samples`
(Duel tree: games sampled per decision), `width`, `prior_weight` (classic), `duel_plies`.
"""

import math
import random
import time
from collections.abc import Callable
from functools import cache
from typing import Any

from app.bots.base import Action, Bot
from app.bots.box import all_cards, summary
from app.bots.duel_heuristic import WIN, DuelJudge, Weights
from app.engine import Game, InformationSet, describe_components, information_set

PAYMENT_FIELDS = frozenset({"trade", "cost"})
DUEL_PLIES = 6  # Duel rollouts: this many plies by the Duel heuristic, then the light policy
DUEL_PRIOR_SPAN = 10.0  # Duel priors: the heuristic's best action 1, one this many points worse 0
DUEL_PRIOR_WEIGHT = 0.15
CLASSIC_VALUE = {"build": 4.0, "wonder": 3.5, "discard": 1.0, "build_from_discard": 5.0, "pass": -1.0}


def action_key(action: Action) -> tuple:
    """What an action does, without how it pays: actions alike but for their payment share a node."""
    return tuple(
        (k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(action.items()) if k not in PAYMENT_FIELDS
    )


def distinct(actions: list[Action]) -> dict[tuple, Action]:
    """The first (cheapest) action of each key, in the legal order."""
    out: dict[tuple, Action] = {}
    for action in actions:
        key = action_key(action)
        if key not in out:
            out[key] = action
    return out


class Node:
    __slots__ = ("visits", "value", "available", "children")

    def __init__(self) -> None:
        self.visits = 0
        self.value = 0.0  # summed reward, for the seat that chose the action leading here
        self.available = 0
        self.children: dict[tuple, Node] = {}


class IsmctsBot(Bot):
    """ISMCTS over games sampled from what its seat was shown (see the module docstring)."""

    name = "ismcts"
    plays = frozenset({"classic", "duel"})

    def __init__(
        self,
        seed: int | None = None,
        *,
        budget_ms: float | None = 1000,
        iterations: int | None = None,
        exploration: float = 0.7,
        samples: int = 24,
        prior_weight: float = 0.05,
        width: int = 5,
        duel_plies: int | None = DUEL_PLIES,
    ) -> None:
        super().__init__(seed)
        if budget_ms is None and iterations is None:
            raise ValueError("give the ismcts bot a budget_ms, a number of iterations, or both")
        self.budget_ms = budget_ms
        self.iterations = iterations
        self.exploration = exploration
        self.samples = max(1, samples)
        self.prior_weight = prior_weight
        self.width = width
        self.duel_plies = duel_plies
        self.info: InformationSet | None = None
        self.seed = seed
        self._heuristic: Any = None
        self.stats = {"decisions": 0, "iterations": 0}
        # what a rollout's end is worth to the seat (app/bots/advice.py counts points instead)
        self.score: Callable[[dict[str, Any], int], float] = reward

    # ----- the bot's face -----------------------------------------------------------------------

    def choose(self, view: dict[str, Any], actions: list[Action]) -> Action:
        self._observe(view)
        choice = actions[0] if len(actions) == 1 else self._search(view, actions)
        assert self.info is not None
        self.info.record(choice)
        return choice

    def _observe(self, view: dict[str, Any]) -> None:
        last = self.info.last if self.info is not None else None
        if (
            last is None
            or last.get("seat") != view.get("seat")
            or last.get("game") != view.get("game")
            or view.get("version", 0) < last.get("version", 0)
        ):
            self.info = information_set(view)  # a new game (or a new seat): forget the old one
        assert self.info is not None
        self.info.observe(view)

    # ----- the search -----------------------------------------------------------------------------

    def _search(self, view: dict[str, Any], actions: list[Action]) -> Action:
        assert self.info is not None
        seat = view["seat"]
        rng = random.Random(self.rng.random())
        options = distinct(actions)
        if len(options) == 1:
            return next(iter(options.values()))
        priors = self._priors(view, list(options.values()))
        if view["game"] == "classic":
            return self._flat(view, options, priors, rng)
        if self.duel_plies is not None:
            return self._duel_flat(view, options, rng)
        root = Node()
        samples: list[Game] = []
        deadline = None if self.budget_ms is None else time.perf_counter() + self.budget_ms / 1000
        done = 0
        while self.iterations is None or done < self.iterations:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            if len(samples) < self.samples:
                samples.append(self.info.sample(rng))
                game = samples[-1].clone()
            else:
                game = samples[done % len(samples)].clone()
            self._iterate(root, game, seat, rng)
            done += 1
        self.stats["decisions"] += 1
        self.stats["iterations"] += done
        best = max(
            options,
            key=lambda k: (root.children[k].visits if k in root.children else -1, priors.get(k, 0.0)),
        )
        return options[best]

    def _flat(
        self, view: dict[str, Any], options: dict[tuple, Action], priors: dict[tuple, float], rng: random.Random
    ) -> Action:
        """Classic: the heuristic's best few actions, played paired (see `_paired`); each sample's
        seats that already picked get the rollout policy's pick."""
        seat = view["seat"]
        arms = sorted(options, key=lambda k: -priors.get(k, 0.0))[: self.width]
        prepare, rollout = self._classic_play(view)
        best = self._paired(
            seat, arms, priors=priors, weight=self.prior_weight, prepare=prepare, rollout=rollout, rng=rng
        )
        return options[best]

    def _classic_play(
        self, view: dict[str, Any]
    ) -> tuple[Callable[[Game, float], None], Callable[[Game, random.Random], float]]:
        """Classic: how a sample is prepared (each seat that already picked gets the rollout
        policy's pick) and how an arm's game is played out from it."""
        seat = view["seat"]

        def prepare(sample: Game, dice: float) -> None:
            for other, public in enumerate(view["players"]):
                if other != seat and public["has_chosen"] and view["phase"] == "pick":
                    sample.apply(other, self._policy(sample, other, random.Random(dice + other), careful=True))

        def rollout(game: Game, dice: random.Random) -> float:
            return self._rollout(game, seat, dice, careful_age=view["age"])

        return prepare, rollout

    def _duel_flat(self, view: dict[str, Any], options: dict[tuple, Action], rng: random.Random) -> Action:
        """Duel: the Duel heuristic's best few actions, played paired (see `_paired`); rollouts
        begin with a few plies of the heuristic for both seats."""
        seat = view["seat"]
        judge = DuelJudge(view, seat, DUEL_WEIGHTS)
        values = {k: judge.value(a) for k, a in options.items()}
        arms = sorted(options, key=lambda k: -values[k])[: self.width]
        if values[arms[0]] >= WIN or len(arms) == 1:
            return options[arms[0]]  # a supremacy now: nothing to search
        top = values[arms[0]]
        priors = {k: max(0.0, 1.0 - (top - values[k]) / DUEL_PRIOR_SPAN) for k in arms}

        def rollout(game: Game, dice: random.Random) -> float:
            return self._duel_rollout(game, seat, dice)

        best = self._paired(
            seat,
            arms,
            priors=priors,
            weight=DUEL_PRIOR_WEIGHT,
            prepare=lambda sample, dice: None,
            rollout=rollout,
            rng=rng,
        )
        return options[best]

    def _paired(
        self,
        seat: int,
        arms: list[tuple],
        *,
        priors: dict[tuple, float],
        weight: float,
        prepare: Callable[[Game, float], None],
        rollout: Callable[[Game, random.Random], float],
        rng: random.Random,
    ) -> tuple:
        """Each arm played in the same sampled games with the same rollout dice (paired: the
        comparison sees the action, not the luck); the best mean reward plus `weight` times the
        prior, the earlier arm on a tie."""
        totals, rounds = self.play_arms(seat, arms, prepare=prepare, rollout=rollout, rng=rng)
        return max(arms, key=lambda k: (totals[k] / max(rounds, 1) + weight * priors.get(k, 0.0), -arms.index(k)))

    def play_arms(
        self,
        seat: int,
        arms: list[tuple],
        *,
        prepare: Callable[[Game, float], None],
        rollout: Callable[[Game, random.Random], float],
        rng: random.Random,
    ) -> tuple[dict[tuple, float], int]:
        """Each arm played in the same sampled games with the same rollout dice, until the budget
        or the iterations run out: the arms' summed rollout values, and the number of samples."""
        assert self.info is not None
        totals = dict.fromkeys(arms, 0.0)
        deadline = None if self.budget_ms is None else time.perf_counter() + self.budget_ms / 1000
        rounds = rollouts = 0
        while self.iterations is None or rollouts < self.iterations:
            if deadline is not None and rounds and time.perf_counter() >= deadline:
                break
            sample = self.info.sample(rng)
            dice = rng.random()
            prepare(sample, dice)
            for key in arms:
                game = sample.clone()
                action = distinct(game.legal_actions(seat)).get(key)
                if action is None:
                    continue
                game.apply(seat, action)
                totals[key] += rollout(game, random.Random(dice))
                rollouts += 1
            rounds += 1
        self.stats["decisions"] += 1
        self.stats["iterations"] += rollouts
        return totals, rounds

    def _duel_rollout(self, game: Game, seat: int, rng: random.Random) -> float:
        """Play to the end: the first `duel_plies` plies by the Duel heuristic, then the light policy."""
        plies = 0
        while not game.is_over:
            actor = game.to_act[0]
            if plies < (self.duel_plies or 0):
                actions = list(distinct(game.legal_actions(actor)).values())
                judge = DuelJudge(game.view(actor), actor, DUEL_WEIGHTS)
                action = max(actions, key=lambda a: judge.value(a) + rng.random() * 0.1)
            else:
                action = self._policy(game, actor, rng)
            game.apply(actor, action)
            plies += 1
        return self.score(game.result(), seat)

    def _iterate(self, root: Node, game: Game, seat: int, rng: random.Random) -> None:
        """One iteration in Duel: down the tree (both seats' decisions), one new node, a rollout."""
        path: list[tuple[Node, int]] = []
        node = root
        while not game.is_over:
            actor = game.to_act[0]
            options = distinct(game.legal_actions(actor))
            for key in options:
                child = node.children.get(key)
                if child is not None:
                    child.available += 1
            fresh = [k for k in options if k not in node.children]
            if fresh:
                key = rng.choice(fresh)
                child = node.children[key] = Node()
                child.available = 1
            else:
                key = self._select(node, options)
                child = node.children[key]
            game.apply(actor, options[key])
            path.append((child, actor))
            node = child
            if fresh:
                break
        reward_ = self._rollout(game, seat, rng)
        for child, actor in path:
            child.visits += 1
            child.value += reward_ if actor == seat else 1.0 - reward_

    def _select(self, node: Node, options: dict[tuple, Action]) -> tuple:
        c = self.exploration
        best, best_score = None, -math.inf
        for key in options:
            child = node.children[key]
            score = child.value / child.visits + c * math.sqrt(math.log(max(child.available, 1)) / child.visits)
            if score > best_score:
                best, best_score = key, score
        assert best is not None
        return best

    def _rollout(self, game: Game, seat: int, rng: random.Random, careful_age: int | None = None) -> float:
        """Play to the end; in the classic games, the rest of the Age `careful_age` by the heuristic
        bot's choices (as the seats it plays against may), the later Ages by the light policy."""
        while not game.is_over:
            careful = careful_age is not None and game.view(None)["age"] == careful_age
            for actor in game.to_act:
                game.apply(actor, self._policy(game, actor, rng, careful=careful))
        return self.score(game.result(), seat)

    # ----- the rollout policy and the root's priors -----------------------------------------------

    def _policy(self, game: Game, seat: int, rng: random.Random, careful: bool = False) -> Action:
        actions = game.legal_actions(seat)
        if careful and len(actions) > 1:
            view = game.view(seat)
            heuristic = self._heuristic_bot()
            return max(distinct(actions).values(), key=lambda a: heuristic.value(view, seat, a) + rng.random() * 0.1)
        if len(actions) == 1 or rng.random() < 0.1:
            return actions[0] if len(actions) == 1 else rng.choice(actions)
        if game.config.game == "duel":
            return max(actions, key=lambda a: duel_value(a) + rng.random() * 0.5)
        return max(actions, key=lambda a: classic_value(a) + rng.random() * 0.5)

    def _heuristic_bot(self) -> Any:
        if self._heuristic is None:
            from app.bots.classic_heuristic import HeuristicBot

            self._heuristic = HeuristicBot(self.seed)
        return self._heuristic

    def _priors(self, view: dict[str, Any], actions: list[Action]) -> dict[tuple, float]:
        """Each root action's prior in [0, 1] (1: the best the heuristic bot sees), classic only."""
        if view.get("game") != "classic":
            return {}
        heuristic = self._heuristic_bot()
        values = {action_key(a): heuristic.value(view, view["seat"], a) for a in actions}
        top, low = max(values.values()), min(values.values())
        spread = top - low or 1.0
        return {k: (v - low) / spread for k, v in values.items()}


DUEL_WEIGHTS = Weights()


def classic_value(action: Action) -> float:
    """A rule of thumb: what a card built is worth (points, shields, science, production), stages
    over discards, free builds more, less what they cost."""
    kind = action["type"]
    value = CLASSIC_VALUE.get(kind, 1.0)
    if kind in ("build", "build_from_discard"):
        value += classic_worth().get(action["card"], 0.0)
    if kind == "build" and action.get("free"):
        value += 1.5
    if action.get("naval"):
        value += 1.0
    if action.get("reward") == "yellow":
        value -= 0.5
    cost = action.get("cost")
    if isinstance(cost, dict):
        value -= 0.6 * sum(cost.values())
    return value


def duel_value(action: Action) -> float:
    """A rule of thumb for Duel: points, shields and science of what is built, less its coins."""
    kind = action["type"]
    cost = action.get("cost", 0)
    cost = cost if isinstance(cost, int) else 0
    if kind == "build":
        return 2.0 + duel_worth()[0].get(action["card"], 0.0) - 0.4 * cost
    if kind == "wonder":
        return 3.0 + duel_worth()[1].get(action["wonder"], 0.0) - 0.4 * cost
    if kind == "discard":
        return 0.5
    return 1.0


@cache
def classic_worth() -> dict[str, float]:
    """What each classic (and Armada) card is worth to the rollout policy, from the public description."""
    return {name: effects_worth(card.effects) for name, card in all_cards().items()}


def effects_worth(e: Any) -> float:
    return (
        e.vp
        + 1.2 * e.shields
        + (2.0 if e.science else 0.0)
        + 0.8 * e.units
        + 0.6 * len(e.choices)
        + 0.3 * e.coins
        + 1.2 * len(e.coins_per)
        + 1.5 * len(e.vp_per)
        + 0.5 * e.discounts
    )


@cache
def duel_worth() -> tuple[dict[str, float], dict[str, float]]:
    """What each Duel card and Wonder is worth to the rollout policy, from the public description."""
    duel = describe_components()["duel"]

    def worth(effects: list[dict[str, Any]]) -> float:
        e = summary(effects)
        again = 2.0 if "play_again" in e.abilities else 0.0
        return e.vp + 1.5 * e.shields + (2.5 if e.science else 0.0) + 0.8 * e.units + 0.5 * len(e.choices) + again

    cards = {name: worth(c["effects"]) for name, c in duel["cards"].items()}
    wonders = {name: worth(w["effects"]) for name, w in duel["wonders"].items()}
    return cards, wonders


def reward(result: dict[str, Any], seat: int) -> float:
    """The win (shared on a tie) and a little of the margin over the best other seat, in [0, 1]."""
    winners = result.get("winners", [])
    win = 1.0 / len(winners) if seat in winners else 0.0
    scores = result.get("scores")
    if not scores:
        return win
    mine = scores[seat]["total"]
    best_other = max(s["total"] for s in scores if s["seat"] != seat)
    return 0.8 * win + 0.2 * (0.5 + 0.5 * math.tanh((mine - best_other) / 10))
