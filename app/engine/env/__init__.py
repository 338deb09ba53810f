"""Reinforcement-learning environments over the engine's public face (the `rl` extra:
`pip install -e '.[rl]'` brings PettingZoo, Gymnasium and NumPy; `app.engine` itself never needs them).

    from app.engine.env import classic_env, duel_env

- `classic_env(players=4, expansions=(), wonder_side="random", reward="margin")`: 7 Wonders for 3-7
  seats, with Armada when `expansions=("armada",)`: a PettingZoo **Parallel** environment.
- `duel_env(reward="win")`: 7 Wonders Duel, a PettingZoo **AEC** environment.

Agents are `player_0` ... (`player_i` is seat i). `reset(seed=S)` sets the game up from seed S
(same seed, same game: the deal, the wonders, every hidden card); `reset()` with no seed draws the
next seed from the generator of the last seed given (or from entropy). Each observation is a dict
`{"observation": float32 vector, "action_mask": int8 vector}` (the PettingZoo classic convention;
`observation_space(agent)` is a `Dict` of two `Box`es, `action_space(agent)` a `Discrete`).

**Who acts.** Classic: every live agent sends an action at every step (PettingZoo's parallel API
keeps an agent in `env.agents` until it is terminated, so a seat cannot sit a step out). A seat
that owes a decision now finds it in its mask; a seat that owes none (it has picked and another
seat owes a follow-up, or another seat makes a special decision: Babylon's last card,
Halikarnassos' build from the discard, an Armada island) has only `noop` (index 0) in its mask,
and whatever it sends is ignored. In the pick phase every seat picks in the same step; the picks
are revealed together. Duel: `agent_selection` is the seat that owes the decision, the same seat
again after a play-again. `noop` is index 0 of both games and is legal only for a seat owing
nothing (in Duel: not the seat to act, or the game is over).

**Action index** (fixed for a configuration, never for a state; `env.action_names[i]` names index
i). The cards, wonders, islands and tokens are in `describe_components()`'s order (classic cards,
then Armada's; its wonders likewise).

Classic, C cards (77; with Armada 101): `noop`; `build:<card>` ×C; `wonder:<card>` (tuck it for the
next wonder stage) ×C; `discard:<card>` ×C; `build_from_discard:<card>` ×C; `pass` (decline the
build from the discard): 4C + 2 = 310. Armada adds after each of build, wonder and discard its
variant `build+naval:<card>`, `wonder+naval:<card>` (pay the naval step too) and
`discard+yellow:<card>` (move the yellow ship instead of 3 coins), then `keep_island:<island>`
×27, and two follow-up blocks: `stage:<k>` for k = 1 ... 4 and `moves:<tracks>` for the 16
subsets of the four tracks (`moves:none`, `moves:red`, ..., `moves:red+yellow+blue+green`; bit i
of `index - first moves index` is track i of red, yellow, blue, green): 7C + 2 + 27 + 4 + 16 = 756.

Duel: `noop`; `draft_wonder:<wonder>` ×12; `build:<card>` ×73; `discard:<card>` ×73;
`wonder:<card>@<wonder>` ×73×12; `build_from_discard:<card>` ×73; `destroy:<card>` for the brown
and grey cards (the colours Zeus and Circus Maximus destroy) ×13; `choose_progress:<token>` ×10;
`choose_box_token:<token>` ×10; `choose_starter:me`, `choose_starter:opponent`: 1143.

**From an index to the engine's action.** Each legal engine action has one primary index (its
type, card or island or token, and for Armada its naval step and yellow reward). The mask marks
every primary index with at least one legal action. The index chosen maps to the engine action,
among its options, that pays the fewest coins in all (bank, neighbours and far players added up);
on a tie the first the engine lists (it lists the non-dominated payments cheapest first). Only
Armada can leave more to choose, and then the env asks for it in the seat's next step instead of
guessing (the seat has applied nothing yet; the other seats send `noop`): first the wonder stage
when several are legal (Siracusa builds its stages in any order: `stage:<k>`), then the ship
moves when the options differ in them (a card, stage or island that moves one or more ships of
your choice: `moves:<tracks>`), each time with a mask of exactly the legal follow-ups. The choice
in progress is part of that seat's observation (`follow_up`, `pending_*`). The base game and Duel
never ask a follow-up: one index, one engine action. `infos[agent]["follow_up"]` says `"stage"`,
`"moves"` or None.

**Observation** (`env.observation_layout()`: every field's name, start, size, bounds and meaning;
`observation_layout(...)` below gives the same without an env). Only `game.view(seat)`,
`game.legal_actions(seat)` and the seat's own choice in progress go into it, never another seat's
view or the game's internals. Values are whole numbers in float32, clipped to the bounds.

Classic: age, turn, turns per Age, phase (one-hot), direction (+1 left, -1 right), discard pile
size, the seat's decision (one-hot), its hand (copies of each card, in the card order), the
discarded cards Halikarnassos may build, its own unrevealed pick; Armada: the islands it drew,
the island decks, the choice in progress; `action_cost` (for each legal primary index, the fewest
coins its options cost); then one block per player, **relative to the seat**: `players[0]` is the
seat itself, `players[k]` the player k seats to its left (`players[1]` its left neighbour,
`players[N-1]` its right one): wonder (one-hot), night side, coins, city (cards), stages built and
on its side, which stages are built, military tokens (victory points, defeats, sum), shields,
science symbols and wildcards, has chosen, owes a decision, hand size, production and production
for sale (sure units and either/or choices per resource), prices from its left and right
neighbours; Armada: shipyard board and wonder track (one-hot), ships' spaces, naval strength,
commercial level, islands, naval tokens, each track's next step cost (coins, resources, at the
top), landings owned and aimed at it. 4 players: 1136 values; with Armada 2266.

Duel (789 values): age, phase (one-hot), my turn, I started, conflict pawn (positive toward the
opponent's capital), military tokens left on each half, Wonders built and allowed, the draft
(round, pick, offer), the structure (each of its 20 slots: face up, face down, taken, accessible;
each face-up card's slot; the accessible cards; face-down Age cards and guilds), progress tokens
on the board, the discard pile, the decision's options, `build_cost` (each card's legal build)
and `wonder_cost` (each Wonder legal now); then `players[0]` (the
seat) and `players[1]` (the opponent): coins, city, Wonders and which are built, progress tokens,
science symbols, production (sure and either/or), bank prices, discard gain, military points.

**Rewards** are 0 until the end; at the end, classic `reward="margin"` (the default) gives each
seat its total minus the best other total (`"win"`: +1 for the only winner, 0 for a shared win,
-1 otherwise; winners as `game.result()` says, ties broken by coins); Duel `reward="win"` (the
default; supremacy wins count) or `"margin"`. Every agent terminates when the game ends (no
truncation: a game always ends); the last `infos` carry `totals` and `winners` (Duel:
`victory`). An index the mask does not mark raises ValueError.

Random agents (see README.md, "Reinforcement learning"):

    env = classic_env(players=4)
    obs, infos = env.reset(seed=1)
    while env.agents:
        actions = {a: env.action_space(a).sample(obs[a]["action_mask"]) for a in env.agents}
        obs, rewards, terminations, truncations, infos = env.step(actions)
"""

import importlib
from typing import Any

from app.engine import game_kind

try:
    from app.engine.env.classic import ClassicEnv, ClassicSpec, classic_env
    from app.engine.env.duel import DuelEnv, DuelSpec, duel_env
except ImportError as error:  # pragma: no cover - only without the rl extra
    raise ImportError(
        f"app.engine.env needs the rl extra (PettingZoo, Gymnasium, NumPy): pip install -e '.[rl]' ({error})"
    ) from error

__all__ = [
    "ClassicEnv",
    "ClassicSpec",
    "DuelEnv",
    "DuelSpec",
    "action_names",
    "classic_env",
    "duel_env",
    "observation_layout",
]


def _spec(game: str, players: int, expansions: tuple[str, ...]) -> ClassicSpec | DuelSpec:
    """The spec of the registered game kind `game` (its `env`: "module:function")."""
    kind = game_kind(game)
    if kind.env is None:
        raise ValueError(f"{kind.title} has no reinforcement-learning environment")
    module, function = kind.env.split(":")
    spec: ClassicSpec | DuelSpec = getattr(importlib.import_module(module), function)(players, expansions)
    return spec


def observation_layout(
    game: str = "classic", players: int = 4, expansions: tuple[str, ...] = ()
) -> list[dict[str, Any]]:
    """The observation vector field by field: name, start, stop, size, low, high, doc (and the
    labels of each entry: cards, resources, ...)."""
    return _spec(game, players, tuple(expansions)).layout.describe()


def action_names(game: str = "classic", players: int = 4, expansions: tuple[str, ...] = ()) -> list[str]:
    """The action index: the name of each index, in order."""
    return list(_spec(game, players, tuple(expansions)).action_names)
