"""API keys: which key a request presents, and whether it is one of ours.

A key travels as `X-API-Key: KEY` or `Authorization: Bearer KEY`. It is compared in constant
time against every configured key (no early exit on the first match). The MCP mounts take
the bearer form only, as MCP clients send it.
"""

from __future__ import annotations

import hmac
import json
import re
from collections.abc import Iterable, Sequence

from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = [
    "LOOPBACK",
    "BearerGuard",
    "HostGuard",
    "host_allowed",
    "key_matches",
    "key_name",
    "key_secrets",
    "mcp_transport_security",
    "presented_bearer",
    "presented_key",
]

LOOPBACK = ("127.0.0.1", "localhost", "::1")

Headers = Iterable[tuple[bytes, bytes]]


def presented_bearer(headers: Headers) -> str | None:
    for name, value in headers:
        if name.lower() == b"authorization":
            scheme, _, credentials = value.decode("latin-1").partition(" ")
            if scheme.lower() == "bearer" and credentials.strip():
                return credentials.strip()
            return None
    return None


def presented_key(headers: Headers) -> str | None:
    """The key from `X-API-Key`, else from `Authorization: Bearer`."""
    listed = list(headers)
    for name, value in listed:
        if name.lower() == b"x-api-key" and value.strip():
            return value.decode("latin-1").strip()
    return presented_bearer(listed)


_NAMED = re.compile(r"^([A-Za-z][A-Za-z0-9_.-]{0,39}):(.+)$")


def _split(entry: str, index: int) -> tuple[str, str]:
    """`alice:SECRET` is the key SECRET named alice; a bare key is named `key-N`."""
    match = _NAMED.match(entry)
    return (match[1], match[2]) if match else (f"key-{index + 1}", entry)


def key_secrets(keys: Sequence[str]) -> list[str]:
    """The secrets of `STOCKSHOT_API_KEYS` entries, names dropped."""
    return [_split(entry, k)[1] for k, entry in enumerate(keys)]


def key_matches(presented: str | None, keys: Sequence[str]) -> bool:
    return key_name(presented, keys) is not None


def key_name(presented: str | None, keys: Sequence[str]) -> str | None:
    """The name of the key presented (its `name:` prefix, else `key-N`), or None when it is
    none of ours. Every key is compared, in constant time, before answering."""
    if presented is None or not keys:
        return None
    candidate = presented.encode("utf-8")
    found: str | None = None
    for index, entry in enumerate(keys):
        name, secret = _split(entry, index)
        if hmac.compare_digest(candidate, secret.encode("utf-8")) and found is None:
            found = name
    return found


class BearerGuard:
    """ASGI middleware for a mounted app: HTTP requests need `Bearer <one of the tokens>`."""

    def __init__(self, app: ASGIApp, tokens: Sequence[str]) -> None:
        self._app = app
        self._tokens = list(tokens)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not key_matches(
            presented_bearer(scope["headers"]), self._tokens
        ):
            body = json.dumps(
                {"error": "unauthorized", "message": "send Authorization: Bearer <token>"}
            ).encode("utf-8")
            await send(
                {
                    "type": "http.response.start",
                    "status": 401,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode("ascii")),
                        (b"www-authenticate", b'Bearer realm="stockshot"'),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        await self._app(scope, receive, send)


def host_name(header: str) -> str:
    """`Host` without its port: `127.0.0.1:8000` -> `127.0.0.1`, `[::1]:8000` -> `::1`."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def host_allowed(header: str, allowed: Sequence[str]) -> bool:
    return host_name(header) in {a.strip().lower().strip("[]") for a in allowed}


class HostGuard:
    """ASGI middleware: requests naming another host get 421 (a DNS-rebinding page in a
    browser reaches a loopback server under its own name, never under ours)."""

    def __init__(self, app: ASGIApp, allowed: Sequence[str]) -> None:
        self._app = app
        self._allowed = list(allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            header = next((v for k, v in scope["headers"] if k == b"host"), b"")
            if not host_allowed(header.decode("latin-1"), self._allowed):
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                    return
                body = json.dumps(
                    {
                        "error": "misdirected",
                        "message": "this server does not answer to that Host; add it to "
                        "STOCKSHOT_ALLOWED_HOSTS if it is a proxy of yours",
                    }
                ).encode("utf-8")
                await send(
                    {
                        "type": "http.response.start",
                        "status": 421,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode("ascii")),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self._app(scope, receive, send)


def mcp_transport_security(allowed: Sequence[str]) -> TransportSecuritySettings:
    """The MCP transport's own Host and Origin check, answering the names `HostGuard` does.

    The SDK's default on a loopback address knows only loopback names with a port, so a
    proxy's name, or `localhost` without a port, got 421 from the mounts while the rest of
    the API answered it."""
    names = [a.strip().lower().strip("[]") for a in allowed]
    hosts = [f"[{n}]" if ":" in n else n for n in names]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[form for host in hosts for form in (host, f"{host}:*")],
        allowed_origins=[
            form
            for host in hosts
            for scheme in ("http", "https")
            for form in (f"{scheme}://{host}", f"{scheme}://{host}:*")
        ],
    )
