"""A chat-completions endpoint on 127.0.0.1 that fails on purpose, and one that is not there.

`Misbehaving(kind)` answers every request the same broken way: `hang` reads the request and
never answers (until the endpoint is closed), `drop` closes the connection without a word,
the others send a fixed status and body. Nothing here sleeps: a hanging request waits on an
event that is set when the endpoint closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from types import TracebackType

__all__ = ["REPLIES", "Misbehaving", "refused_url"]

REPLIES: dict[str, tuple[int, str, str]] = {
    "not-json": (200, "text/html", "<html><body>proxy login</body></html>"),
    "no-choices": (200, "application/json", json.dumps({"id": "x", "object": "chat.completion"})),
    "empty-choices": (200, "application/json", json.dumps({"choices": []})),
    "http-500": (500, "text/plain", "internal error"),
    "http-503": (503, "application/json", json.dumps({"error": "model is loading"})),
    "not-an-object": (200, "application/json", json.dumps(["choices"])),
    "calls-not-a-list": (
        200,
        "application/json",
        json.dumps({"choices": [{"message": {"content": "", "tool_calls": 5}}]}),
    ),
    "truncated-json": (200, "application/json", '{"choices": [{"message": {"content": "ord'),
}
KINDS = (*REPLIES, "hang", "drop")


def refused_url() -> str:
    """The URL of a port nothing listens on (bound, then closed)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


class Misbehaving:
    def __init__(self, kind: str) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown misbehaviour {kind!r}; known: {', '.join(KINDS)}")
        self.kind = kind
        self.requests = 0
        self._closing = asyncio.Event()
        self._server: asyncio.Server | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        port = self._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}/v1"

    async def __aenter__(self) -> Misbehaving:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._closing.set()
        assert self._server is not None
        self._server.close()
        await asyncio.wait_for(self._server.wait_closed(), timeout=10)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            length = next(
                (
                    int(line.split(b":", 1)[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                ),
                0,
            )
            await reader.readexactly(length)
            self.requests += 1
            if self.kind == "hang":
                await self._closing.wait()
            elif self.kind != "drop":
                status, kind, body = REPLIES[self.kind]
                data = body.encode("utf-8")
                writer.write(
                    f"HTTP/1.1 {status} X\r\nContent-Type: {kind}\r\n"
                    f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode("ascii")
                    + data
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()
