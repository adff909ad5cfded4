"""What every route works with: the store slot, the services of this app, the API key check."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Annotated, TypedDict, TypeVar

from fastapi import Depends, Request, params
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from mcp.server.mcpserver import MCPServer
from starlette.exceptions import HTTPException

from pipeline.api.auth import GRANTS, MISSING_KEY, UNKNOWN_KEY, Role, key_of
from pipeline.api.errors import Refusal
from pipeline.approval_desk import ApprovalDesk
from pipeline.bootstrap import screen_shelf, utc_now
from pipeline.host import MemoryTarget
from pipeline.jobs import Jobs
from pipeline.jobs.runbook import RunBook
from pipeline.models import JsonObject
from pipeline.profiles import StoreProfiles
from pipeline.settings import Settings
from pipeline.shelf import ScreenShelf
from store.errors import StoreError
from store.protocol import Store, StoreReader, StoreWriter

__all__ = ["AppServices", "Services", "StoreSlot", "caller", "needs", "or_404", "require_key"]

T = TypeVar("T")


class StoreSlot:
    """A `Store` whose real store is opened in the lifespan; the servers are built on it."""

    def __init__(self) -> None:
        self.store: Store | None = None

    def _open(self) -> Store:
        if self.store is None:
            raise StoreError("the store is not open (the server is starting or stopping)")
        return self.store

    def reading(self) -> AbstractContextManager[StoreReader]:
        return self._open().reading()

    def writing(self) -> AbstractContextManager[StoreWriter]:
        return self._open().writing()

    def close(self) -> None:
        """The lifespan closes the real store; the slot itself owns nothing."""


@dataclass
class AppServices:
    settings: Settings
    slot: StoreSlot
    servers: dict[str, MCPServer]
    runs: RunBook
    jobs: Jobs | None = None

    @property
    def targets(self) -> list[MemoryTarget]:
        return [MemoryTarget(group, server) for group, server in self.servers.items()]

    @property
    def desk(self) -> ApprovalDesk:
        """Approvals run the stored call through the same in-memory orders server."""
        return ApprovalDesk(
            self.slot,
            [MemoryTarget("orders", self.servers["orders"])],
            clock=utc_now,
            separate=self.settings.approval_separate,
        )

    @property
    def profiles(self) -> StoreProfiles:
        """Column profiles in the store, as every surface reads and saves them."""
        return StoreProfiles(self.slot, clock=utc_now)

    @property
    def shelf(self) -> ScreenShelf:
        """The screenshots kept on disk, in the folder the settings name."""
        return screen_shelf(self.settings)

    def job_queue(self) -> Jobs:
        """Where ingests and runs go: this process (SQLite) or the worker queue (PostgreSQL)."""
        if self.jobs is None:
            raise HTTPException(503, "the OCR engine is still loading; try again shortly")
        return self.jobs


def _services(request: Request) -> AppServices:
    services: AppServices = request.app.state.services
    return services


Services = Annotated[AppServices, Depends(_services)]

_key_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="an API key")
_bearer = HTTPBearer(auto_error=False, description="an API key as a bearer token")


def require_key(
    request: Request,
    services: Services,
    key: Annotated[str | None, Depends(_key_header)],
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> None:
    """Every `/v1` route: one of our keys, when keys are set. The key's name is who acts
    (approvals record it)."""
    keys = services.settings.api_keys
    if not keys:
        request.state.caller = "api (no key configured)"
        request.state.roles = GRANTS["admin"]
        return
    presented = key or (bearer.credentials if bearer is not None else None)
    found = key_of(presented, keys)
    if found is None:
        challenge = {"WWW-Authenticate": 'Bearer realm="stockshot"'}
        if not presented:
            raise Refusal(401, "missing_key", MISSING_KEY, headers=challenge)
        raise Refusal(401, "unknown_key", UNKNOWN_KEY, headers=challenge)
    request.state.caller = f"api:{found.name}"
    request.state.key_name = found.name
    request.state.roles = found.roles


class _Needs:
    def __init__(self, role: Role) -> None:
        self.role = role

    def __call__(self, request: Request) -> None:
        granted: frozenset[Role] = getattr(request.state, "roles", frozenset())
        if self.role not in granted:
            name = getattr(request.state, "key_name", "this key")
            raise Refusal(
                403,
                "role_required",
                f"the key {name!r} lacks the {self.role!r} role this needs "
                f"(it has: {', '.join(sorted(granted)) or 'none'}); give the key the role in "
                f"STOCKSHOT_API_KEYS as name:secret:{self.role}, or use another key",
                details={"role": self.role, "granted": sorted(granted)},
            )


class RouteNeeds(TypedDict):
    """Keyword arguments of a route decorator (`@router.get(..., **needs(role))`)."""

    dependencies: Sequence[params.Depends]
    openapi_extra: JsonObject


def needs(role: Role, openapi_extra: JsonObject | None = None) -> RouteNeeds:
    """A route's keyword arguments declaring the role its caller's key must have: checked
    after the key (403 naming the role), and shown in the OpenAPI document as
    `x-stockshot-role` (beside the route's own `openapi_extra`)."""
    extra: JsonObject = {**(openapi_extra or {}), "x-stockshot-role": role}
    return {"dependencies": [Depends(_Needs(role))], "openapi_extra": extra}


def caller(request: Request) -> str:
    """Who sent this request: `api:<key name>` (set by `require_key`)."""
    return str(getattr(request.state, "caller", "api"))


def or_404(found: T | None, missing: str) -> T:
    """`found`, or a 404 that says `missing` when there is none."""
    if found is None:
        raise HTTPException(404, missing)
    return found
