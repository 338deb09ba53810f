"""The websocket writes of one batch go out as one socket write (app.api.batching)."""

import asyncio
import socket
import threading
import time
from typing import Any

import uvicorn
import websockets

from app.api.batching import BATCH_EXTENSION, BatchingWebSocketProtocol, HeldTransport, batch


class RecordingTransport(asyncio.Transport):
    """Keeps every write (and whether it was closed) instead of sending it."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:  # type: ignore[override]
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def get_write_buffer_size(self) -> int:
        return 7


def held_scope(transport: HeldTransport) -> dict[str, Any]:
    return {"extensions": {BATCH_EXTENSION: {"hold": transport.hold, "release": transport.release}}}


def test_a_batch_is_one_write_of_its_messages_in_order() -> None:
    raw = RecordingTransport()
    held = HeldTransport(raw)
    held.write(b"before")  # outside a batch: at once
    assert raw.writes == [b"before"]
    with batch(held_scope(held)):
        held.write(b"one,")
        held.write(b"two,")
        held.write(b"three")
        assert raw.writes == [b"before"]  # nothing yet
    assert raw.writes == [b"before", b"one,two,three"]
    held.write(b"after")
    assert raw.writes == [b"before", b"one,two,three", b"after"]


def test_nested_batches_write_once_at_the_outer_end_and_close_sends_what_is_held() -> None:
    raw = RecordingTransport()
    held = HeldTransport(raw)
    scope = held_scope(held)
    with batch(scope):
        held.write(b"a")
        with batch(scope):
            held.write(b"b")
        assert raw.writes == []
        held.write(b"c")
    assert raw.writes == [b"abc"]
    held.hold()
    held.write(b"last words")
    held.close()  # a close never drops what was written before it
    assert raw.writes == [b"abc", b"last words"] and raw.closed
    assert held.is_closing() and held.get_write_buffer_size() == 7  # the rest is the transport's own


def test_what_is_held_when_the_connection_is_lost_is_dropped() -> None:
    raw = RecordingTransport()
    held = HeldTransport(raw)
    with batch(held_scope(held)):
        held.write(b"unsent")
        raw.close()  # the peer went away meanwhile
    assert raw.writes == []


def test_an_empty_batch_writes_nothing_and_no_extension_changes_nothing() -> None:
    raw = RecordingTransport()
    held = HeldTransport(raw)
    with batch(held_scope(held)):
        pass
    assert raw.writes == []
    with batch({"extensions": {}}), batch({}):  # another server: no such extension
        held.write(b"x")
    assert raw.writes == [b"x"]


def test_a_real_uvicorn_offers_the_extension_and_a_batch_arrives_whole_and_in_order() -> None:
    seen: dict[str, Any] = {}

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert scope["type"] == "websocket"
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        seen["offered"] = BATCH_EXTENSION in scope["extensions"]
        with batch(scope):
            for i in range(50):
                await send({"type": "websocket.send", "text": f"message {i} " + "x" * i})
        await send({"type": "websocket.send", "text": "alone"})
        await receive()  # until the client leaves

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws=BatchingWebSocketProtocol)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline
        time.sleep(0.02)

    async def client() -> list[str]:
        async with websockets.connect(f"ws://127.0.0.1:{port}/") as ws:
            return [str(await ws.recv()) for _ in range(51)]

    try:
        received = asyncio.run(client())
    finally:
        server.should_exit = True
        thread.join(10)
    assert seen["offered"] is True
    assert received == [f"message {i} " + "x" * i for i in range(50)] + ["alone"]
