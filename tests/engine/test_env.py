"""The reinforcement-learning environments (`app.engine.env`, the rl extra): PettingZoo's own API
tests, the fixed action index and its mask, observations made from the seat's view only, seeding,
and random agents playing whole games of every kind."""

import copy
import itertools
import json
import os
import random
import warnings
from pathlib import Path
from typing import Any

import pytest

try:
    import numpy as np
    from pettingzoo.test import api_test, parallel_api_test, seed_test

    from app.engine.env import action_names, classic_env, duel_env, observation_layout
    from app.engine.env.classic import ClassicSpec
    from app.engine.env.classic_actions import Pending
    from app.engine.env.common import cost_of
    from app.engine.env.duel import DuelSpec
except ImportError:  # pragma: no cover - only without the rl extra
    if os.environ.get("CI") == "true":
        raise  # CI installs the rl packages (the test extra has them): a missing one is a failure there
    pytest.skip("the rl extra (pettingzoo, gymnasium, numpy) is not installed", allow_module_level=True)

from app.engine import GameConfig, new_game

# PettingZoo's API test warns for every environment whose observation is a Dict with an action
# mask, except its own classic games (it lists them by name): the convention we follow.
DICT_OBSERVATION_WARNINGS = (
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
    "Observation is not a NumPy array",
)


def masked_choice(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def play_parallel(env: Any, seed: int, rng: np.random.Generator) -> tuple[list[Any], dict[str, float]]:
    """A whole game of random masked agents: every step's observations and the final rewards."""
    obs, _ = env.reset(seed=seed)
    seen = [obs]
    rewards: dict[str, float] = {}
    while env.agents:
        obs, rewards, _, _, _ = env.step({a: masked_choice(rng, obs[a]["action_mask"]) for a in env.agents})
        seen.append(obs)
    return seen, rewards


# ----- PettingZoo's own tests --------------------------------------------------------------------


@pytest.mark.parametrize(("players", "expansions"), [(3, ()), (4, ()), (7, ()), (3, ("armada",)), (5, ("armada",))])
def test_parallel_api(players: int, expansions: tuple[str, ...]) -> None:
    env = classic_env(players=players, expansions=expansions)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parallel_api_test(env, num_cycles=1000)
    assert [str(w.message) for w in caught] == []


def test_duel_api_and_seed() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(duel_env(), num_cycles=1000)
        seed_test(duel_env, num_cycles=500)
    assert {str(w.message) for w in caught} <= set(DICT_OBSERVATION_WARNINGS)


def test_callable_with_no_argument() -> None:
    assert classic_env().possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert duel_env().possible_agents == ["player_0", "player_1"]


# ----- the action index and the mask -------------------------------------------------------------


def test_action_index_sizes_and_layouts() -> None:
    assert len(action_names("classic", 4)) == 310
    assert len(action_names("classic", 4, ("armada",))) == 756
    assert len(action_names("duel")) == 1143
    for env in (classic_env(4), classic_env(5, ("armada",)), duel_env()):
        names = env.action_names
        assert names[0] == "noop" and len(set(names)) == len(names)
        assert env.action_space("player_0").n == len(names)
        layout = env.observation_layout()
        assert layout[0]["start"] == 0
        assert all(a["stop"] == b["start"] for a, b in itertools.pairwise(layout))
        size = layout[-1]["stop"]
        assert env.observation_space("player_0")["observation"].shape == (size,)
        assert env.observation_space("player_0")["action_mask"].shape == (len(names),)
    assert observation_layout("classic", 4)[-1]["stop"] == 1136
    assert observation_layout("classic", 4, ("armada",))[-1]["stop"] == 2266
    assert observation_layout("duel")[-1]["stop"] == 789
    # the index does not depend on the state: two envs, two games, the same names
    assert classic_env(4, ("armada",)).action_names == classic_env(4, ("armada",)).action_names


def signature(action: dict[str, Any]) -> str:
    """An engine action without its payment: what the index and its follow-ups choose."""
    return json.dumps({k: v for k, v in action.items() if k not in ("trade", "cost", "free")}, sort_keys=True)


def resolve(spec: ClassicSpec, legal: list[dict[str, Any]], action: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Reach the engine action with the same signature as `action` through the index: its primary
    index, then the follow-ups a seat would send (and how many)."""
    groups = spec.groups(legal)
    mask = spec.mask(groups, None, True)
    primary = spec.primary(action)
    assert mask[primary] == 1
    choice = spec.choose(groups, None, primary)
    steps = 0
    while isinstance(choice, Pending):
        steps += 1
        mask = spec.mask(groups, choice, True)
        step = spec.follow_up(spec.candidates(groups, choice), choice)
        index = spec.stage_base + action["stage"] - 1 if step == "stage" else spec.moves_base + spec.moves_code(action)
        assert mask[index] == 1
        assert mask[spec.noop] == 0
        choice = spec.choose(groups, choice, index)
    return choice, steps


@pytest.mark.parametrize("expansions", [(), ("armada",)])
def test_mask_marks_exactly_the_legal_indices_and_every_action_is_reachable(expansions: tuple[str, ...]) -> None:
    follow_ups = 0
    for game_seed in range(12):
        players = 3 + game_seed % 5
        spec = ClassicSpec(players, expansions)
        game = new_game(GameConfig(game="classic", players=players, seed=game_seed, expansions=list(expansions)))
        rng = random.Random(game_seed)
        while not game.is_over:
            for seat in list(game.to_act):
                legal = game.legal_actions(seat)
                groups = spec.groups(legal)
                mask = spec.mask(groups, None, True)
                assert set(np.flatnonzero(mask)) == {spec.primary(a) for a in legal}
                assert mask[spec.noop] == 0
                for action in legal:
                    reached, steps = resolve(spec, legal, action)
                    follow_ups += steps
                    assert reached in legal
                    assert signature(reached) == signature(action)
                    assert cost_of(reached) == min(cost_of(a) for a in legal if signature(a) == signature(action))
                game.apply(seat, rng.choice(legal))
    assert (follow_ups > 0) == bool(expansions)  # only Armada asks follow-ups


def test_duel_mask_marks_exactly_the_legal_indices() -> None:
    spec = DuelSpec()
    for game_seed in range(20):
        game = new_game(GameConfig(game="duel", seed=game_seed))
        rng = random.Random(game_seed)
        while not game.is_over:
            (seat,) = game.to_act
            legal = game.legal_actions(seat)
            groups = spec.groups(legal, seat)
            assert sum(len(g) for g in groups.values()) == len(legal)
            assert all(len(g) == 1 for g in groups.values())  # one index, one engine action
            assert set(np.flatnonzero(spec.mask(groups))) == set(groups)
            game.apply(seat, rng.choice(legal))


def test_an_index_off_the_mask_is_refused() -> None:
    env = classic_env(3)
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["player_0"]["action_mask"] == 0)[1])
    actions = {a: masked_choice(np.random.default_rng(0), obs[a]["action_mask"]) for a in env.agents}
    with pytest.raises(ValueError, match="not legal now"):
        env.step({**actions, "player_0": illegal})
    duel = duel_env()
    duel.reset(seed=1)
    mask = duel.observe(duel.agent_selection)["action_mask"]
    with pytest.raises(ValueError, match="not legal now"):
        duel.step(int(np.flatnonzero(mask == 0)[1]))


# ----- observations from the seat's view only ----------------------------------------------------


@pytest.mark.parametrize("expansions", [(), ("armada",)])
def test_another_seats_hidden_pick_leaves_the_observation_unchanged(expansions: tuple[str, ...]) -> None:
    """Two games that differ only in what seat 1 picked (hidden until the reveal): seats 0 and 2
    observe exactly the same; seat 1 itself sees its own pick."""
    config = GameConfig(game="classic", players=3, seed=11, expansions=list(expansions))
    spec = ClassicSpec(3, expansions)
    games = [new_game(config), new_game(config)]
    legal = games[0].legal_actions(1)
    picks = [legal[0], next(a for a in legal if a["type"] == "discard" and a["card"] != legal[0]["card"])]
    for game, pick in zip(games, picks, strict=True):
        game.apply(1, pick)
    for seat in (0, 2):
        a, b = (spec.encode(g.view(seat), g.legal_actions(seat)) for g in games)
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(a["action_mask"], b["action_mask"])
    a, b = (spec.encode(g.view(1), g.legal_actions(1), owes=False) for g in games)
    assert not np.array_equal(a["observation"], b["observation"])


class Spy:
    """A game that records what is read of it: only view(seat), legal_actions(seat) and to_act."""

    def __init__(self, game: Any) -> None:
        object.__setattr__(self, "_game", game)
        object.__setattr__(self, "calls", [])

    def __getattr__(self, name: str) -> Any:
        game = object.__getattribute__(self, "_game")
        calls = object.__getattribute__(self, "calls")
        if name in ("view", "legal_actions"):

            def call(seat: Any) -> Any:
                calls.append((name, seat))
                return getattr(game, name)(seat)

            return call
        calls.append((name, None))
        return getattr(game, name)


@pytest.mark.parametrize("kind", ["classic", "armada", "duel"])
def test_observe_reads_only_that_seats_view_and_legal_actions(kind: str) -> None:
    env: Any = duel_env() if kind == "duel" else classic_env(4, ("armada",) if kind == "armada" else ())
    rng = np.random.default_rng(3)
    obs = env.reset(seed=3)
    if kind != "duel":
        obs = obs[0]
    for _ in range(25):
        for seat, agent in enumerate(env.possible_agents):
            spy = Spy(env.game)
            real, env.game = env.game, spy
            try:
                observed = env.observe(agent)
            finally:
                env.game = real
            assert {seat for _, seat in spy.calls if seat is not None} == {seat}
            assert {name for name, _ in spy.calls} <= {"view", "legal_actions", "to_act"}
            # the observation is a function of that view, those legal actions (and its own choice in progress)
            legal = real.legal_actions(seat) if seat in real.to_act else []
            if kind == "duel":
                again = env.spec.encode(copy.deepcopy(real.view(seat)), legal)
            else:
                again = env.spec.encode(copy.deepcopy(real.view(seat)), legal, env._pending.get(seat), bool(legal))
            assert np.array_equal(observed["observation"], again["observation"])
            assert np.array_equal(observed["action_mask"], again["action_mask"])
        if kind == "duel":
            env.step(masked_choice(rng, env.observe(env.agent_selection)["action_mask"]))
        else:
            obs, *_ = env.step({a: masked_choice(rng, obs[a]["action_mask"]) for a in env.agents})
        if not env.agents:
            break


# ----- seeding -------------------------------------------------------------------------------------


@pytest.mark.parametrize("expansions", [(), ("armada",)])
def test_same_seed_same_game(expansions: tuple[str, ...]) -> None:
    runs = [play_parallel(classic_env(4, expansions), 21, np.random.default_rng(5)) for _ in range(2)]
    (obs_a, rewards_a), (obs_b, rewards_b) = runs
    assert rewards_a == rewards_b and len(obs_a) == len(obs_b)
    for a, b in zip(obs_a, obs_b, strict=True):
        for agent in a:
            assert np.array_equal(a[agent]["observation"], b[agent]["observation"])
            assert np.array_equal(a[agent]["action_mask"], b[agent]["action_mask"])
    other, _ = classic_env(4, expansions).reset(seed=22)
    assert not np.array_equal(other["player_0"]["observation"], obs_a[0]["player_0"]["observation"])
    # an unseeded reset follows the last seed given
    env_a, env_b = classic_env(4, expansions), classic_env(4, expansions)
    for env in (env_a, env_b):
        env.reset(seed=9)
    first, second = env_a.reset(), env_b.reset()
    assert np.array_equal(first[0]["player_1"]["observation"], second[0]["player_1"]["observation"])


# ----- random agents play whole games ----------------------------------------------------------------


def check_final(env: Any, rewards: dict[str, float]) -> None:
    result = env.game.result()
    totals = {s["seat"]: s["total"] for s in result["scores"]}
    for seat, agent in enumerate(env.possible_agents):
        best_other = max(t for s, t in totals.items() if s != seat)
        if env.reward == "margin":
            assert rewards[agent] == totals[seat] - best_other
        else:
            winners = result["winners"]
            expected = -1 if seat not in winners else 1 if len(winners) == 1 else 0
            assert rewards[agent] == expected


@pytest.mark.parametrize("expansions", [(), ("armada",)])
def test_random_agents_finish_200_classic_games(expansions: tuple[str, ...]) -> None:
    rng = np.random.default_rng(0)
    envs = {(n, r): classic_env(n, expansions, reward=r) for n in range(3, 8) for r in ("margin", "win")}
    follow_ups: dict[Any, int] = {}
    for game_seed in range(200):
        env = envs[(3 + game_seed % 5, "margin" if game_seed % 4 else "win")]
        obs, infos = env.reset(seed=game_seed)
        steps = 0
        while env.agents:
            for agent in env.agents:
                mask = obs[agent]["action_mask"]
                assert mask.dtype == np.int8 and mask.any()
                assert (mask[0] == 1) == (not infos[agent]["owes_decision"])
                follow_ups[infos[agent]["follow_up"]] = follow_ups.get(infos[agent]["follow_up"], 0) + 1
            if steps % 7 == 0:
                space = env.observation_space("player_0")
                assert all(space.contains(o) for o in obs.values())
            obs, rewards, terminations, truncations, infos = env.step(
                {a: masked_choice(rng, obs[a]["action_mask"]) for a in env.agents}
            )
            steps += 1
            assert steps < 120
            assert not any(truncations.values())
            if env.agents:
                assert set(rewards.values()) == {0.0} and not any(terminations.values())
        assert all(terminations.values()) and env.game.is_over
        check_final(env, rewards)
    if expansions:
        assert follow_ups.get("stage", 0) > 0 and follow_ups.get("moves", 0) > 0


def test_random_agents_finish_200_duel_games() -> None:
    rng = np.random.default_rng(0)
    envs = {r: duel_env(reward=r) for r in ("win", "margin")}
    victories: dict[str, int] = {}
    for game_seed in range(200):
        env = envs["win" if game_seed % 3 else "margin"]
        env.reset(seed=game_seed)
        final: dict[str, float] = {}
        for steps, agent in enumerate(env.agent_iter()):
            obs, reward, terminated, truncated, _ = env.last()
            assert steps < 200 and not truncated
            if terminated:
                final[agent] = reward
                env.step(None)
                continue
            assert reward == 0
            assert obs["action_mask"][0] == 0 and obs["action_mask"].any()
            other = env.possible_agents[1 - env.possible_agents.index(agent)]
            assert np.flatnonzero(env.observe(other)["action_mask"]).tolist() == [0]
            env.step(masked_choice(rng, obs["action_mask"]))
        assert env.game.is_over and set(final) == set(env.possible_agents)
        check_final(env, final)
        victory = env.game.result()["victory"]
        victories[victory] = victories.get(victory, 0) + 1
    assert sum(victories.values()) == 200


def test_the_readme_random_agent_loops_run() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme.split("### Reinforcement learning", 1)[1]
    code = section.split("```python", 1)[1].split("```", 1)[0]
    assert "classic_env" in code and "duel_env" in code
    exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
