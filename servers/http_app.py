"""Streamable HTTP: one group at `/mcp`, or every group at `/<group>/mcp` in one app.

With a token, every HTTP request must carry `Authorization: Bearer <token>` (compared in
constant time) or gets 401.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import socket
from collections.abc import AsyncIterator, Mapping

import uvicorn
from mcp.server.mcpserver import MCPServer
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["BearerAuth", "bind", "build_http_app", "serve_http"]

logger = logging.getLogger(__name__)

_LOOPBACK = ("127.0.0.1", "localhost", "::1")


class BearerAuth:
    """ASGI middleware: HTTP requests without the bearer token get 401."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self._app = app
        self._token = token.encode("utf-8")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not self._authorized(scope):
            body = json.dumps({"error": "unauthorized", "message": "bearer token required"})
            await send(
                {
                    "type": "http.response.start",
                    "status": 401,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"www-authenticate", b'Bearer realm="stockshot"'),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body.encode("utf-8")})
            return
        await self._app(scope, receive, send)

    def _authorized(self, scope: Scope) -> bool:
        header = b""
        for name, value in scope["headers"]:
            if name == b"authorization":
                header = value
                break
        scheme, _, credentials = header.partition(b" ")
        return scheme.lower() == b"bearer" and hmac.compare_digest(credentials.strip(), self._token)


def build_http_app(
    servers: Mapping[str, MCPServer], *, token: str | None, host: str = "127.0.0.1"
) -> ASGIApp:
    """One server at `/mcp`; several at `/<group>/mcp`. Guarded by `token` when given."""
    if not servers:
        raise ValueError("no server to serve")
    app: ASGIApp
    if len(servers) == 1:
        (server,) = servers.values()
        app = server.streamable_http_app(host=host)
    else:
        mounts = [
            Mount(f"/{group}", app=server.streamable_http_app(host=host))
            for group, server in servers.items()
        ]

        @contextlib.asynccontextmanager
        async def lifespan(_: Starlette) -> AsyncIterator[None]:
            # A mounted app's own lifespan never runs, so the session managers start here.
            async with contextlib.AsyncExitStack() as stack:
                for server in servers.values():
                    await stack.enter_async_context(server.session_manager.run())
                yield

        app = Starlette(routes=mounts, lifespan=lifespan)
    return app if token is None else BearerAuth(app, token)


def bind(host: str, port: int, *, backlog: int = 128) -> socket.socket:
    """A listening socket; port 0 picks a free port (read it from `getsockname()`).

    TCP_NODELAY is set on the listener because uvicorn, given a socket, does not set it on the
    connections it accepts; they inherit it from here. Without it each response waits ~40 ms
    for a delayed ACK.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(backlog)
    except BaseException:
        sock.close()
        raise
    if host not in _LOOPBACK:
        logger.warning("serving MCP on %s, reachable from other machines", host)
    return sock


def serve_http(app: ASGIApp, sock: socket.socket) -> None:
    """Serve `app` on a bound socket until interrupted (SIGINT or SIGTERM)."""
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])
