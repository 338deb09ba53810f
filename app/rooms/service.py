"""Rooms: settings, seats and tokens, the host's powers, and starting games.

Room states: `open` (waiting for players), `playing`, `finished` (a game ended; seats may change
and the host may start a rematch) and `closed` (every person left). Free seats have no row; the
database's unique `(room_id, seat)` and `(room_id, name_key)` settle two people racing for one
seat or one name, in one instance or several.

During a game a person's seat may be played by a bot for them (`bot_plays`, with `bot_reason`
"host", "left" or "timeout"): the seat keeps its person's name and token, and the person takes it
back by acting or saying they are back. A rejoin link moves a seat to another device: its new token
(kept as `rejoin_hash`) becomes the seat's token when the link is opened, and the old one stops
working. `my_games.py` lists every seat a browser holds, and moves them all with one link.

The service is put together from its parts, each in its own file: `room_rules.py` (what a room
accepts), `room_reads.py` (reading rooms and tokens), `seating.py` (creating rooms, joining,
leaving), `handover.py` (bots playing people's seats), `rejoin.py` (rejoin links), `host.py`
(the host's powers), `chat.py` (the room's chat) and `notify_settings.py` (where people are told of their
games); `room_base.py` holds what they share.
"""

from app.rooms.chat import RoomChat
from app.rooms.handover import BotHandover
from app.rooms.host import HostPowers
from app.rooms.my_games import MyGames
from app.rooms.notify_settings import NotifySettings
from app.rooms.rejoin import RejoinLinks
from app.rooms.room_base import ROOMS_WINDOW_S, Joined, SeatAuth
from app.rooms.room_reads import RoomReads
from app.rooms.room_rules import RoomChecks
from app.rooms.seating import Seating

__all__ = ["ROOMS_WINDOW_S", "Joined", "RoomService", "SeatAuth"]


class RoomService(
    RoomChecks, RoomReads, Seating, BotHandover, RejoinLinks, HostPowers, RoomChat, NotifySettings, MyGames
):
    """Rooms, their seats and the games they start: see the module's docstring for its parts."""
