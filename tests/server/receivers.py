"""Local receivers for notifications, on 127.0.0.1: a webhook (Apprise's json://) and an SMTP
server (aiosmtpd), each recording what it got."""

import contextlib
import email
import email.policy
import json
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from aiosmtpd.controller import Controller


@dataclass
class Received:
    title: str
    body: str
    headers: dict[str, str] = field(default_factory=dict)
    to: list[str] = field(default_factory=list)  # a webhook's: its path


class Webhook:
    """An HTTP server that takes Apprise's JSON posts: `url` is its json:// URL."""

    def __init__(self, status: int = 200) -> None:
        self.got: list[Received] = []
        self.status = status
        hook = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                data = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if hook.status == 200:
                    hook.got.append(Received(data["title"], data["message"], dict(self.headers), [self.path]))
                self.send_response(hook.status)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"json://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Mailbox:
    """An SMTP server (aiosmtpd) in a thread: every mail it takes, parsed."""

    def __init__(self) -> None:
        self.got: list[Received] = []
        box = self

        class Handler:
            async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
                message = email.message_from_bytes(envelope.content, policy=email.policy.default)
                part = message.get_body(preferencelist=("plain",))
                text = part.get_content() if part is not None else ""
                box.got.append(Received(str(message["Subject"]), text, {}, list(envelope.rcpt_tos)))
                return "250 OK"

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def close(self) -> None:
        self.controller.stop()


@contextlib.contextmanager
def receivers() -> Iterator[tuple[Webhook, Mailbox]]:
    hook, box = Webhook(), Mailbox()
    try:
        yield hook, box
    finally:
        hook.close()
        box.close()
