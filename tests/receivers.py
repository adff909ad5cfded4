"""A local webhook receiver for the tests: records what it is sent, or is down on request."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["Receiver", "receiving"]


class Receiver:
    """A local HTTP receiver: records what it is sent, or answers 503 while `down`."""

    def __init__(self) -> None:
        self.down = False
        self.received: list[tuple[dict[str, str], bytes]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if owner.down:
                    self.send_response(503)
                    self.end_headers()
                    return
                owner.received.append((dict(self.headers.items()), body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def events(self) -> list[str]:
        return [json.loads(body)["event"] for _, body in self.received]


@contextlib.contextmanager
def receiving() -> Iterator[Receiver]:
    """A receiver listening on 127.0.0.1 until the block ends."""
    made = Receiver()
    made.thread.start()
    try:
        yield made
    finally:
        made.server.shutdown()
        made.server.server_close()
