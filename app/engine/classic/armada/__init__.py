"""The Armada expansion as a variant of the classic game (see game.py)."""
