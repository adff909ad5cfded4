from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from mcp import Client
from mcp.types import CallToolResult, TextContent

from servers.models import FoundItems, ItemReport, StockReport

Connect = Callable[[], Client]


def text_of(result: CallToolResult) -> str:
    assert isinstance(result.content[0], TextContent)
    return result.content[0].text


async def test_query_stock_returns_live_numbers_with_as_of(
    connect: Connect, request: pytest.FixtureRequest
) -> None:
    before = datetime.now(UTC).replace(microsecond=0)
    async with connect() as client:
        result = await client.call_tool(
            "inventory_query_stock", {"warehouse_id": "WH-01", "skus": ["SKU-10232", "SKU-10402"]}
        )
    assert not result.is_error
    report = StockReport.model_validate(result.structured_content)
    if request.node.callspec.params["connect"] == "stdio":
        # A server process of its own reads the real clock.
        assert before <= report.as_of <= datetime.now(UTC)
    else:
        assert report.as_of.isoformat() == "2026-11-30T08:00:00+00:00"
    assert [
        (i.sku, i.on_hand, i.on_order, i.reorder_point, i.needs_reorder) for i in report.items
    ] == [
        ("SKU-10232", 38, 0, 120, True),
        ("SKU-10402", 310, 0, 200, False),
    ]
    assert StockReport.model_validate_json(text_of(result)) == report


async def test_query_stock_without_skus_reads_the_whole_warehouse(connect: Connect) -> None:
    async with connect() as client:
        result = await client.call_tool("inventory_query_stock", {"warehouse_id": "WH-02"})
    assert result.structured_content is not None
    assert len(result.structured_content["items"]) == 15


async def test_query_stock_names_skus_it_cannot_find(connect: Connect) -> None:
    async with connect() as client:
        result = await client.call_tool(
            "inventory_query_stock", {"warehouse_id": "WH-01", "skus": ["SKU-10601"]}
        )
    assert not result.is_error
    assert result.structured_content is not None
    assert result.structured_content["not_found"] == [
        {"sku": "SKU-10601", "message": "SKU-10601 is not stocked in WH-01; it is stocked in WH-02"}
    ]


async def test_a_sku_passed_as_warehouse_id_is_an_error_result_listing_warehouses(
    connect: Connect,
) -> None:
    async with connect() as client:
        result = await client.call_tool("inventory_query_stock", {"warehouse_id": "SKU-12345"})
    assert result.is_error
    assert text_of(result) == (
        "'SKU-12345' looks like a SKU, not a warehouse id; warehouses: WH-01, WH-02, WH-03"
    )
    assert result.structured_content == {
        "error": "wrong_kind",
        "field": "warehouse_id",
        "message": text_of(result),
        "valid": ["WH-01", "WH-02", "WH-03"],
    }


async def test_get_item_returns_the_item_in_every_warehouse(connect: Connect) -> None:
    async with connect() as client:
        result = await client.call_tool("inventory_get_item", {"sku": "SKU-10231"})
    item = ItemReport.model_validate(result.structured_content)
    assert item.name == "Hex bolt M8x40 (box of 100)"
    assert [(w.warehouse_id, w.on_hand) for w in item.warehouses] == [("WH-01", 412), ("WH-02", 96)]
    assert item.total_on_hand == 508


async def test_get_item_with_an_unknown_sku_suggests_close_ones(connect: Connect) -> None:
    async with connect() as client:
        result = await client.call_tool("inventory_get_item", {"sku": "SKU-10233x"})
    assert result.is_error
    assert text_of(result).startswith("unknown SKU 'SKU-10233x'; closest known SKUs: SKU-10233")
    assert result.structured_content is not None
    assert result.structured_content["suggestions"][0] == "SKU-10233"


async def test_a_missing_argument_is_an_error_result_not_a_protocol_error(
    connect: Connect,
) -> None:
    async with connect() as client:
        result = await client.call_tool("inventory_get_item", {})
    assert result.is_error
    assert "sku" in text_of(result)


async def test_find_items_resolves_a_barcode_to_its_one_item(connect: Connect) -> None:
    async with connect() as client:
        result = await client.call_tool("inventory_find_items", {"query": "4006381333931"})
    assert not result.is_error
    found = FoundItems.model_validate(result.structured_content)
    assert (found.answer, [(i.sku, i.matched_by, i.closeness) for i in found.items]) == (
        "one",
        [("SKU-10231", "barcode", "exact")],
    )
    assert FoundItems.model_validate_json(text_of(result)) == found


async def test_find_items_lists_every_candidate_of_an_ambiguous_name_and_none_for_a_stranger(
    connect: Connect,
) -> None:
    async with connect() as client:
        several = await client.call_tool("inventory_find_items", {"query": "Safety gloves"})
        none = await client.call_tool("inventory_find_items", {"query": "Widget 3000"})
    assert several.structured_content is not None and none.structured_content is not None
    assert several.structured_content["answer"] == "several"
    assert [i["sku"] for i in several.structured_content["items"]] == ["SKU-10402", "SKU-10403"]
    assert (none.structured_content["answer"], none.structured_content["items"]) == ("none", [])


@pytest.mark.parametrize("arguments", [{}, {"query": ""}, {"query": 4006381333931}])
async def test_find_items_refuses_arguments_without_a_query_text(
    connect: Connect, arguments: dict[str, object]
) -> None:
    async with connect() as client:
        result = await client.call_tool("inventory_find_items", arguments)
    assert result.is_error
    assert "query" in text_of(result)


async def test_a_barcode_passed_as_a_warehouse_id_or_a_sku_is_named_as_the_barcode_it_is(
    connect: Connect,
) -> None:
    async with connect() as client:
        as_warehouse = await client.call_tool(
            "inventory_query_stock", {"warehouse_id": "4006381333931"}
        )
        as_sku = await client.call_tool("inventory_get_item", {"sku": "4006381333931"})
    assert as_warehouse.is_error and as_sku.is_error
    assert text_of(as_warehouse) == (
        "'4006381333931' is the barcode of SKU-10231, not a warehouse id; "
        "warehouses: WH-01, WH-02, WH-03"
    )
    assert text_of(as_sku) == (
        "'4006381333931' is the barcode of SKU-10231, not a SKU; pass the SKU itself (SKU-10231)"
    )
    assert as_sku.structured_content is not None
    assert as_sku.structured_content["error"] == "wrong_kind"
