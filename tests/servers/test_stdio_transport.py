"""End to end over stdio: `python -m servers all` in a subprocess, as the agent host spawns it."""

from __future__ import annotations

import sys

import anyio
from mcp import Client, StdioServerParameters

from servers import domain
from servers.toolkit import run_meta
from store.models import OrderQuery
from store.protocol import Store


async def test_the_all_server_answers_over_stdio_from_the_store_the_settings_name(
    store: Store, store_url: str
) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "servers", "all", "--transport", "stdio"],
        env={
            "STOCKSHOT_DATABASE_URL": store_url,
            "STOCKSHOT_MAX_ORDER_QUANTITY": "300",
            "STOCKSHOT_APPROVAL": "auto",  # as the host starts it for a run allowed to write
        },
    )
    with anyio.fail_after(60):
        async with Client(params) as client:
            tools = (await client.list_tools()).tools
            read = await client.call_tool(
                "inventory_query_stock", {"warehouse_id": "WH-01", "skus": ["SKU-10232"]}
            )
            too_many = await client.call_tool(
                "orders_create_replenishment",
                {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 301},
            )
            write = await client.call_tool(
                "orders_create_replenishment",
                {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 100},
                meta=run_meta("run-stdio"),
            )
            instructions = client.instructions

    assert len(tools) == 8
    assert instructions is not None
    assert "## orders tools" in instructions
    assert read.structured_content is not None
    assert read.structured_content["items"][0]["on_hand"] == 38
    assert too_many.is_error
    assert write.structured_content is not None
    assert write.structured_content["order"]["run_id"] == "run-stdio"
    (stored,) = domain.list_orders(store, OrderQuery()).orders
    assert (stored.sku, stored.quantity, stored.run_id) == ("SKU-10232", 100, "run-stdio")
