"""7 Wonders for 3-7 players (second edition), with Armada as an option of the same game."""
