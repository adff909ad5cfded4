from __future__ import annotations

import pytest
from mcp import Client

from servers.errors import InputError
from servers.factory import build_server
from store.sql import SqlStore

GROUP_TOOLS = {
    "inventory": ["inventory_find_items", "inventory_get_item", "inventory_query_stock"],
    "orders": ["orders_cancel", "orders_create_replenishment", "orders_list"],
    "warehouses": ["warehouses_get", "warehouses_list"],
}
WRITE_TOOLS = {"orders_create_replenishment", "orders_cancel"}


@pytest.mark.parametrize("group", sorted(GROUP_TOOLS))
async def test_each_group_server_has_only_its_tools_and_instructions(
    store: SqlStore, group: str
) -> None:
    async with Client(build_server(group, store)) as client:
        tools = (await client.list_tools()).tools
        assert sorted(t.name for t in tools) == GROUP_TOOLS[group]
        assert all(t.meta == {"io.modelcontextprotocol/groups": [group]} for t in tools)
        assert client.instructions
        assert "## " not in client.instructions


async def test_the_all_server_has_every_tool_with_its_group_and_every_instruction(
    store: SqlStore,
) -> None:
    async with Client(build_server("all", store, max_order_quantity=500)) as client:
        tools = (await client.list_tools()).tools
        by_group = {
            group: sorted(
                t.name
                for t in tools
                if t.meta and t.meta["io.modelcontextprotocol/groups"] == [group]
            )
            for group in GROUP_TOOLS
        }
        assert by_group == GROUP_TOOLS
        assert client.instructions is not None
        for heading in ("## inventory tools", "## orders tools", "## warehouses tools"):
            assert heading in client.instructions
        assert "a screenshot is a past view" in client.instructions
        assert "from 1 to 500 units" in client.instructions


async def test_read_tools_are_read_only_and_write_tools_say_what_they_do(
    store: SqlStore,
) -> None:
    async with Client(build_server("all", store)) as client:
        for tool in (await client.list_tools()).tools:
            hints = tool.annotations
            assert hints is not None
            assert hints.open_world_hint is False
            if tool.name in WRITE_TOOLS:
                assert hints.read_only_hint is False
                assert hints.destructive_hint is (tool.name == "orders_cancel")
                assert hints.idempotent_hint is (tool.name == "orders_cancel")
            else:
                assert (hints.read_only_hint, hints.idempotent_hint) == (True, True)


async def test_every_tool_has_an_output_schema_and_every_parameter_an_example(
    store: SqlStore,
) -> None:
    async with Client(build_server("all", store)) as client:
        for tool in (await client.list_tools()).tools:
            assert tool.output_schema is not None, tool.name
            assert tool.description, tool.name
            for name, schema in tool.input_schema["properties"].items():
                description = schema.get("description", "")
                assert "like " in description or name in {"status", "limit"}, (tool.name, name)


async def test_id_parameters_say_which_kind_of_id_they_are_not(store: SqlStore) -> None:
    async with Client(build_server("orders", store)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        properties = tools["orders_create_replenishment"].input_schema["properties"]
        assert "like WH-01; not a SKU" in properties["warehouse_id"]["description"]
        assert "like SKU-10402; not a warehouse id" in properties["sku"]["description"]
        assert properties["quantity"]["minimum"] == 1


def test_an_unknown_group_is_an_input_error_listing_the_known_ones(store: SqlStore) -> None:
    with pytest.raises(InputError) as caught:
        build_server("stock", store)
    assert str(caught.value) == (
        "unknown server group 'stock'; known: inventory, orders, warehouses, all"
    )
