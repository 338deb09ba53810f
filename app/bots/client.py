"""The bots' command line: join a room of any server and play one seat with a bot of app.bots.

    python -m app.bots.client http://127.0.0.1:8000 EHY8PJU --name Robo --bot heuristic
    python -m app.bots.client http://127.0.0.1:8000 EHY8PJU --token SEAT_TOKEN -v
    python -m app.bots.client http://127.0.0.1:8000 --rejoin-link 'http://127.0.0.1:8000/room.html?code=EHY8PJU&rejoin=...'

It plays the room's running game, or the next one the host starts, to its end: one line per notable
event, the score sheet at the end, exit status 0 when the game finished (1 on an error or an
abandoned game, 2 for bad arguments). See docs/BOTS.md.

The client is the package app.client (its command line is also `python -m app.client`); its public
names are here too, so `from app.bots.client import run_bot` goes on working.
"""

import sys

import app.client
from app.client import *  # noqa: F403 (app.client's public names)
from app.client.cli import main

__all__ = app.client.__all__

if __name__ == "__main__":
    sys.exit(main())
