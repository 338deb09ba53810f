"""Running games: one in-memory runtime per game, built by replaying the stored log, and the service
that holds them, put together from its parts, each in its own file:

- `runtimes.py`: the runtime cache (loading games from their log, keeping and unloading them);
- `commits.py`: the commit pipeline (checking, applying and committing actions; its docstring tells
  how);
- `following.py`: following other instances (their steps, notices and resyncs) and long polls;
- `bot_driver.py`: the server-side bots, and the takeover of those another instance should play;
- `history.py`: a game's history.

The state they share is `game_base.py`'s; a game in memory is `runtime.py`'s `GameRuntime`. The
server only uses the engine's public face (`Game`), so every game kind is served alike.
"""

from app.rooms.bot_driver import BOT_TAKEOVER_MARGIN, BotDriver
from app.rooms.commits import CommitPipeline
from app.rooms.following import Following
from app.rooms.history import GameHistory
from app.rooms.runtime import GameFactory, GameRuntime, Submitted, new_seed, seat_bots, seats_taken_back
from app.rooms.runtimes import RuntimeCache

__all__ = [
    "BOT_TAKEOVER_MARGIN",
    "GameFactory",
    "GameRuntime",
    "GameService",
    "Submitted",
    "new_seed",
    "seat_bots",
    "seats_taken_back",
]


class GameService(RuntimeCache, CommitPipeline, Following, BotDriver, GameHistory):
    """The games of this instance: see the module's docstring for its parts."""
