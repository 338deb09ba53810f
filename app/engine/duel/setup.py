"""Setting a Duel game up from its seed: the draft order and the Age decks."""

import random
from typing import TYPE_CHECKING

from app.engine.duel.definitions import AGES

if TYPE_CHECKING:
    from app.engine.duel.game import DuelGame


def draft_order(first: int, per_round: int) -> list[int]:
    """A B B A, then B A A B (for 4 Wonders a round): who takes each Wonder of the draft."""
    a, b = first, 1 - first
    first_round = [a] + [b, b, a, a] * per_round
    second_round = [b] + [a, a, b, b] * per_round
    return first_round[:per_round] + second_round[:per_round]


def deal(game: "DuelGame", rng: random.Random) -> None:
    """Shuffle each Age deck, set 3 cards aside unseen, and add 3 random guilds to Age III."""
    removed = game.data.setup.cards_removed_per_age
    guilds = list(game.data.guild_ids)
    rng.shuffle(guilds)
    keep = game.data.setup.guilds_in_age_3
    for age in AGES:
        deck = list(game.data.age_ids[age])
        rng.shuffle(deck)
        game.removed.extend(deck[:removed])
        deck = deck[removed:]
        if age == 3:
            deck.extend(guilds[:keep])
            game.removed.extend(guilds[keep:])
            rng.shuffle(deck)
        game.decks[age] = deck
