"""The `warehouses` tool group: which warehouses exist, read-only."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult

from servers import domain
from servers.models import WarehouseList, WarehouseSummary
from servers.toolkit import (
    READ_ONLY,
    ToolDeps,
    WarehouseIdArg,
    group_tool,
    read_result,
)

__all__ = ["GROUP", "instructions", "register"]

GROUP = "warehouses"


def instructions(deps: ToolDeps) -> str:
    return (
        "Warehouse tools say which warehouses exist. Use only warehouse ids that "
        "warehouses_list returns (like WH-01); a name or city on a screenshot is not an id, "
        "so look it up here instead of guessing."
    )


def register(server: MCPServer, deps: ToolDeps) -> None:
    @group_tool(
        server,
        GROUP,
        name="warehouses_list",
        title="List warehouses",
        description="Every warehouse: id, name, city, how many SKUs it stocks and how many "
        "need reordering now.",
        annotations=READ_ONLY,
    )
    def list_warehouses() -> Annotated[CallToolResult, WarehouseList]:
        return read_result(lambda: domain.list_warehouses(deps.store))

    @group_tool(
        server,
        GROUP,
        name="warehouses_get",
        title="Get a warehouse",
        description="One warehouse: name, city, how many SKUs it stocks and how many need "
        "reordering now.",
        annotations=READ_ONLY,
    )
    def get_warehouse(warehouse_id: WarehouseIdArg) -> Annotated[CallToolResult, WarehouseSummary]:
        return read_result(lambda: domain.get_warehouse(deps.store, warehouse_id))
