"""`rules` against the real ingest and the real servers: the table the ingest renders is the
table it reads, and it orders once."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path

from mcp import Client

from pipeline.models import Message, Table, ToolCall, ToolSpec
from pipeline.screentext import render_screen, screens_in
from pipeline.table.rows import screen_text, to_rows
from pipeline.vlm.rules import RulesModel
from servers import catalog, domain
from servers.factory import build_server
from store.sql import SqlStore
from store.stores import sqlite_store
from tests.vlm.planner_world import (
    CAPTURED,
    NOW,
    SETTINGS,
    opening,
    screen,
)

# ---- agreement with the real ingest and the real servers


def test_the_table_the_ingest_renders_is_the_table_it_reads() -> None:
    table = Table(
        header=["SKU", "Product", "On hand", "Reorder point", "Location", "Supplier"],
        cells=[
            ["SKU-10232", "Hex nut M8", "38", "120", "", "Acme"],
            ["SKU-10233", "Flat washer", "1,204", "300", "", "Acme"],
        ],
    )
    mapped = to_rows(table, [[1.0] * 6] * 2)
    captured = datetime.fromisoformat(CAPTURED)

    text = render_screen(
        screen_text(table, mapped, captured_at=captured, context=["Stock", "WH-02", "Page 1"])
    )
    (parsed,) = screens_in([Message(role="user", content=text)])

    assert parsed.captured_at == captured
    assert parsed.page_warehouse == "WH-02"
    assert [(r.sku, r.on_hand, r.reorder_point, r.low) for r in parsed.rows] == [
        ("SKU-10232", 38, 120, True),
        ("SKU-10233", 1204, 300, False),
    ]


async def run_once(client: Client, specs: list[ToolSpec], text: str) -> tuple[list[ToolCall], str]:
    """One run of the planner over `text`, its calls answered by the real servers."""
    model = RulesModel()
    messages = [Message(role="user", content=opening(text))]
    made: list[ToolCall] = []
    for _ in range(8):
        response = await model.request(messages, specs, SETTINGS)
        messages.append(Message(role="assistant", tool_calls=response.tool_calls))
        if not response.tool_calls:
            return made, response.content
        made += response.tool_calls
        for call in response.tool_calls:
            result = await client.call_tool(call.name, call.arguments)
            content = "\n".join(getattr(b, "text", "") for b in result.content)
            messages.append(
                Message(
                    role="tool",
                    content=content,
                    tool_call_id=call.id,
                    is_error=bool(result.is_error),
                )
            )
    raise AssertionError("no final answer within 8 requests")


REAL_SCREEN = screen(
    [
        ("SKU-10232", "Hex nut M8 (box of 200)", 38, 120, "WH-01"),
        ("SKU-10403", "Safety gloves size M (pair)", 95, 200, "WH-01"),
        ("SKU-10402", "Safety gloves size L (pair)", 310, 200, "WH-01"),
    ]
)


@contextlib.asynccontextmanager
async def real_servers(db: Path) -> AsyncIterator[tuple[Client, list[ToolSpec], SqlStore]]:
    with sqlite_store(db) as store:
        domain.seed(store, *catalog.seed_data(), now=NOW)
        server = build_server("all", store, clock=lambda: NOW)
        async with Client(server) as client:
            specs = [
                ToolSpec(name=t.name, group="all", input_schema=dict(t.input_schema))
                for t in (await client.list_tools()).tools
            ]
            yield client, specs, store


async def test_against_the_real_servers_it_orders_once_and_skips_on_the_second_run(
    tmp_path: Path,
) -> None:
    async with real_servers(tmp_path / "stock.db") as (client, specs, _):
        first_calls, first_answer = await run_once(client, specs, REAL_SCREEN)
        second_calls, second_answer = await run_once(client, specs, REAL_SCREEN)

    creates = [c.arguments for c in first_calls if c.name == "orders_create_replenishment"]
    assert creates == [
        {
            "sku": "SKU-10232",
            "warehouse_id": "WH-01",
            "idempotency_key": f"replenish-SKU-10232-WH-01-{CAPTURED}",
            "observed_on_hand": 38,
            "observed_at": CAPTURED,
        }
    ]
    assert "- ordered: SKU-10232 in WH-01: ordered 202 (PO-000001)" in first_answer
    assert "SKU-10403 in WH-01: already covered by 120 on order" in first_answer
    assert "orders_create_replenishment" not in [c.name for c in second_calls]
    assert "SKU-10232 in WH-01: already covered by 202 on order" in second_answer


async def test_the_same_screen_after_a_cancel_gets_its_order_back_and_does_not_say_ordered(
    tmp_path: Path,
) -> None:
    # The request's key (SKU, warehouse, capture time) names the cancelled order: the server
    # returns it instead of ordering again, and the answer must not claim a new order.
    async with real_servers(tmp_path / "stock.db") as (client, specs, store):
        await run_once(client, specs, REAL_SCREEN)
        domain.cancel_order(store, "PO-000001", now=NOW)
        calls, answer = await run_once(client, specs, REAL_SCREEN)
    assert "orders_create_replenishment" in [c.name for c in calls]
    assert answer.splitlines()[0].startswith("Ordered 0, skipped 1.")
    assert "Already ordered by this same request before: 1." in answer.splitlines()[0]
    assert (
        "- already ordered: SKU-10232 in WH-01: PO-000001 for 202 (made before, since cancelled)"
        in answer
    )
    assert "- ordered:" not in answer
