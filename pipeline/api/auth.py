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
from dataclasses import dataclass
from typing import Literal, TypeVar, cast

from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import ASGIApp, Receive, Scope, Send

from servers.toolkit import CALLER_STATE, Caller

__all__ = [
    "GRANTS",
    "LOOPBACK",
    "ROLES",
    "ApiKey",
    "BearerGuard",
    "HostGuard",
    "Role",
    "host_allowed",
    "key_matches",
    "key_name",
    "key_of",
    "key_secrets",
    "mcp_transport_security",
    "parse_key",
    "parse_keys",
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


T = TypeVar("T")

_NAMED = re.compile(r"^([A-Za-z][A-Za-z0-9_.-]{0,39}):(.+)$")

Role = Literal["viewer", "operator", "approver", "admin"]
ROLES: tuple[Role, ...] = ("viewer", "operator", "approver", "admin")
GRANTS: dict[Role, frozenset[Role]] = {
    "viewer": frozenset({"viewer"}),
    "operator": frozenset({"viewer", "operator"}),
    "approver": frozenset({"viewer", "approver"}),
    "admin": frozenset(ROLES),
}
"""What each role may do, as the roles it includes: an operator uploads and starts runs, an
approver decides proposals; both read what a viewer reads; an admin does everything."""


@dataclass(frozen=True)
class ApiKey:
    """One `STOCKSHOT_API_KEYS` entry: `SECRET`, `name:SECRET` or `name:SECRET:role+role`."""

    name: str
    secret: str
    roles: frozenset[Role]


def parse_key(entry: str, index: int) -> ApiKey:
    """`alice:SECRET:approver` is the key SECRET named alice that may approve (and view); a
    key without roles keeps every role; a bare key is named `key-N`. An unknown role is an
    error that names the roles."""
    match = _NAMED.match(entry)
    if not match:
        return ApiKey(f"key-{index + 1}", entry, GRANTS["admin"])
    name, rest = match[1], match[2]
    secret, sep, listed = rest.rpartition(":")
    if not sep or not secret:
        return ApiKey(name, rest, GRANTS["admin"])
    wanted = [r.strip() for r in listed.split("+")]
    unknown = [r for r in wanted if r not in ROLES]
    if unknown:
        raise ValueError(
            f"API key {name!r}: unknown role {', '.join(map(repr, unknown))}; "
            f"roles: {', '.join(ROLES)} (joined with +, like name:secret:operator+approver)"
        )
    granted: frozenset[Role] = frozenset().union(*(GRANTS[cast(Role, r)] for r in wanted))
    return ApiKey(name, secret, granted)


def parse_keys(keys: Sequence[str]) -> list[ApiKey]:
    return [parse_key(entry, k) for k, entry in enumerate(keys)]


def key_secrets(keys: Sequence[str], *, role: Role | None = None) -> list[str]:
    """The secrets of `STOCKSHOT_API_KEYS` entries (those granted `role`, when given)."""
    return [k.secret for k in parse_keys(keys) if role is None or role in k.roles]


def key_matches(presented: str | None, keys: Sequence[str]) -> bool:
    return key_of(presented, keys) is not None


def key_name(presented: str | None, keys: Sequence[str]) -> str | None:
    """The name of the key presented (its `name:` prefix, else `key-N`), or None when it is
    none of ours."""
    found = key_of(presented, keys)
    return None if found is None else found.name


def matching(presented: str | None, secrets: Iterable[tuple[str, T]]) -> T | None:
    """What the secret presented stands for, or None when it is none of `secrets`. Every
    secret is compared, in constant time, before answering."""
    if presented is None:
        return None
    candidate = presented.encode("utf-8")
    found: T | None = None
    for secret, value in secrets:
        if hmac.compare_digest(candidate, secret.encode("utf-8")) and found is None:
            found = value
    return found


def key_of(presented: str | None, keys: Sequence[str]) -> ApiKey | None:
    """The key presented, or None when it is none of ours."""
    return matching(presented, ((key.secret, key) for key in parse_keys(keys)))


MISSING_KEY = (
    "no API key was sent: send one as X-API-Key: KEY or Authorization: Bearer KEY (this "
    "server's keys are set in STOCKSHOT_API_KEYS)"
)
UNKNOWN_KEY = (
    "the API key sent is not one of this server's keys: check it for a typo, or ask whoever "
    "runs the server for a key (STOCKSHOT_API_KEYS)"
)


class BearerGuard:
    """ASGI middleware for a mounted app: HTTP requests need `Bearer <one of the tokens>`.
    One of `lacking` (a key of ours without the role the mount needs) gets 403 saying so.
    A token in `callers` is that `Caller` for the app (in the request state, where the tool
    servers read who acts: `servers.toolkit.caller_of`)."""

    def __init__(
        self,
        app: ASGIApp,
        tokens: Sequence[str],
        lacking: Sequence[str] = (),
        role: str = "",
        callers: Sequence[tuple[str, Caller]] = (),
    ) -> None:
        self._app = app
        self._tokens = list(tokens)
        self._lacking = list(lacking)
        self._role = role
        self._callers = list(callers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            presented = presented_bearer(scope["headers"])
            caller = matching(presented, self._callers)
            if caller is not None:
                # A new state for this request: the one the server hands out may be shared.
                scope = {**scope, "state": {**scope.get("state", {}), CALLER_STATE: caller}}
            if not key_matches(presented, self._tokens):
                if key_matches(presented, self._lacking):
                    message = (
                        f"this key lacks the {self._role!r} role the MCP mounts need; give it "
                        f"the role in STOCKSHOT_API_KEYS as name:secret:{self._role}"
                    )
                    await _refuse(send, 403, "role_required", message)
                elif presented:
                    await _refuse(send, 401, "unknown_key", UNKNOWN_KEY)
                else:
                    await _refuse(
                        send, 401, "missing_key", "no key was sent: send Authorization: Bearer KEY"
                    )
                return
        await self._app(scope, receive, send)


async def _refuse(send: Send, status: int, error: str, message: str) -> None:
    body = json.dumps({"error": error, "message": message}).encode("utf-8")
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode("ascii")),
    ]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="stockshot"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


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
