"""The task read before a run: the reader with the store's warehouse names, and a model that
can answer under a schema, met so that the model can narrow and never widen. The model here is
a replay of answers, not a model."""

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from pipeline.contract import ContractAnswer, read_task
from pipeline.errors import VlmError
from pipeline.host.reading import (
    CONTRACT_SCHEMA,
    contract_schema,
    screen_items,
    settle_task,
    warehouse_names,
)
from pipeline.host.toolbox import MemoryTarget, Toolbox
from pipeline.models import Usage
from pipeline.screentext import ScreenRow, ScreenText, render_screen
from pipeline.vlm.rules import RulesModel
from store.sql import SqlStore
from tests.contract.answers import Reading, ReadingReplay, answer
from tests.host.conftest import open_orders, run_host
from tests.host.test_loop import TABLE


class ReplayReader(ReadingReplay, RulesModel):
    """The rules planner for the run, and a recorded reading of the task (a replay, not a
    model): `reading` is the answer to the schema request, its JSON text as it came, or an error."""

    usage = Usage(prompt_tokens=90, completion_tokens=40)

    def __init__(self, reading: Reading) -> None:
        super().__init__()
        self.name = "replay-reader"
        self.reading = reading

    def read(self, task: str) -> Reading:
        return self.reading


LEAVE_ALONE = "Replenish the low rows, SKU-10232 is quarantined."


async def read_and_run(targets: list[MemoryTarget], model: Any, task: str = LEAVE_ALONE) -> Any:
    """A run over the stock table with every group, where the model reads the task first."""
    return await run_host(
        targets, model, attachments=[TABLE], task=task, groups=None, model_reads_task=True
    )


async def test_the_store_names_its_warehouses_for_the_reader(targets: list[MemoryTarget]) -> None:
    async with Toolbox(targets) as toolbox:
        names = await warehouse_names(toolbox, run_id="run-1")
    assert names["North hub"] == "WH-02"
    assert names["北方仓"] == "WH-02"
    assert names["Main distribution centre"] == "WH-01"


async def test_the_rules_model_leaves_the_readers_reading_and_writes_nothing_for_a_safe_miss(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    record = await read_and_run(targets, RulesModel())
    assert record.task_contract.writes_allowed is False
    assert [r.source for r in record.contract_readings] == ["reader", "fallback", "final"]
    fallback = record.contract_readings[1].contract
    assert fallback is not None and "SKU-10232" in fallback.exclude_skus
    assert open_orders(store) == {}
    assert "I did not understand 'quarantined'" in record.final
    assert "SKU-10318" in record.final  # the report of what the rest asks still runs


async def test_a_run_not_fully_understood_asks_with_the_reading_and_a_yes_runs_exactly_it(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    asked = await read_and_run(targets, RulesModel())
    assert asked.status == "ask" and asked.question is not None
    assert asked.final.endswith(asked.question.text)
    assert "I read this as: replenish every low SKU except SKU-10232" in asked.question.text
    assert "quarantined" in asked.question.text
    assert open_orders(store) == {}
    confirmed = await run_host(
        targets,
        RulesModel(),
        attachments=[TABLE],
        task=LEAVE_ALONE,
        groups=None,
        contract=asked.question.contract,
        confirms=asked.id,
    )
    assert (confirmed.status, confirmed.confirms) == ("done", asked.id)
    ordered = {sku for sku, _ in open_orders(store)}
    assert ordered and "SKU-10232" not in ordered


async def test_a_task_understood_in_full_asks_nothing(targets: list[MemoryTarget]) -> None:
    record = await read_and_run(targets, RulesModel(), task="Which SKUs are low?")
    assert (record.status, record.question) == ("done", None)


async def test_a_models_reading_recovers_what_the_reader_left_undone_without_the_excluded_sku(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    model = ReplayReader(answer(exclude_skus=["SKU-10232"]))
    record = await read_and_run(targets, model)
    final = record.contract_readings[-1]
    assert (final.source, final.contract.action, final.contract.writes_allowed) == (
        "final",
        "replenish",
        True,
    )
    assert set(open_orders(store)) == {("SKU-10318", "WH-01")}
    assert record.tokens["prompt"] >= 90
    ((messages, schema, name),) = model.asked
    assert name == "task_contract"
    assert schema["properties"]["exclude_skus"]["items"]["enum"] == ["SKU-10232"]
    assert set(schema["properties"]["warehouses"]["items"]["enum"]) == {"WH-01", "WH-02", "WH-03"}
    assert messages[-1].content == LEAVE_ALONE
    assert "North hub" in messages[0].content


async def test_a_model_reading_a_full_reading_otherwise_is_recorded_and_said_never_acted_on(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    model = ReplayReader(answer(skus=["SKU-10232"]))
    record = await read_and_run(targets, model, "Replenish the low rows except SKU-10232.")
    assert [r.source for r in record.contract_readings] == ["reader", "fallback", "model", "final"]
    assert record.task_contract == record.contract_readings[0].contract
    assert set(open_orders(store)) == {("SKU-10318", "WH-01")}
    assert "[Host: the model read this request as replenish · only SKU-10232" in record.final
    assert "the run followed the request as written: replenish · except SKU-10232" in record.final


async def test_a_reading_the_reader_did_not_account_for_keeps_the_models_as_a_suggestion(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    model = ReplayReader(answer(action="order", skus=["SKU-10232"], quantities=[
        {"sku": "SKU-10232", "quantity": 30}]))  # fmt: skip
    record = await read_and_run(targets, model, "Order 30 units of SKU-10232 for the Kessler job.")
    suggested = next(r for r in record.contract_readings if r.source == "suggested")
    assert suggested.contract is not None
    assert suggested.contract.quantities == {"SKU-10232": 30}
    assert record.task_contract.writes_allowed is False
    assert open_orders(store) == {}


async def test_a_model_that_reads_the_excluded_sku_as_the_only_one_is_blocked_by_the_meet(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    model = ReplayReader(answer(skus=["SKU-10232"]))
    record = await read_and_run(targets, model)
    final = record.contract_readings[-1]
    assert "blocked" in final.note and "SKU-10232" in final.note
    assert ("SKU-10232", "WH-01") not in open_orders(store)


@pytest.mark.parametrize(
    "reading",
    ["this is not JSON", json.dumps({"action": "replenish"}), json.dumps(answer(action="buy"))],
)
async def test_a_reading_outside_the_schema_leaves_the_readers_in_force_with_a_note(
    targets: list[MemoryTarget], store: SqlStore, reading: str
) -> None:
    record = await read_and_run(targets, ReplayReader(reading))
    model = next(r for r in record.contract_readings if r.source == "model")
    assert model.contract is None and "outside the schema" in model.note
    assert record.task_contract.writes_allowed is False
    assert open_orders(store) == {}


async def test_a_deferral_stays_a_report_whatever_the_model_reads(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    record = await read_and_run(
        targets,
        ReplayReader(answer()),
        task="List the low SKUs; I will order them myself later.",
    )
    assert record.task_contract.writes_allowed is False
    assert "whatever the model says" in record.contract_readings[-1].note
    assert open_orders(store) == {}


async def test_a_model_endpoint_that_fails_while_reading_the_task_ends_the_run_with_an_error(
    targets: list[MemoryTarget], store: SqlStore
) -> None:
    model = ReplayReader(VlmError("cannot reach model endpoint http://127.0.0.1:1/v1"))
    record = await read_and_run(targets, model)
    assert (record.status, record.hops) == ("error", 0)
    assert record.final.startswith("the model endpoint failed: cannot reach")
    assert open_orders(store) == {}


async def test_the_schema_a_model_reads_with_is_the_contract_answers_own() -> None:
    schema: Any = CONTRACT_SCHEMA
    assert set(schema["properties"]) == set(ContractAnswer.model_fields)
    assert schema["required"] == list(schema["properties"])
    assert "$defs" not in json.dumps(CONTRACT_SCHEMA)


async def test_settle_without_a_model_is_the_readers_reading(targets: list[MemoryTarget]) -> None:
    async with Toolbox(targets) as toolbox:
        settled = await settle_task(
            "只补北方仓缺货的商品", None, toolbox, run_id="run-1", budget_s=5
        )
    assert (settled.contract.warehouses, settled.contract.writes_allowed) == (("WH-02",), True)


def test_the_schema_names_only_ids_the_task_can_mean() -> None:
    schema: Any = contract_schema("Cancel PO-000003 and SKU-10232", {"North hub": "WH-02"})
    properties = schema["properties"]
    assert properties["order_ids"]["items"]["enum"] == ["PO-000003"]
    assert properties["skus"]["items"]["enum"] == ["SKU-10232"]
    assert properties["warehouses"]["items"]["enum"] == ["WH-02"]
    none: Any = contract_schema("replenish the low items", {})["properties"]
    assert none["skus"]["maxItems"] == 0 and none["quantities"]["maxItems"] == 0


def test_the_items_a_task_may_name_are_the_ones_the_attached_screens_show() -> None:
    shown = ScreenText(
        captured_at=datetime(2026, 12, 1, tzinfo=UTC),
        columns=("sku", "name", "on_hand", "reorder_point"),
        rows=(
            ScreenRow(sku="SKU-10232", name="Hex nut M8", on_hand=38, reorder_point=120),
            ScreenRow(sku="SKU-10233", name="Flat washer M8", on_hand=900, reorder_point=300),
        ),
    )
    items = screen_items([render_screen(shown)])
    assert items == {"SKU-10232": "Hex nut M8", "SKU-10233": "Flat washer M8"}
    assert read_task("Reorder the hex nuts", catalogue=items).contract.skus == ("SKU-10232",)
