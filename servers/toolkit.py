"""What the three tool modules share: dependencies, argument types, annotations, results.

Tools are module-level functions; what they run against (`ToolDeps`: the store, the clock,
the approval policy) is the server's lifespan context (`serving`), read with `deps_of(ctx)`.
`add_tool` registers one with its group. Every tool returns a `CallToolResult`: on success
the structured content is the output model and the text is its JSON (`success`). Expected
failures are raised and mapped once, by `add_tool`: a `Refused` becomes an `is_error` result
whose text is the reason (prefixed `refused: ` for writes) and whose structured content is
`Refused.as_dict()` (`error`, `field`, `message` and details such as valid values); a
`StoreError` (the store locked by another writer past the busy timeout, closed, broken)
becomes an `is_error` result that says so: the call did nothing and may be sent again.

The caller's run id travels in the request `_meta` under `io.stockshot/run_id`.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal, TypeAlias, cast

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult, RequestParamsMeta, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from servers.approvals import PROPOSAL_META_KEY
from servers.errors import Refused
from servers.settings import DEFAULT_MAX_ORDER_QUANTITY
from store.errors import StoreError
from store.models import JsonObject
from store.protocol import Store

__all__ = [
    "ACTOR_META_KEY",
    "CALLER_STATE",
    "CREATES",
    "GROUPS_META_KEY",
    "READ_ONLY",
    "RUN_ID_META_KEY",
    "UNDOES",
    "Caller",
    "Clock",
    "OrderIdArg",
    "SkuArg",
    "ToolContext",
    "ToolDeps",
    "WarehouseIdArg",
    "actor_of",
    "add_tool",
    "caller_of",
    "deps_of",
    "failed",
    "group_meta",
    "proposal_id_of",
    "refused",
    "run_id_of",
    "run_meta",
    "serving",
    "success",
    "utc_now",
]

GROUPS_META_KEY = "io.modelcontextprotocol/groups"
RUN_ID_META_KEY = "io.stockshot/run_id"
ACTOR_META_KEY = "io.stockshot/actor"
"""Who a call acts for (`api:NAME`, `cli:USER`), from a caller in the same process or over
stdio. Over HTTP only the authenticated caller counts (`CALLER_STATE`), never this key."""
CALLER_STATE = "stockshot_caller"
"""The HTTP request state entry where the mount's key check leaves the `Caller` it found."""


@dataclass(frozen=True)
class Caller:
    """An HTTP caller the key check authenticated: the key's name, and whether it may write
    without a proposal (an approver key, where direct writes are allowed)."""

    name: str
    writes_directly: bool = False


Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


@dataclass(frozen=True)
class ToolDeps:
    """What the tools run against; built by the entry point and passed in."""

    store: Store
    max_order_quantity: int = DEFAULT_MAX_ORDER_QUANTITY
    clock: Clock = field(default=utc_now)
    approval: Literal["auto", "manual"] = "auto"
    """`manual`: a write without an approved proposal becomes a proposal, whoever calls."""
    approval_ttl: timedelta = timedelta(hours=24)


ToolContext: TypeAlias = Context[ToolDeps, Any]
"""The context a tool is called with: the request, and the server's `ToolDeps`."""


def serving(
    deps: ToolDeps,
) -> Callable[[MCPServer[ToolDeps]], AbstractAsyncContextManager[ToolDeps]]:
    """The lifespan of a server whose tools run against `deps` (the store stays the caller's
    to close)."""

    @asynccontextmanager
    async def lifespan(server: MCPServer[ToolDeps]) -> AsyncIterator[ToolDeps]:
        yield deps

    return lifespan


def deps_of(ctx: ToolContext) -> ToolDeps:
    """What the tools of the server handling this call run against."""
    return ctx.request_context.lifespan_context


READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
"""A tool that reads: calling it again changes nothing."""
CREATES = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
)
"""A tool that adds a record: each call adds one more."""
UNDOES = ToolAnnotations(
    read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False
)
"""A tool that takes back a record: calling it again on the same record changes nothing."""

WarehouseIdArg = Annotated[
    str,
    Field(
        description="Warehouse id, like WH-01; not a SKU. warehouses_list gives the valid ids.",
        min_length=1,
        max_length=64,
    ),
]
SkuArg = Annotated[
    str,
    Field(description="Item SKU, like SKU-10402; not a warehouse id.", min_length=1, max_length=64),
]
OrderIdArg = Annotated[
    str,
    Field(
        description="Order id, like PO-000042, as returned by orders_create_replenishment "
        "or orders_list.",
        min_length=1,
        max_length=64,
    ),
]


def group_meta(group: str) -> JsonObject:
    return {GROUPS_META_KEY: [group]}


def add_tool(
    server: MCPServer[ToolDeps],
    group: str,
    tool: Callable[..., CallToolResult],
    *,
    name: str,
    title: str,
    description: str,
    annotations: ToolAnnotations,
) -> None:
    """Register `tool` of `group` on `server`, tagged with its group in the tool's `_meta`;
    `annotations` says what calling it does (`READ_ONLY`, `CREATES`, `UNDOES`). A `Refused` or
    `StoreError` it raises is its `is_error` result (`failed`), a write's said as one."""
    write = not annotations.read_only_hint

    @functools.wraps(tool)
    def answered(*args: Any, **kwargs: Any) -> CallToolResult:
        try:
            return tool(*args, **kwargs)
        except (Refused, StoreError) as exc:
            return failed(exc, write=write)

    server.add_tool(
        answered,
        name=name,
        title=title,
        description=description,
        annotations=annotations,
        meta=group_meta(group),
    )


def run_meta(run_id: str) -> RequestParamsMeta:
    """The request `_meta` a caller sends to tag its tool calls with its run id."""
    # An open TypedDict (extra_items), which mypy cannot check key by key.
    return cast(RequestParamsMeta, {RUN_ID_META_KEY: run_id})


def _meta_text(ctx: ToolContext, key: str) -> str | None:
    """The request `_meta` entry `key` as text, if the caller sent one that is not blank."""
    meta = ctx.request_context.meta
    value = meta.get(key) if meta else None
    return str(value) if value is not None and str(value).strip() else None


def run_id_of(ctx: ToolContext) -> str | None:
    """The caller's run id from the request `_meta`, if it sent one."""
    return _meta_text(ctx, RUN_ID_META_KEY)


def caller_of(ctx: ToolContext) -> Caller | None:
    """The authenticated HTTP caller of this request, if it came over HTTP with one."""
    request = ctx.request_context.request
    state = getattr(request, "scope", {}).get("state") if request is not None else None
    found = state.get(CALLER_STATE) if isinstance(state, dict) else None
    return found if isinstance(found, Caller) else None


def actor_of(ctx: ToolContext) -> str | None:
    """Who this call acts for: the authenticated HTTP caller, or over another transport the
    request `_meta`'s `io.stockshot/actor`."""
    caller = caller_of(ctx)
    if caller is not None:
        return caller.name
    if ctx.request_context.request is not None:
        return None  # over HTTP, what a client writes in `_meta` proves nothing
    value = _meta_text(ctx, ACTOR_META_KEY)
    return value[:200] if value is not None else None


def proposal_id_of(ctx: ToolContext) -> str | None:
    """The approved proposal a write executes, from the request `_meta`, if it names one."""
    return _meta_text(ctx, PROPOSAL_META_KEY)


def success(output: BaseModel, *, exclude_none: bool = False) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=output.model_dump_json(exclude_none=exclude_none))],
        structured_content=output.model_dump(mode="json", exclude_none=exclude_none),
    )


def refused(exc: Refused, *, write: bool = False) -> CallToolResult:
    text = f"refused: {exc.message}" if write else exc.message
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=exc.as_dict(),
        is_error=True,
    )


def failed(exc: Refused | StoreError, *, write: bool = False) -> CallToolResult:
    """A call the domain refused (`refused`), or one the store could not serve (a write
    rolled back whole), as its `is_error` result."""
    if isinstance(exc, Refused):
        return refused(exc, write=write)
    done = "nothing was written; send the call again shortly" if write else "try again shortly"
    message = f"{exc}; {done}"
    return CallToolResult(
        content=[TextContent(type="text", text=message)],
        structured_content={"error": "store_unavailable", "field": None, "message": message},
        is_error=True,
    )
