"""Wonders server: rules engine, game server and bots for 7 Wonders, Armada and 7 Wonders Duel."""
