"""The run loop over real in-memory tool servers, driven by the rules model or a scripted one."""

import asyncio
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

from pipeline.contract import parse_task, render_contract
from pipeline.errors import VlmError
from pipeline.host.context import Attachment
from pipeline.host.guards import CALL_GUARDS, RESPONSE_GUARDS
from pipeline.host.guards.false_claim import HOST_REPORT
from pipeline.host.loop import HOST_COMPLETE, HostLimits, Run, run_task
from pipeline.host.record import append_run_log, read_run_log
from pipeline.host.toolbox import MemoryTarget, Toolbox
from pipeline.models import JsonObject, Message, ModelResponse, ModelSettings, ToolSpec
from pipeline.vlm.rules import RulesModel
from pipeline.vlm.scripted import ScriptedModel
from store.sql import SqlStore
from tests.host.conftest import call, open_orders, run_host

GROUPS = ("inventory", "orders", "warehouses")
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
SCREEN = """Screenshot captured at 2026-11-28T10:05:00+08:00 (a past view).
Page: Inventory / Stock levels / WH-01
| sku | name | on_hand | reorder_point | warehouse_id | low |
|---|---|---|---|---|---|
| SKU-10231 | Hex bolt M8x40 (box of 100) | 412 | 150 | WH-01 | no |
| SKU-10232 | Hex nut M8 (box of 200) | 38 | 120 | WH-01 | yes |
| SKU-10318 | Heat-shrink tube kit | 2 | 25 | WH-01 | yes |
| SKU-10402 | Safety gloves size L (pair) | 60 | 200 | WH-01 | yes |
| SKU-10403 | Safety gloves size M (pair) | 95 | 200 | WH-01 | yes |"""
TABLE = Attachment(
    "erp.png",
    SCREEN,
    "the table read from erp.png",
    datetime(2026, 11, 28, 2, 5, tzinfo=UTC),
    skus=frozenset({"SKU-10231", "SKU-10232", "SKU-10318", "SKU-10402", "SKU-10403"}),
)
TASK = "find the SKUs that are low and raise replenishment orders"


async def run_with(targets: list[MemoryTarget], model: Any, **options: Any) -> Any:
    return await run_host(targets, model, **{"attachments": [TABLE], **options})


async def test_rules_run_orders_only_what_is_still_low_live(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    record = await run_with(targets, RulesModel())
    assert record.status == "done" and record.final_by == "model"
    assert open_orders(store) == {("SKU-10232", "WH-01"): 202, ("SKU-10318", "WH-01"): 48}
    assert "SKU-10402 in WH-01: not low any more: live on_hand 310" in record.final
    assert "SKU-10403 in WH-01: already covered by 120 on order" in record.final
    assert [c.name for c in record.tool_calls] == [
        "inventory_query_stock",
        "orders_create_replenishment",
        "orders_create_replenishment",
    ]


async def test_the_prompt_prefix_stays_byte_identical_across_hops(
    targets: list[MemoryTarget],
) -> None:
    seen: list[tuple[str, str, str]] = []
    inner = RulesModel()

    class Recording:
        name = "recording"

        async def request(
            self, messages: Sequence[Message], tools: Sequence[ToolSpec], settings: ModelSettings
        ) -> ModelResponse:
            prefix = (messages[0].model_dump_json(), messages[1].model_dump_json())
            seen.append((*prefix, json.dumps([t.model_dump() for t in tools])))
            return await inner.request(messages, tools, settings)

    record = await run_with(targets, Recording())
    assert record.hops == 3
    assert len(seen) == 3 and len(set(seen)) == 1


async def test_every_servers_instructions_reach_the_system_prompt(
    targets: list[MemoryTarget],
) -> None:
    model = ScriptedModel([{"content": "done"}])
    async with Toolbox(targets) as toolbox:
        instructions = dict(toolbox.instructions)
        record = await run_task(
            Run(task=TASK, model=model, toolbox=toolbox, groups=GROUPS, clock=lambda: NOW)
        )
    system = record.messages[0].content
    assert set(instructions) == set(GROUPS)
    for text in instructions.values():
        assert text and text.strip() in system


async def test_tools_of_groups_not_chosen_are_not_offered(targets: list[MemoryTarget]) -> None:
    model = ScriptedModel(
        [
            call(
                "orders_create_replenishment",
                {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 5},
            )
        ]
    )
    record = await run_with(targets, model, groups=("inventory", "warehouses"))
    offered = {t.name for t in (await _tools(targets)) if t.group in ("inventory", "warehouses")}
    assert "orders_create_replenishment" not in offered
    assert record.tool_calls[0].is_error
    assert "unknown tool 'orders_create_replenishment'" in record.tool_calls[0].result


async def _tools(targets: list[MemoryTarget]) -> list[ToolSpec]:
    async with Toolbox(targets) as toolbox:
        return list(toolbox.tools)


def echo_server() -> MCPServer:
    server = MCPServer("echo", instructions="Echo tools.")

    @server.tool(
        name="echo_text",
        meta={"io.modelcontextprotocol/groups": ["echo"]},
        annotations=ToolAnnotations(read_only_hint=True),
    )
    def echo_text(text: str) -> str:
        """Return the text."""
        return f"got {len(text)} chars: {text}"

    return server


async def test_an_attachment_reference_is_replaced_by_its_content_before_the_tool_runs() -> None:
    model = ScriptedModel([call("echo_text", {"text": "@stock.csv"}), {"content": "done"}])
    csv = Attachment("stock.csv", "sku,on_hand\nSKU-10232,38\n", "a CSV")
    record = await run_with(
        [MemoryTarget("echo", echo_server())], model, groups=("echo",), attachments=[csv]
    )
    assert record.tool_calls[0].result == "got 25 chars: sku,on_hand\nSKU-10232,38\n"
    assert record.tool_calls[0].arguments == {"text": "@stock.csv"}


@pytest.mark.parametrize(
    ("reference", "reason"),
    [("@prices.csv", "is not an attachment"), ("@../secrets.csv", "looks like a path")],
)
async def test_an_unknown_or_path_reference_is_refused_and_the_tool_never_runs(
    reference: str, reason: str
) -> None:
    model = ScriptedModel([call("echo_text", {"text": reference}), {"content": "done"}])
    csv = Attachment("stock.csv", "x", "a CSV")
    record = await run_with(
        [MemoryTarget("echo", echo_server())], model, groups=("echo",), attachments=[csv]
    )
    result = record.tool_calls[0]
    assert result.is_error and reason in result.result and "@stock.csv" in result.result
    assert not result.result.startswith("got")


async def test_a_dry_run_records_writes_without_running_them(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    record = await run_with(targets, RulesModel(), dry_run=True)
    writes = [c for c in record.tool_calls if c.name == "orders_create_replenishment"]
    assert len(writes) == 2 and all(c.dry_run and not c.executed for c in writes)
    assert all(
        c.result.startswith("dry run: orders_create_replenishment was not executed") for c in writes
    )
    reads = [c for c in record.tool_calls if c.name != "orders_create_replenishment"]
    assert all(c.executed for c in reads)
    assert open_orders(store) == {}


async def test_a_run_that_never_answers_stops_at_its_hop_budget(
    targets: list[MemoryTarget],
) -> None:
    turns = [call("warehouses_list", {}, f"c{i}") for i in range(10)]
    record = await run_with(
        targets, ScriptedModel(turns), attachments=[], limits=HostLimits(max_hops=3)
    )
    assert record.status == "limit"
    assert record.hops == record.hop_budget.hops == 1 + record.hop_budget.slack
    assert f"stopped after {record.hops} hops" in record.final
    assert record.final_by == "host"


def _reads_forever(*writes: dict[str, Any]) -> ScriptedModel:
    """A scripted model that reads the stock, makes `writes`, then reads on without answering."""
    read = call("inventory_query_stock", {"warehouse_id": "WH-01"}, "r0")
    rest = [call("warehouses_list", {}, f"l{i}") for i in range(40)]
    return ScriptedModel([read, *writes, *rest])


async def test_the_hop_budget_grows_with_the_rows_the_task_may_write(
    targets: list[MemoryTarget],
) -> None:
    record = await run_with(targets, _reads_forever(), limits=HostLimits(max_hops=3))
    budget = record.hop_budget
    assert (budget.rows, budget.writes, budget.warehouses) == (5, 4, 1)
    assert budget.hops == 1 + 2 * 4 + budget.slack
    assert record.status == "limit"
    assert "not done: SKU-10232 in WH-01, SKU-10318 in WH-01" in record.final


async def test_a_run_whose_ledger_covers_every_row_ends_done_with_the_ledger_by_the_host(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    create = "orders_create_replenishment"
    model = _reads_forever(
        call(create, {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 202}, "w1"),
        call(create, {"sku": "SKU-10318", "warehouse_id": "WH-01", "quantity": 48}, "w2"),
    )
    record = await run_with(targets, model, limits=HostLimits(max_hops=3))
    assert open_orders(store) == {("SKU-10232", "WH-01"): 202, ("SKU-10318", "WH-01"): 48}
    assert (record.status, record.final_by) == ("done", "host")
    assert record.final.startswith(HOST_COMPLETE)
    assert "- ordered 2: PO-" in record.final
    assert record.hops == record.hop_budget.hops


async def test_an_answer_the_false_claim_guard_writes_is_marked_as_the_hosts(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    events: list[dict[str, Any]] = []
    claim: JsonObject = {"content": "I created PO-000001 and PO-000002 for the low SKUs."}
    record = await run_with(
        targets,
        ScriptedModel([claim, claim]),
        response_guards=RESPONSE_GUARDS,
        on_event=events.append,
    )
    assert record.status == "done"
    assert record.final_by == "host"
    assert record.final.startswith("[Written by the host")
    assert events[-1]["type"] == "run_finished" and events[-1]["final_by"] == "host"
    assert open_orders(store) == {}


async def test_a_report_that_twice_names_no_low_row_is_written_by_the_host(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    # The real 1.5B's answer to this request, with four rows low on the screen.
    empty: JsonObject = {"content": "I don't need to order anything right now."}
    record = await run_with(
        targets,
        ScriptedModel([empty, empty]),
        task="Which SKUs are low right now? Don't order anything, just tell me.",
        response_guards=RESPONSE_GUARDS,
    )
    assert (record.status, record.final_by) == ("done", "host")
    assert record.final.startswith(HOST_REPORT)
    for sku in ("SKU-10232", "SKU-10318", "SKU-10402", "SKU-10403"):
        assert f"- {sku} in WH-01: low on the screen" in record.final
    assert open_orders(store) == {}


async def test_a_report_a_guard_stops_ends_with_the_hosts_report_of_the_low_rows(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    cut: JsonObject = {"content": "The low SKUs are SKU-10232, SKU-", "finish_reason": "length"}
    record = await run_with(
        targets,
        ScriptedModel([cut, cut, cut]),
        task="Which SKUs are low right now? Don't order anything, just tell me.",
        response_guards=RESPONSE_GUARDS,
    )
    assert (record.status, record.final_by) == ("done", "host")
    assert record.final.startswith("Stopped: the model's reply was cut")
    assert HOST_REPORT in record.final
    for sku in ("SKU-10232", "SKU-10318", "SKU-10402", "SKU-10403"):
        assert f"- {sku} in WH-01: low on the screen" in record.final
    assert open_orders(store) == {}


async def test_a_model_that_hangs_stops_at_the_wall_clock_budget(
    targets: list[MemoryTarget],
) -> None:
    class Hanging:
        name = "hanging"

        async def request(self, messages: Any, tools: Any, settings: Any) -> ModelResponse:
            await asyncio.Event().wait()
            raise AssertionError("unreachable")

    record = await run_with(targets, Hanging(), limits=HostLimits(wall_clock_s=0.2))
    assert record.status == "limit"
    assert "budget ran out" in record.final


async def test_a_failing_model_endpoint_ends_the_run_with_an_error_and_writes_nothing(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    class Down:
        name = "down"

        async def request(self, messages: Any, tools: Any, settings: Any) -> ModelResponse:
            raise VlmError("cannot reach model endpoint http://127.0.0.1:9/v1/chat/completions")

    record = await run_with(targets, Down())
    assert record.status == "error" and record.final_by == "host"
    assert "cannot reach model endpoint" in record.final
    assert open_orders(store) == {}


async def test_a_defect_in_a_model_adapter_still_ends_the_run_with_an_error_record(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    events: list[dict[str, Any]] = []

    class Broken:
        name = "broken"

        async def request(self, messages: Any, tools: Any, settings: Any) -> ModelResponse:
            raise RuntimeError("adapter bug")

    record = await run_with(targets, Broken(), on_event=events.append)
    assert record.status == "error"
    assert "RuntimeError: adapter bug" in record.final
    assert record.error == record.final
    assert events[-1]["type"] == "run_finished"
    assert open_orders(store) == {}


async def test_malformed_arguments_get_an_error_result_the_model_can_read(
    targets: list[MemoryTarget],
) -> None:
    turn: JsonObject = {
        "content": "",
        "tool_calls": [
            {
                "id": "c1",
                "function": {"name": "warehouses_get", "arguments": "{warehouse_id: WH-01"},
            }
        ],
    }
    record = await run_with(targets, ScriptedModel([turn, {"content": "ok"}]))
    assert record.tool_calls[0].is_error
    assert "not a JSON object" in record.tool_calls[0].result


async def test_every_run_is_appended_to_the_audit_log(
    targets: list[MemoryTarget], tmp_path: Path
) -> None:
    record = await run_with(targets, RulesModel())
    log = tmp_path / "runs.jsonl"
    append_run_log(log, record)
    append_run_log(log, record)
    assert [r.id for r in read_run_log(log)] == [record.id, record.id]
    assert read_run_log(log)[0].tool_calls == record.tool_calls


async def test_host_time_is_reported_apart_from_model_and_tool_time(
    targets: list[MemoryTarget],
) -> None:
    record = await run_with(targets, RulesModel())
    timings = record.timings_ms
    assert set(timings) == {"total", "model", "tools", "host"}
    assert abs(timings["total"] - timings["model"] - timings["tools"] - timings["host"]) < 0.1


# ---- the task contract


WRITE_ANYWAY = [
    call(
        "orders_create_replenishment",
        {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 202},
    ),
    {"content": "done"},
]


@pytest.mark.parametrize(
    "task", ["Which SKUs are low? Do not place any orders, just tell me.", "先别下单，看看哪些缺货"]
)
async def test_a_report_task_gets_no_write_tools_and_a_write_is_blocked_anyway(
    targets: list[MemoryTarget], store: SqlStore, task: str
) -> None:
    offered: list[list[str]] = []

    class Writer(ScriptedModel):
        async def request(
            self, messages: Sequence[Message], tools: Sequence[ToolSpec], settings: ModelSettings
        ) -> ModelResponse:
            offered.append([t.name for t in tools])
            return await super().request(messages, tools, settings)

    record = await run_with(targets, Writer(WRITE_ANYWAY), task=task, call_guards=CALL_GUARDS)

    assert record.task_contract is not None and record.task_contract.action == "report"
    assert all("orders_create_replenishment" not in names for names in offered)
    (attempt,) = record.tool_calls
    assert attempt.is_error and not attempt.executed
    assert attempt.result.startswith("Blocked by the task contract: no write may run")
    assert [e.guard for e in record.guard_events] == ["scope"]
    assert open_orders(store) == {}


async def test_with_the_scope_guard_off_the_tool_list_still_refuses_a_report_tasks_write(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    guards = {n: g for n, g in CALL_GUARDS.items() if n != "scope"}
    record = await run_with(
        targets, ScriptedModel(WRITE_ANYWAY), task="just tell me what is low", call_guards=guards
    )
    (attempt,) = record.tool_calls
    assert attempt.result.startswith("unknown tool 'orders_create_replenishment'")
    assert open_orders(store) == {}


async def test_the_contract_is_in_the_record_and_in_the_models_opening_message(
    targets: list[MemoryTarget],
) -> None:
    record = await run_with(targets, RulesModel(), task="replenish the low items except SKU-10318")
    assert record.task_contract == parse_task("replenish the low items except SKU-10318")
    opening = record.messages[1].content
    assert render_contract(record.task_contract) in opening
    assert "- excluded SKUs: SKU-10318" in opening


async def test_a_write_outside_the_contract_is_blocked_with_what_the_task_allows(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    model = ScriptedModel(
        [
            call("inventory_query_stock", {"warehouse_id": "WH-01", "skus": ["SKU-10232"]}, "c0"),
            call(
                "orders_create_replenishment",
                {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 202},
            ),
            call(
                "orders_create_replenishment",
                {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 10},
                "c2",
            ),
            {"content": "done"},
        ]
    )
    record = await run_with(
        targets, model, task="Order 10 units of SKU-10232 only", call_guards=CALL_GUARDS
    )
    _, first, second = record.tool_calls
    assert first.result == (
        "Blocked by the task contract: the task asks for exactly 10 units of SKU-10232; send "
        "quantity 10."
    )
    assert not second.is_error
    assert open_orders(store) == {("SKU-10232", "WH-01"): 10}
