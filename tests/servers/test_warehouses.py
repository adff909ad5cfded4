from __future__ import annotations

from collections.abc import Callable

from mcp import Client

from servers.models import WarehouseList, WarehouseSummary

Connect = Callable[[], Client]


async def test_warehouses_list_returns_every_warehouse_with_counts(connect: Connect) -> None:
    async with connect() as client:
        result = await client.call_tool("warehouses_list", {})
    listed = WarehouseList.model_validate(result.structured_content)
    assert [(w.warehouse_id, w.name, w.city) for w in listed.warehouses] == [
        ("WH-01", "Main distribution centre", "Shanghai"),
        ("WH-02", "North hub", "Tianjin"),
        ("WH-03", "South hub", "Shenzhen"),
    ]


async def test_warehouses_get_returns_one_warehouse(connect: Connect) -> None:
    async with connect() as client:
        result = await client.call_tool("warehouses_get", {"warehouse_id": "WH-03"})
    summary = WarehouseSummary.model_validate(result.structured_content)
    assert (summary.city, summary.skus, summary.skus_needing_reorder) == ("Shenzhen", 11, 4)


async def test_warehouses_get_with_a_near_miss_suggests_the_right_id(connect: Connect) -> None:
    async with connect() as client:
        result = await client.call_tool("warehouses_get", {"warehouse_id": "WH-3"})
    assert result.is_error
    assert result.structured_content is not None
    assert result.structured_content["message"] == (
        "unknown warehouse id 'WH-3' (did you mean WH-03?); warehouses: WH-01, WH-02, WH-03"
    )


async def test_warehouses_list_gives_the_names_people_use_for_each_warehouse(
    connect: Connect,
) -> None:
    async with connect() as client:
        result = await client.call_tool("warehouses_list", {})
    listed = WarehouseList.model_validate(result.structured_content)
    aliases = {w.warehouse_id: w.aliases for w in listed.warehouses}
    assert "北方仓" in aliases["WH-02"] and "南方仓" in aliases["WH-03"]
