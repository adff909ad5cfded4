"""Build the MCP server of one tool group, or of all groups together."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from importlib import metadata
from typing import Literal, TypedDict

from mcp.server.mcpserver import MCPServer

from servers import inventory, orders, warehouses
from servers.errors import InputError
from servers.settings import DEFAULT_MAX_ORDER_QUANTITY
from servers.toolkit import Clock, ToolDeps, serving, utc_now
from store.protocol import Store

__all__ = ["ALL", "GROUPS", "ServerOptions", "build_server", "group_names"]


class ServerOptions(TypedDict, total=False):
    """`build_server`'s settings, to pass the same ones to several servers."""

    max_order_quantity: int
    clock: Clock
    approval: Literal["auto", "manual"]
    approval_ttl: timedelta


ALL = "all"


@dataclass(frozen=True)
class _Group:
    instructions: Callable[[ToolDeps], str]
    register: Callable[[MCPServer[ToolDeps], ToolDeps], None]


GROUPS: dict[str, _Group] = {
    inventory.GROUP: _Group(inventory.instructions, inventory.register),
    orders.GROUP: _Group(orders.instructions, orders.register),
    warehouses.GROUP: _Group(warehouses.instructions, warehouses.register),
}


def group_names(group: str) -> list[str]:
    """`all` → every group; a group name → itself; anything else → `InputError`."""
    if group == ALL:
        return list(GROUPS)
    if group not in GROUPS:
        raise InputError(f"unknown server group {group!r}; known: {', '.join([*GROUPS, ALL])}")
    return [group]


def build_server(
    group: str,
    store: Store,
    *,
    max_order_quantity: int = DEFAULT_MAX_ORDER_QUANTITY,
    clock: Clock = utc_now,
    approval: Literal["auto", "manual"] = "auto",
    approval_ttl: timedelta = timedelta(hours=24),
) -> MCPServer[ToolDeps]:
    """The server of `group` (`inventory`, `orders`, `warehouses`, or `all` in one server).
    Under `manual` approval its write tools hold every write for a person (`servers.orders`).
    Its tools read what they run against from the server's lifespan context.

    The store stays the caller's to close.
    """
    names = group_names(group)
    deps = ToolDeps(
        store=store,
        max_order_quantity=max_order_quantity,
        clock=clock,
        approval=approval,
        approval_ttl=approval_ttl,
    )
    if len(names) == 1:
        text = GROUPS[names[0]].instructions(deps)
    else:
        text = "\n\n".join(f"## {name} tools\n{GROUPS[name].instructions(deps)}" for name in names)
    server = MCPServer(
        f"stockshot-{group}",
        title=f"stockshot {group}",
        instructions=text,
        version=_version(),
        log_level="WARNING",
        lifespan=serving(deps),
    )
    for name in names:
        GROUPS[name].register(server, deps)
    return server


def _version() -> str:
    try:
        return metadata.version("stockshot")
    except metadata.PackageNotFoundError:
        return "0"
