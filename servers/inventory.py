"""The `inventory` tool group: live stock, read-only."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult
from pydantic import Field

from servers import domain
from servers.models import FoundItems, ItemReport, StockReport
from servers.toolkit import (
    READ_ONLY,
    SkuArg,
    ToolContext,
    ToolDeps,
    WarehouseIdArg,
    add_tool,
    deps_of,
    success,
)

__all__ = ["GROUP", "instructions", "register"]

GROUP = "inventory"

QueryArg = Annotated[
    str,
    Field(
        description="What a screen or a person identifies the item by, as shown: a SKU, a "
        'barcode, a part number, an alias or a name, like "4006381333931" or "Hex bolt M8x40".',
        min_length=1,
        max_length=200,
    ),
]

SkusArg = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=64)]] | None,
    Field(
        description='SKUs to read, like ["SKU-10402", "SKU-10403"]; omit to read every SKU '
        "stocked in the warehouse.",
        max_length=500,
    ),
]


def instructions(deps: ToolDeps) -> str:
    return (
        "Inventory tools read live stock. A screenshot is a past view: before acting on a "
        "number from a screenshot, read it live with inventory_query_stock and trust the live "
        "value. Live on_order already includes open replenishment orders. A SKU needs "
        "reordering only when on_hand + on_order < reorder_point (needs_reorder). Warehouse "
        "ids look like WH-01 and SKUs like SKU-10402; never pass one for the other. An item "
        "shown by a barcode, part number, alias or name is found with inventory_find_items; "
        "only the SKU it answers goes in a sku argument, and when it answers several items or "
        "none, ask the user. When a tool reports an unknown id, pick one of the values it lists "
        "or ask the user; do not guess."
    )


def query_stock(
    warehouse_id: WarehouseIdArg, ctx: ToolContext, skus: SkusArg = None
) -> Annotated[CallToolResult, StockReport]:
    deps = deps_of(ctx)
    return success(domain.query_stock(deps.store, warehouse_id, skus, now=deps.clock()))


def find_items(query: QueryArg, ctx: ToolContext) -> Annotated[CallToolResult, FoundItems]:
    return success(domain.find_items(deps_of(ctx).store, query))


def get_item(sku: SkuArg, ctx: ToolContext) -> Annotated[CallToolResult, ItemReport]:
    deps = deps_of(ctx)
    return success(domain.get_item(deps.store, sku, now=deps.clock()))


def register(server: MCPServer[ToolDeps], deps: ToolDeps) -> None:
    add_tool(
        server,
        GROUP,
        query_stock,
        name="inventory_query_stock",
        title="Query live stock",
        description="Live on_hand, on_order (open orders included) and reorder_point of SKUs "
        "in one warehouse, read now (as_of), with needs_reorder. Requested SKUs that are not "
        "stocked there are listed in not_found with a hint.",
        annotations=READ_ONLY,
    )
    add_tool(
        server,
        GROUP,
        find_items,
        name="inventory_find_items",
        title="Find items by SKU, barcode, alias or name",
        description="The items a query names, by SKU, barcode, part number, alias or name "
        "(exact first, then with case, width, spaces and punctuation set aside, then near "
        "matches marked near): answer one, several (candidates listed) or none.",
        annotations=READ_ONLY,
    )
    add_tool(
        server,
        GROUP,
        get_item,
        name="inventory_get_item",
        title="Get an item in every warehouse",
        description="One SKU's name and its live stock in every warehouse that stocks it.",
        annotations=READ_ONLY,
    )
