"""Bots that play through the engine's public API: the server seats them, and
`bench.server_load` plays them over websockets."""

from app.bots.base import Bot, GreedyBot, RandomBot
from app.bots.classic_heuristic import HeuristicBot

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "heuristic": HeuristicBot}
DEFAULT_BOT = "heuristic"  # the strongest: what takes a seat when nobody says which bot


def make_bot(kind: str, seed: int | None = None) -> Bot:
    """A new bot of that kind (see BOTS); its own random choices follow the seed."""
    if kind not in BOTS:
        raise ValueError(f"unknown bot '{kind}'; bots: {sorted(BOTS)}")
    return BOTS[kind](seed)


__all__ = ["BOTS", "DEFAULT_BOT", "Bot", "GreedyBot", "HeuristicBot", "RandomBot", "make_bot"]
