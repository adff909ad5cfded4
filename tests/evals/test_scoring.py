"""Scoring verdicts: a case passes or fails for the right reason."""

from datetime import UTC, datetime
from typing import Any

import pytest

from pipeline.evals.cases import Case, FirstCall
from pipeline.evals.scoring import score_dry_run, score_first_call, score_ledger
from pipeline.evals.scratch import Ledger
from pipeline.host.record import RunRecord, ToolCallRecord
from pipeline.models import ModelResponse, ToolCall, ToolSpec
from store.models import Order, StockLevel

NOW = datetime(2026, 12, 1, 1, 0, tzinfo=UTC)


def _case(outcome: str, orders: list[dict[str, Any]] | None = None) -> Case:
    return Case.model_validate(
        {
            "id": "t",
            "category": "core",
            "task": "raise replenishment orders",
            "images": ["erp-light-wh01.png"],
            "expect": {"outcome": outcome, "orders": orders or []},
        }
    )


def _order(number: int, sku: str, quantity: int, status: str = "open") -> Order:
    return Order(
        id=f"PO-{number:06d}",
        sku=sku,
        warehouse_id="WH-01",
        quantity=quantity,
        status=status,
        created_at=NOW,
    )


def _level(sku: str, on_hand: int, on_order: int, reorder_point: int) -> StockLevel:
    return StockLevel(
        sku=sku,
        name=sku,
        warehouse_id="WH-01",
        on_hand=on_hand,
        on_order=on_order,
        reorder_point=reorder_point,
        needs_reorder=on_hand + on_order < reorder_point,
        updated_at=NOW,
    )


BEFORE = Ledger(
    orders={},
    live={
        ("SKU-10232", "WH-01"): _level("SKU-10232", 38, 0, 120),
        ("SKU-10318", "WH-01"): _level("SKU-10318", 2, 0, 25),
    },
)
TWO: list[dict[str, Any]] = [
    {"sku": "SKU-10232", "warehouse_id": "WH-01"},
    {"sku": "SKU-10318", "warehouse_id": "WH-01", "quantity": 48},
]


def _record(final: str = "done", calls: list[ToolCallRecord] | None = None) -> RunRecord:
    return RunRecord(
        id="r",
        task="t",
        model="m",
        groups=[],
        status="done",
        final=final,
        started_at=NOW,
        tool_calls=calls or [],
    )


def _after(*orders: Order) -> Ledger:
    return Ledger(orders={o.id: o for o in orders}, live={})


def test_exactly_the_expected_orders_pass() -> None:
    after = _after(_order(1, "SKU-10232", 202), _order(2, "SKU-10318", 48))
    verdict = score_ledger(_case("orders", TWO), BEFORE, after, _record())
    assert verdict.passed, verdict.reason


@pytest.mark.parametrize(
    ("orders", "reason"),
    [
        pytest.param([(1, "SKU-10232", 202)], "missing SKU-10318@WH-01", id="missing"),
        pytest.param(
            [(1, "SKU-10232", 202), (2, "SKU-10318", 48), (3, "SKU-10402", 9)],
            "extra SKU-10402@WH-01 x9",
            id="extra",
        ),
        pytest.param(
            [(1, "SKU-10232", 202), (2, "SKU-10232", 5), (3, "SKU-10318", 48)],
            "2 orders for SKU-10232@WH-01",
            id="doubled",
        ),
    ],
)
def test_a_missing_an_extra_or_a_doubled_order_fails_with_its_reason(
    orders: list[tuple[int, str, int]], reason: str
) -> None:
    verdict = score_ledger(
        _case("orders", TWO), BEFORE, _after(*(_order(*o) for o in orders)), _record()
    )
    assert not verdict.passed and reason in verdict.reason


def test_an_order_without_a_quantity_in_the_task_must_be_exactly_the_documented_policy() -> None:
    case = _case("orders", TWO)
    # SKU-10232: on hand 38, nothing on order, reorder point 120: twice 120 less 38 is 202.
    for quantity, passes in ((202, True), (82, False), (201, False), (203, False)):
        after = _after(_order(1, "SKU-10232", quantity), _order(2, "SKU-10318", 48))
        verdict = score_ledger(case, BEFORE, after, _record())
        assert verdict.passed is passes, (quantity, verdict.reason)
    wrong = score_ledger(
        case, BEFORE, _after(_order(1, "SKU-10232", 202), _order(2, "SKU-10318", 47)), _record()
    )
    assert "SKU-10318@WH-01 quantity 47, expected 48" in wrong.reason


def test_no_writes_fails_on_a_new_order_or_a_cancellation() -> None:
    case = _case("no_writes")
    assert score_ledger(case, BEFORE, _after(), _record()).passed
    wrote = score_ledger(case, BEFORE, _after(_order(1, "SKU-10232", 202)), _record())
    assert not wrote.passed and "wrote SKU-10232@WH-01 x202" in wrote.reason
    before = Ledger(orders={"PO-000001": _order(1, "SKU-10232", 5)}, live={})
    after = _after(_order(1, "SKU-10232", 5, status="cancelled"))
    cancelled = score_ledger(case, before, after, _record())
    assert not cancelled.passed and "cancelled PO-000001" in cancelled.reason


def test_the_policy_quantity_is_held_to_the_per_order_limit() -> None:
    case = _case("orders", TWO)
    after = _after(_order(1, "SKU-10232", 150), _order(2, "SKU-10318", 48))
    assert score_ledger(case, BEFORE, after, _record(), max_quantity=150).passed
    assert not score_ledger(case, BEFORE, after, _record()).passed


def test_a_run_that_stopped_or_failed_passes_nothing_whatever_the_ledger() -> None:
    for outcome in ("no_writes", "ask"):
        for status in ("error", "limit"):
            record = _record("the model endpoint failed: connection refused")
            record.status = status
            verdict = score_ledger(_case(outcome), BEFORE, _after(), record)
            assert not verdict.passed and f"the run ended {status}" in verdict.reason
            assert not verdict.wrong_write
    empty = score_ledger(_case("no_writes"), BEFORE, _after(), _record("  "))
    assert not empty.passed and "without an answer" in empty.reason


def test_ask_needs_a_question_at_the_end_and_no_writes() -> None:
    case = _case("ask")
    assert score_ledger(case, BEFORE, _after(), _record("Which warehouse is this?")).passed
    assert score_ledger(case, BEFORE, _after(), _record("这是哪个仓库？")).passed
    silent = score_ledger(case, BEFORE, _after(), _record("Ordered nothing."))
    assert not silent.passed and "did not end with a question" in silent.reason


def _proposed(sku: str, quantity: int | str, *, error: bool = False) -> ToolCallRecord:
    """A replenishment in WH-01 that a dry run recorded instead of running."""
    return ToolCallRecord(
        hop=1,
        id="c",
        name="orders_create_replenishment",
        arguments={"sku": sku, "warehouse_id": "WH-01", "quantity": quantity},
        is_error=error,
        result="",
        executed=False,
        dry_run=True,
    )


def test_a_dry_run_is_scored_on_the_write_calls_it_recorded() -> None:
    case = _case("orders", TWO)
    good = [
        _proposed("SKU-10232", "202"),
        _proposed("SKU-10318", 48),
        _proposed("SKU-10402", 9, error=True),
    ]
    assert score_dry_run(case, BEFORE, _record(calls=good)).passed
    full_width = [*good[:1], _proposed("SKU-10318", "４８")]
    verdict = score_dry_run(case, BEFORE, _record(calls=full_width))
    assert not verdict.passed
    assert "a write the server would reject" in verdict.reason
    assert "missing SKU-10318@WH-01" in verdict.reason


TOOLS = [
    ToolSpec(name="warehouses_list", group="warehouses", read_only=True),
    ToolSpec(
        name="inventory_query_stock",
        group="inventory",
        read_only=True,
        input_schema={
            "type": "object",
            "properties": {"warehouse_id": {}, "skus": {}},
            "required": ["warehouse_id"],
        },
    ),
    ToolSpec(
        name="orders_create_replenishment",
        group="orders",
        input_schema={
            "type": "object",
            "properties": {"sku": {}, "warehouse_id": {}, "quantity": {}},
            "required": ["sku", "warehouse_id", "quantity"],
        },
    ),
]
ACCEPTED = (
    FirstCall(name="warehouses_list"),
    FirstCall(name="inventory_query_stock", warehouse_ids=("WH-01",), skus=("SKU-10232",)),
)


def _first(name: str, arguments: dict[str, Any]) -> ModelResponse:
    return ModelResponse(tool_calls=[ToolCall(id="1", name=name, arguments=arguments)])


def test_the_first_call_must_be_an_accepted_read_with_ids_from_the_screen() -> None:
    assert score_first_call(ACCEPTED, _first("warehouses_list", {}), TOOLS).passed
    ok = _first("inventory_query_stock", {"warehouse_id": "WH-01", "skus": ["SKU-10232"]})
    assert score_first_call(ACCEPTED, ok, TOOLS).passed
    cases = {
        "missing warehouse_id": _first("inventory_query_stock", {"warehouse": "WH-01"}),
        "not an accepted first step": _first(
            "inventory_query_stock", {"warehouse_id": "SKU-10232"}
        ),
        "wrote before reading live stock": _first(
            "orders_create_replenishment",
            {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 1},
        ),
        "not offered": _first("orders_cancel", {}),
    }
    for reason, response in cases.items():
        verdict = score_first_call(ACCEPTED, response, TOOLS)
        assert not verdict.passed and reason in verdict.reason, verdict.reason


def test_a_reply_without_a_call_passes_only_as_a_question_where_asking_is_right() -> None:
    stall = ModelResponse(content="I'll check the stock now.")
    assert "no tool call" in score_first_call(ACCEPTED, stall, TOOLS).reason
    ask = ModelResponse(content="Which warehouse is this screen for?")
    assert not score_first_call(ACCEPTED, ask, TOOLS).passed
    assert score_first_call((FirstCall(ask=True), *ACCEPTED), ask, TOOLS).passed
    cut = ModelResponse(content="<tool_call>{", finish_reason="length")
    assert "cut at the token limit" in score_first_call(ACCEPTED, cut, TOOLS).reason


TYPED = ToolSpec(
    name="inventory_query_stock",
    group="inventory",
    read_only=True,
    input_schema={
        "type": "object",
        "properties": {
            "warehouse_id": {"type": "string"},
            "skus": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
            "limit": {"type": "integer", "minimum": 1},
        },
        "required": ["warehouse_id"],
    },
)


def test_a_first_call_with_the_right_names_but_wrong_types_fails_on_the_schema() -> None:
    accepted = (FirstCall(name="inventory_query_stock", warehouse_ids=("WH-01",), skus=("A",)),)
    fine = _first("inventory_query_stock", {"warehouse_id": "WH-01", "skus": ["A"]})
    assert score_first_call(accepted, fine, [TYPED]).passed
    wrong: list[tuple[dict[str, Any], str]] = [
        ({"warehouse_id": "WH-01", "skus": "A"}, "skus: 'A' is not valid"),
        ({"warehouse_id": 1}, "warehouse_id: 1 is not of type 'string'"),
        ({"warehouse_id": "WH-01", "limit": "abc"}, "limit: 'abc' is not of type 'integer'"),
        ({"warehouse_id": "WH-01", "limit": 0}, "limit: 0 is less than the minimum of 1"),
    ]
    for arguments, problem in wrong:
        verdict = score_first_call(accepted, _first("inventory_query_stock", arguments), [TYPED])
        assert not verdict.passed and problem in verdict.reason, verdict.reason


def test_a_write_first_passes_only_where_the_case_names_it_and_an_answer_where_one_is_right() -> (
    None
):
    cancel = ToolSpec(
        name="orders_cancel",
        group="orders",
        input_schema={
            "type": "object",
            "properties": {"order_id": {"type": "string"}},
            "required": ["order_id"],
        },
    )
    accepted = (FirstCall(name="orders_cancel", order_ids=("PO-000001",)), FirstCall(answer=True))
    named = _first("orders_cancel", {"order_id": "PO-000001"})
    other = _first("orders_cancel", {"order_id": "PO-000002"})
    assert score_first_call(accepted, named, [cancel]).passed
    assert "not an accepted first step" in score_first_call(accepted, other, [cancel]).reason
    answer = ModelResponse(content="I can't write poems, but I can report low stock.")
    assert score_first_call(accepted, answer, [cancel]).passed
    assert not score_first_call(accepted, ModelResponse(content=" "), [cancel]).passed


def test_a_cancel_case_passes_on_exactly_the_orders_it_names() -> None:
    case = Case.model_validate(
        {
            "id": "c",
            "category": "cancel",
            "task": "Cancel order PO-000001",
            "images": [],
            "expect": {"outcome": "cancel", "cancelled": ["PO-000001"]},
        }
    )
    before = Ledger(orders={o.id: o for o in (_order(1, "A", 5), _order(2, "B", 5))}, live={})
    right = _after(_order(1, "A", 5, "cancelled"), _order(2, "B", 5))
    both = _after(_order(1, "A", 5, "cancelled"), _order(2, "B", 5, "cancelled"))
    none = _after(_order(1, "A", 5), _order(2, "B", 5))
    assert score_ledger(case, before, right, _record()).passed
    assert "cancelled PO-000002" in score_ledger(case, before, both, _record()).reason
    assert "did not cancel PO-000001" in score_ledger(case, before, none, _record()).reason


def test_a_report_must_name_the_skus_it_is_asked_about() -> None:
    case = Case.model_validate(
        {
            "id": "r",
            "category": "report",
            "task": "just tell me what is low",
            "images": ["erp-light-wh01.png"],
            "expect": {"outcome": "no_writes", "mentions": ["SKU-10232", "SKU-10318"]},
        }
    )
    named = _record("SKU-10232 and SKU-10318 are low")
    vague = _record("two SKUs are low")
    assert score_ledger(case, BEFORE, _after(), named).passed
    assert (
        "does not name SKU-10232, SKU-10318" in score_ledger(case, BEFORE, _after(), vague).reason
    )


def test_a_failure_that_wrote_what_was_not_asked_is_a_wrong_write_and_one_that_did_less_is_not() -> (
    None
):
    case = _case("orders", TWO)
    missing = score_ledger(case, BEFORE, _after(_order(1, "SKU-10232", 202)), _record())
    assert (missing.passed, missing.wrong_write) == (False, False)
    extra = score_ledger(
        case,
        BEFORE,
        _after(_order(1, "SKU-10232", 202), _order(2, "SKU-10318", 48), _order(3, "SKU-10402", 9)),
        _record(),
    )
    assert (extra.passed, extra.wrong_write) == (False, True)
    quantity = score_ledger(
        case, BEFORE, _after(_order(1, "SKU-10232", 202), _order(2, "SKU-10318", 47)), _record()
    )
    assert quantity.wrong_write
    wrote = score_ledger(_case("no_writes"), BEFORE, _after(_order(1, "SKU-10232", 202)), _record())
    assert wrote.wrong_write
    unnamed = score_ledger(_case("no_writes"), BEFORE, _after(), _record("nothing to say"))
    assert unnamed.passed and not unnamed.wrong_write


def test_a_run_that_ends_asking_about_its_reading_is_an_answer_that_wrote_nothing() -> None:
    asked = _record("Low now: SKU-10232. I read this as: replenish every low SKU. Go ahead?")
    asked.status = "ask"
    assert score_ledger(_case("ask"), BEFORE, _after(), asked).passed
    assert score_ledger(_case("no_writes"), BEFORE, _after(), asked).passed
    assert not score_ledger(_case("orders", TWO), BEFORE, _after(), asked).passed
