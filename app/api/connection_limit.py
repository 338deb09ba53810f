"""Connections per client address, on this instance.

Every open connection holds a file descriptor and some memory from its first byte, before it says
who it is: without a cap, one address could open connections until the server has no descriptor
left for its database or for anyone else. The count is this process's own (what it protects is its
own descriptors). Websockets are counted from their handshake to their close (app/api/ws.py), HTTP
connections from their start to their close or upgrade (app/api/http_protocol.py), each in a count
of its own.
"""

from collections import Counter


class ConnectionsPerAddress:
    """How many connections each client address holds open here; at most `limit` (0: no limit)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: Counter[str] = Counter()

    def take(self, address: str) -> bool:
        """Count one more connection of this address; False (and nothing counted) if it has its limit."""
        if self.limit and self._open[address] >= self.limit:
            return False
        self._open[address] += 1
        return True

    def give_back(self, address: str) -> None:
        left = self._open[address] - 1
        if left > 0:
            self._open[address] = left
        else:
            del self._open[address]

    def held(self, address: str) -> int:
        return self._open.get(address, 0)
