"""Bots that play through the engine's public API (and, with the client, over websockets)."""

from app.bots.base import Bot, RandomBot, make_bot

__all__ = ["Bot", "RandomBot", "make_bot"]
