"""`stockshot serve`: serve the HTTP API and the dashboard.

Serve the HTTP API (OpenAPI at /docs), the dashboard at /, and the MCP tool servers at
/mcp/<group>/mcp. Binds 127.0.0.1 unless told otherwise; set STOCKSHOT_API_KEYS before serving
on another address.
"""

from __future__ import annotations

import argparse
import socket
import sys
from typing import TYPE_CHECKING

from pipeline.cli import Commands, command
from pipeline.errors import ConfigError
from pipeline.settings import Settings

if TYPE_CHECKING:
    import uvicorn

__all__ = ["bind", "register"]

_LOOPBACK = ("127.0.0.1", "localhost", "::1")


def register(sub: Commands) -> None:
    parser = command(sub, "serve", __doc__)
    parser.add_argument("--host", default=None, help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=None, help="port (default 8000; 0 = any)")
    parser.set_defaults(handler=_serve)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket, so a busy port is a clear error before anything loads."""
    from servers.http_app import bind as listen

    try:
        return listen(host, port, backlog=512)
    except OSError as exc:
        raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc


def _serve(args: argparse.Namespace, settings: Settings) -> int:
    import uvicorn

    from pipeline.api.app import create_app
    from servers.errors import InputError as ServerSettingsError
    from servers.settings import load_settings

    try:
        max_order_quantity = load_settings().max_order_quantity
    except ServerSettingsError as exc:
        raise ConfigError(str(exc)) from exc

    host = args.host or settings.host
    port = settings.port if args.port is None else args.port
    settings = settings.model_copy(update={"host": host, "port": port})
    if host not in _LOOPBACK and not settings.api_keys:
        print(
            f"stockshot serve: warning: {host} is reachable from other machines and "
            "STOCKSHOT_API_KEYS is not set, so anyone there can use the API",
            file=sys.stderr,
        )
    sock = bind(host, port)
    app = create_app(settings, max_order_quantity=max_order_quantity)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=5)
    _server(config, f"stockshot serve: http://{shown}:{bound}/ (API docs at /docs)").run(
        sockets=[sock]
    )
    return 0


def _server(config: uvicorn.Config, ready_line: str) -> uvicorn.Server:
    """uvicorn's server, saying where it listens once the app has started (engine loaded)."""
    import uvicorn

    class ReadyServer(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if not self.should_exit:
                print(ready_line, file=sys.stderr, flush=True)

    return ReadyServer(config)
