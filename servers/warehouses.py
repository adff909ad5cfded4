"""The `warehouses` tool group: which warehouses exist, read-only."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult

from servers import domain
from servers.models import WarehouseList, WarehouseSummary
from servers.toolkit import (
    READ_ONLY,
    ToolContext,
    ToolDeps,
    WarehouseIdArg,
    add_tool,
    deps_of,
    success,
)

__all__ = ["GROUP", "instructions", "register"]

GROUP = "warehouses"


def instructions(deps: ToolDeps) -> str:
    return (
        "Warehouse tools say which warehouses exist. Use only warehouse ids that "
        "warehouses_list returns (like WH-01); a name or city on a screenshot is not an id, "
        "so look it up here instead of guessing."
    )


def list_warehouses(ctx: ToolContext) -> Annotated[CallToolResult, WarehouseList]:
    return success(domain.list_warehouses(deps_of(ctx).store))


def get_warehouse(
    warehouse_id: WarehouseIdArg, ctx: ToolContext
) -> Annotated[CallToolResult, WarehouseSummary]:
    return success(domain.get_warehouse(deps_of(ctx).store, warehouse_id))


def register(server: MCPServer[ToolDeps], deps: ToolDeps) -> None:
    add_tool(
        server,
        GROUP,
        list_warehouses,
        name="warehouses_list",
        title="List warehouses",
        description="Every warehouse: id, name, city, how many SKUs it stocks and how many "
        "need reordering now.",
        annotations=READ_ONLY,
    )
    add_tool(
        server,
        GROUP,
        get_warehouse,
        name="warehouses_get",
        title="Get a warehouse",
        description="One warehouse: name, city, how many SKUs it stocks and how many need "
        "reordering now.",
        annotations=READ_ONLY,
    )
