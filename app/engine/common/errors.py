class IllegalAction(ValueError):
    """An action that the rules do not allow now, or that is malformed.

    The message says what was wrong; the game state is unchanged.
    """
