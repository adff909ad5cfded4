"""Guards that read what already happened: repeat_rejected, unchanged_field, read_loop, give_up."""

from pipeline.host.guards.give_up import give_up
from pipeline.host.guards.read_loop import read_loop
from pipeline.host.guards.repeat_rejected import repeat_rejected
from pipeline.host.guards.unchanged_field import unchanged_field
from tests.host.guards.states import call, record, state

CREATE = "orders_create_replenishment"
ARGS = {"sku": "SKU-10402", "warehouse_id": "WH-01", "quantity": 140}
NOT_LOW = (
    "refused: SKU-10402 in WH-01 is not low now: on_hand 310 + on_order 0 >= reorder_point 200"
)
MISSING = (
    "Error executing tool orders_create_replenishment: 1 validation error for create_replenishmentArguments\n"
    "warehouse_id\n  Field required [type=missing, input_value={'sku': 'SKU-10402', 'warehouse': 'WH-01', "
    "'quantity': 140}, input_type=dict]"
)


def test_the_identical_call_that_was_rejected_is_blocked_with_the_rejection() -> None:
    decision = repeat_rejected(
        call(CREATE, **ARGS), state(calls=[record(CREATE, ARGS, NOT_LOW, error=True)])
    )
    assert decision.action == "block"
    assert NOT_LOW in decision.message


def test_a_changed_call_or_one_that_succeeded_is_not_a_repeat() -> None:
    rejected = state(calls=[record(CREATE, ARGS, NOT_LOW, error=True)])
    assert repeat_rejected(call(CREATE, **{**ARGS, "sku": "SKU-10232"}), rejected).action == "allow"
    succeeded = state(calls=[record(CREATE, ARGS, '{"order": {}}')])
    assert repeat_rejected(call(CREATE, **ARGS), succeeded).action == "allow"


def test_a_retry_that_still_lacks_the_named_field_is_blocked_naming_it() -> None:
    sent = {"sku": "SKU-10402", "warehouse": "WH-01", "quantity": 140}
    retry = {"sku": "SKU-10402", "warehouse": "WH-01", "quantity": 150}
    decision = unchanged_field(
        call(CREATE, **retry), state(calls=[record(CREATE, sent, MISSING, error=True)])
    )
    assert decision.action == "block"
    assert "'warehouse_id'" in decision.message and "still missing" in decision.message


def test_a_retry_that_changes_the_named_field_goes_through() -> None:
    sent = {"sku": "SKU-10402", "warehouse": "WH-01", "quantity": 140}
    decision = unchanged_field(
        call(CREATE, **ARGS), state(calls=[record(CREATE, sent, MISSING, error=True)])
    )
    assert decision.action == "allow"


def test_the_tools_structured_field_decides_which_argument_must_change() -> None:
    wrong = {"warehouse_id": "SKU-10232"}
    refusal = record(
        "inventory_query_stock",
        wrong,
        "'SKU-10232' looks like a SKU, not a warehouse id",
        error=True,
        structured={"error": "wrong_kind", "field": "warehouse_id"},
    )
    same_id = call("inventory_query_stock", warehouse_id="SKU-10232", skus=["SKU-10232"])
    assert unchanged_field(same_id, state(calls=[refusal])).action == "block"
    fixed = call("inventory_query_stock", warehouse_id="WH-01", skus=["SKU-10232"])
    assert unchanged_field(fixed, state(calls=[refusal])).action == "allow"


def test_the_same_read_is_allowed_up_to_the_limit_then_blocked_with_its_result() -> None:
    read = {"warehouse_id": "WH-01"}
    once = state(calls=[record("inventory_query_stock", read, '{"items": [1]}')])
    assert read_loop(call("inventory_query_stock", **read), once).action == "allow"
    twice = state(calls=[record("inventory_query_stock", read, '{"items": [1]}')] * 2)
    decision = read_loop(call("inventory_query_stock", **read), twice)
    assert decision.action == "block"
    assert '{"items": [1]}' in decision.message


def test_a_read_after_a_successful_write_is_new_information() -> None:
    read = {"warehouse_id": "WH-01"}
    calls = [record("inventory_query_stock", read)] * 2 + [record(CREATE, ARGS, '{"order": {}}')]
    assert read_loop(call("inventory_query_stock", **read), state(calls=calls)).action == "allow"


def test_writes_are_not_read_loops() -> None:
    calls = [record(CREATE, ARGS, '{"order": {}}')] * 3
    assert read_loop(call(CREATE, **ARGS), state(calls=calls)).action == "allow"


def test_a_third_attempt_at_a_rejected_call_ends_the_run_with_the_rejection() -> None:
    first = record(CREATE, ARGS, NOT_LOW, error=True)
    blocked = record(CREATE, ARGS, "Blocked: ...", error=True, executed=False)
    assert give_up(call(CREATE, **ARGS), state(calls=[first])).action == "allow"
    decision = give_up(call(CREATE, **ARGS), state(calls=[first, blocked]))
    assert decision.action == "end"
    assert NOT_LOW in decision.message
