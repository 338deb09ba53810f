"""Bot levels by name, as rooms offer them: each level is one of the bot kinds (app.bots.BOTS).

easy is the greedy bot, medium the heuristic bot, hard the search bot ("ismcts") with a time
budget per decision that the server sets; where no search bot is installed, hard is the
heuristic bot.
"""

from dataclasses import dataclass, field
from typing import Any

DEFAULT_HARD_BUDGET_MS = 1000


@dataclass(frozen=True, slots=True)
class Level:
    kind: str  # the bot kind it plays
    options: dict[str, Any] = field(default_factory=dict)  # passed to that kind's constructor


def levels(kinds: set[str] | dict[str, Any], hard_budget_ms: int = DEFAULT_HARD_BUDGET_MS) -> dict[str, Level]:
    """The levels over the bot kinds there are (`kinds`), the hard one's budget in milliseconds."""
    hard = Level("ismcts", {"budget_ms": hard_budget_ms}) if "ismcts" in kinds else Level("heuristic")
    return {"easy": Level("greedy"), "medium": Level("heuristic"), "hard": hard}


LEVEL_NAMES = ("easy", "medium", "hard")
