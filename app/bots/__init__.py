"""Bots that play through the engine's public API: the server seats them, and
`bench.server_load` plays them over websockets."""

from collections.abc import Mapping
from typing import Any

from app.bots.base import Bot, GreedyBot, RandomBot
from app.bots.classic_heuristic import HeuristicBot
from app.bots.ismcts import IsmctsBot
from app.bots.levels import LEVEL_NAMES, Level, levels

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "heuristic": HeuristicBot, "ismcts": IsmctsBot}
DEFAULT_BOT = "heuristic"  # the strongest: what takes a seat when nobody says which bot
LEVELS: dict[str, Level] = levels(BOTS)  # easy, medium, hard, with the hard bot's default budget
BOT_NAMES: tuple[str, ...] = (*BOTS, *LEVEL_NAMES)  # what make_bot accepts


def make_bot(
    kind: str, seed: int | None = None, *, level_table: Mapping[str, Level] | None = None, **options: Any
) -> Bot:
    """A new bot of that kind (see BOTS) or level (easy, medium, hard: see LEVELS, or `level_table`
    where a server sets the hard bot's budget); its own random choices follow the seed. Options go
    to the bot's constructor, after a level's own (ismcts: budget_ms, iterations). The bot's `name`
    is the name asked for."""
    table = LEVELS if level_table is None else level_table
    asked = kind
    if kind in table:
        level = table[kind]
        kind, options = level.kind, {**level.options, **options}
    if kind not in BOTS:
        raise ValueError(f"unknown bot '{asked}'; bots: {sorted(BOTS)}, levels: {list(LEVEL_NAMES)}")
    try:
        bot = BOTS[kind](seed, **options)
    except TypeError as error:
        raise ValueError(f"bad options for the '{kind}' bot: {error}") from None
    bot.name = asked
    return bot


def bot_plays(kind: str, game: str, *, level_table: Mapping[str, Level] | None = None) -> bool:
    """Whether the bot kind (or level) plays that game kind."""
    table = LEVELS if level_table is None else level_table
    plays = BOTS[table[kind].kind if kind in table else kind].plays
    return plays is None or game in plays


__all__ = [
    "BOTS",
    "BOT_NAMES",
    "DEFAULT_BOT",
    "LEVELS",
    "LEVEL_NAMES",
    "Bot",
    "GreedyBot",
    "HeuristicBot",
    "IsmctsBot",
    "Level",
    "RandomBot",
    "bot_plays",
    "levels",
    "make_bot",
]
