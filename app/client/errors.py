"""Why the client stops: ClientError (one sentence), and why_failed(): a failed connection in a few words."""

import socket

import httpx


class ClientError(Exception):
    """The client cannot go on: one sentence saying why (and the server's error code, if any)."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def why_failed(exc: BaseException) -> str:
    """Why a connection failed, in a few words (httpx and websockets wrap the OS's own error)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ConnectionRefusedError):
            return "connection refused"
        if isinstance(seen, socket.gaierror):
            return "unknown host"
        if isinstance(seen, httpx.TimeoutException | TimeoutError):
            return "timed out"
        seen = seen.__cause__ or seen.__context__
    return str(exc) or type(exc).__name__
