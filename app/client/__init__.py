"""A bot client for any server: join a room over REST and play one seat over the websocket.

It plays the room's running game, or the next one the host starts, to its end. A dropped
connection (the server restarting, the network going away) is reconnected with backoff, and an
action whose answer was lost is sent again with the same `action_id` (the server never applies it
twice). See docs/BOTS.md.

From Python, with a bot of app.bots or a function of your own:

    from app.client import run_bot

    def choose(view, legal_actions):
        return legal_actions[0]

    outcome = run_bot("http://127.0.0.1:8000", "EHY8PJU", choose, name="First")
    print(outcome.status, outcome.result)

`play(...)` is the same as a coroutine; `BotClient` is the websocket loop itself, for a seat token
you already hold (bench.server_load plays every seat of its rooms with it).

From the command line, with a bot of app.bots (`python -m app.bots.client` is the same):

    python -m app.client http://127.0.0.1:8000 EHY8PJU --name Robo --bot heuristic

The parts: rest.py (the server's URLs and REST calls: join, rejoin), connection.py (BotClient, the
websocket loop), receive.py (receiving without waiting, or within a deadline), outcome.py (how the
game ended), render.py (actions, the score sheet and the game's lines in words), api.py (play,
run_bot, as_chooser), cli.py (the command line), errors.py (ClientError). The client talks to the
server by its protocol only: of this project it uses app.bots (a bot by name) and app.engine's
public face.
"""

from app.client.api import as_chooser, play, run_bot
from app.client.cli import main
from app.client.connection import BotClient, Choose, Log, View
from app.client.errors import ClientError
from app.client.outcome import Outcome
from app.client.render import describe, score_sheet
from app.client.rest import Seat, join, parse_rejoin_link, rejoin

__all__ = [
    "BotClient",
    "Choose",
    "ClientError",
    "Log",
    "Outcome",
    "Seat",
    "View",
    "as_chooser",
    "describe",
    "join",
    "main",
    "parse_rejoin_link",
    "play",
    "rejoin",
    "run_bot",
    "score_sheet",
]
