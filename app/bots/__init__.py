"""Bots that play through the engine's public API: the server seats them, and
`bench.server_load` plays them over websockets."""

from typing import Any

from app.bots.base import Bot, GreedyBot, RandomBot
from app.bots.classic_heuristic import HeuristicBot
from app.bots.ismcts import IsmctsBot

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "heuristic": HeuristicBot, "ismcts": IsmctsBot}
DEFAULT_BOT = "heuristic"  # the strongest: what takes a seat when nobody says which bot


def make_bot(kind: str, seed: int | None = None, **options: Any) -> Bot:
    """A new bot of that kind (see BOTS); its own random choices follow the seed. Options go to
    the bot's constructor (ismcts: budget_ms, iterations)."""
    if kind not in BOTS:
        raise ValueError(f"unknown bot '{kind}'; bots: {sorted(BOTS)}")
    try:
        return BOTS[kind](seed, **options)
    except TypeError as error:
        raise ValueError(f"bad options for the '{kind}' bot: {error}") from None


__all__ = ["BOTS", "DEFAULT_BOT", "Bot", "GreedyBot", "HeuristicBot", "IsmctsBot", "RandomBot", "make_bot"]
