"""The phases of a classic game: what kind of decision the seats to act owe (a variant adds its own)."""

PICK = "pick"  # every seat picks a card of its hand, secretly; picks resolve together
LAST_CARD = "last_card"  # Babylon plays the last card of an Age
DISCARD_BUILD = "discard_build"  # Halikarnassos builds a card of the discard pile for free
OVER = "over"
