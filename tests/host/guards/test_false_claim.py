"""`false_claim`: a final answer held to this run's tool results; honest answers untouched."""

import json

import pytest

from pipeline.contract import parse_task
from pipeline.host.guards.base import GuardState
from pipeline.host.guards.false_claim import (
    HOST_ASKS,
    HOST_REPORT,
    HOST_UNDONE,
    HOST_WRITTEN,
    false_claim,
)
from pipeline.models import Message, ModelResponse, ToolCall
from pipeline.screentext import ScreenRow, ScreenText, render_screen
from tests.host.guards.states import NOW, event, reply, state

ORDER = {
    "order": {"id": "PO-000007", "sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 202,
              "status": "open"},
    "created": True,
}  # fmt: skip
REFUSED = (
    "refused: SKU-10402 in WH-01 is not low now: on_hand 310 + on_order 0 >= reorder_point 200"
)
QUEUED = {
    "queued": [{"proposal_id": "AP-000003", "tool": "orders_create_replenishment",
                "arguments": {"sku": "SKU-10318", "warehouse_id": "WH-01"}}],
    "message": "queued",
}  # fmt: skip


def with_results(
    *results: tuple[str, dict[str, object], str, bool], bounced: bool = False
) -> GuardState:
    base = state(events=[event("false_claim", "bounce")] if bounced else [])
    messages = list(base.messages)
    for n, (name, arguments, text, error) in enumerate(results):
        messages.append(
            Message(
                role="assistant", tool_calls=[ToolCall(id=f"c{n}", name=name, arguments=arguments)]
            )
        )
        messages.append(Message(role="tool", tool_call_id=f"c{n}", content=text, is_error=error))
    return GuardState(**{**base.__dict__, "messages": messages})


CREATE = "orders_create_replenishment"
ORDERED = with_results(
    (CREATE, {"sku": "SKU-10232", "warehouse_id": "WH-01"}, json.dumps(ORDER), False)
)
NOTHING = with_results((CREATE, {"sku": "SKU-10402", "warehouse_id": "WH-01"}, REFUSED, True))
PROPOSED = with_results(
    (CREATE, {"sku": "SKU-10318", "warehouse_id": "WH-01"}, json.dumps(QUEUED), False)
)


@pytest.mark.parametrize(
    ("run", "answer", "problem"),
    [
        (
            NOTHING,
            "Done! Order ids: PO-000042, PO-000043.",
            "no tool result in this run names PO-000042",
        ),
        (
            NOTHING,
            "I have placed the replenishment orders for the low SKUs.",
            "no order was created",
        ),
        (NOTHING, "已下单补货，请查收。", "no order was created"),
        (
            ORDERED,
            "I created 3 replenishment orders.",
            "it says 3 orders were created; this run created 1",
        ),
        (PROPOSED, "The orders were placed successfully.", "(the writes wait for approval)"),
        (PROPOSED, "Queued as AP-000009 for approval.", "no write was queued as AP-000009"),
        # The real 1.5B, asked for 30 units of one SKU "and nothing else"; nothing was written.
        (state(), "I ordered 30 units of SKU-10232 and nothing else", "no order of SKU-10232"),
        (
            ORDERED,
            "I ordered 202 units of SKU-10232 and 150 units of SKU-10318.",
            "no order of SKU-10318 was created in this run",
        ),
        (ORDERED, "I ordered 30 units of SKU-10232.", "not 30 units"),
    ],
)
def test_a_claim_no_tool_result_supports_is_bounced_with_the_facts(
    run: GuardState, answer: str, problem: str
) -> None:
    decision = false_claim(reply(answer), run)
    assert decision.action == "bounce"
    assert problem in decision.message
    assert "Ledger (from this run's tool results):" in decision.message


@pytest.mark.parametrize(
    ("run", "answer"),
    [
        (ORDERED, "Ordered SKU-10232 in WH-01: 202 units (PO-000007)."),
        (ORDERED, "I created 1 order: PO-000007."),
        (NOTHING, "No order was placed: SKU-10402 is not low now (on hand 310)."),
        (NOTHING, "I did not create any orders."),
        (PROPOSED, "SKU-10318 waits for approval as AP-000003."),
        (NOTHING, "Which warehouse is this screen for?"),
        (state(), "5 of 7 SKUs are low now; nothing was ordered."),
    ],
)
def test_an_answer_that_says_what_happened_passes(run: GuardState, answer: str) -> None:
    assert false_claim(reply(answer), run).action == "allow"


def test_a_second_false_claim_is_replaced_by_the_host_written_ledger() -> None:
    bounced = with_results(
        (CREATE, {"sku": "SKU-10402", "warehouse_id": "WH-01"}, REFUSED, True), bounced=True
    )
    decision = false_claim(reply("Orders PO-000001 and PO-000002 were created."), bounced)
    assert decision.action == "end"
    assert decision.message.startswith(HOST_WRITTEN)
    assert "- refused 1: SKU-10402 in WH-01" in decision.message


def test_a_reply_with_a_call_is_not_a_final_answer() -> None:
    decision = false_claim(
        reply("I ordered PO-000099", ToolCall(id="x", name="orders_list")), NOTHING
    )
    assert decision.action == "allow"


def test_ids_that_show_what_to_ask_are_no_claim() -> None:
    answer = (
        "I did not act on this request. Nothing was written. You can ask: cancel order "
        "PO-000042; cancel the open orders of SKU-10232."
    )
    assert false_claim(reply(answer), NOTHING).action == "allow"


LIVE_READ = {
    "warehouse_id": "WH-01",
    "items": [
        {"sku": "SKU-10232", "warehouse_id": "WH-01", "on_hand": 38, "on_order": 0,
         "reorder_point": 120},
        {"sku": "SKU-10318", "warehouse_id": "WH-01", "on_hand": 300, "on_order": 0,
         "reorder_point": 25},
    ],
}  # fmt: skip


def read_for(task: str, *, bounced: bool = False) -> GuardState:
    run = with_results(
        ("inventory_query_stock", {"warehouse_id": "WH-01"}, json.dumps(LIVE_READ), False),
        bounced=bounced,
    )
    return GuardState(**{**run.__dict__, "contract": parse_task(task)})


REPORT = "Which SKUs are low? Do not place any orders, just tell me."


def test_a_report_that_leaves_out_what_the_live_read_shows_low_is_bounced_then_replaced() -> None:
    first = false_claim(reply("No SKUs are low right now."), read_for(REPORT))
    assert first.action == "bounce"
    assert "SKU-10232 in WH-01: on_hand 38 + on_order 0 < reorder_point 120" in first.message
    second = false_claim(reply("Nothing is low."), read_for(REPORT, bounced=True))
    assert second.action == "end"
    assert second.message.startswith(HOST_REPORT)
    assert "- SKU-10232 in WH-01" in second.message and "SKU-10318" not in second.message


def test_a_report_that_names_what_is_low_passes_and_a_replenishment_is_not_held_to_it() -> None:
    named = reply("SKU-10232 is low in WH-01: 38 on hand, reorder point 120.")
    assert false_claim(named, read_for(REPORT)).action == "allow"
    silent = reply("I will leave it there.")
    assert false_claim(silent, read_for("replenish the low items")).action == "allow"


SCREEN = ScreenText(
    captured_at=NOW,
    context=("Stock · WH-01",),
    columns=("sku", "on_hand", "reorder_point"),
    rows=(
        ScreenRow(sku="SKU-10232", on_hand=38, reorder_point=120, low=True),
        ScreenRow(sku="SKU-10233", on_hand=12, reorder_point=60, low=True),
        ScreenRow(sku="SKU-10240", on_hand=5, reorder_point=40, low=True),
        ScreenRow(sku="SKU-10318", on_hand=300, reorder_point=25),
    ),
)
LOW_NOW = "Which SKUs are low right now? Don't order anything, just tell me."


def shown(task: str, *, bounced: bool = False, read: bool = False) -> GuardState:
    run = (
        read_for(task, bounced=bounced)
        if read
        else state(events=[event("false_claim", "bounce")] if bounced else [])
    )
    messages = [*run.messages, Message(role="user", content=render_screen(SCREEN))]
    return GuardState(**{**run.__dict__, "messages": messages, "contract": parse_task(task)})


def test_a_report_that_names_no_low_row_of_the_screen_is_bounced_with_their_ids() -> None:
    # The real 1.5B's answer, with three rows low on the screen and no live read.
    first = false_claim(reply("I don't need to order anything right now."), shown(LOW_NOW))
    assert first.action == "bounce"
    for sku in ("SKU-10232", "SKU-10233", "SKU-10240"):
        assert sku in first.message
    assert "not checked live" in first.message and "SKU-10318" not in first.message


def test_the_second_report_that_leaves_rows_out_is_written_by_the_host() -> None:
    second = false_claim(reply("Nothing is low."), shown(LOW_NOW, bounced=True, read=True))
    assert second.action == "end" and second.message.startswith(HOST_REPORT)
    assert "- SKU-10232 in WH-01: on_hand 38 + on_order 0 < reorder_point 120" in second.message
    assert "- SKU-10233 in WH-01: low on the screen" in second.message
    assert "no order was created, refused, proposed or cancelled" in second.message


def test_a_report_naming_every_low_row_read_or_not_passes() -> None:
    answer = (
        "Low now: SKU-10232 (38 on hand, reorder point 120). Low on the screen, not checked "
        "live: SKU-10233 and SKU-10240."
    )
    assert false_claim(reply(answer), shown(LOW_NOW, read=True)).action == "allow"


def test_an_answer_that_says_why_it_did_not_touch_an_order_the_task_names_passes() -> None:
    base = state()
    opening = Message(role="user", content="Task: cancle PO-000005 pls\n\nAttachments: none")
    asked = GuardState(**{**base.__dict__, "messages": [base.messages[0], opening]})
    answer = reply(
        "I did not cancel PO-000005: I did not understand 'cancle', so nothing was written."
    )
    assert false_claim(answer, asked).action == "allow"
    made_up = reply("I cancelled PO-000009 as asked.")
    assert false_claim(made_up, asked).action == "bounce"


CLASSIC_WH02 = {
    "warehouse_id": "WH-02",
    "items": [
        {"sku": sku, "warehouse_id": "WH-02", "on_hand": on_hand, "on_order": 0,
         "reorder_point": 60}
        for sku, on_hand in (("SKU-10231", 12), ("SKU-10402", 8), ("SKU-10602", 20),
                             ("SKU-10610", 4), ("SKU-10620", 30), ("SKU-10702", 9),
                             ("SKU-10318", 300))
    ],
}  # fmt: skip
SELF = "Just list what is running low on this page; I'll place the orders myself."


def read_wh02(*, bounced: bool = False) -> GuardState:
    run = with_results(
        ("inventory_query_stock", {"warehouse_id": "WH-02"}, json.dumps(CLASSIC_WH02), False),
        bounced=bounced,
    )
    return GuardState(**{**run.__dict__, "contract": parse_task(SELF)})


def test_a_report_that_ends_with_a_question_back_is_bounced_then_written_by_the_host() -> None:
    # The real 1.5B's last step, a question back to the user, after reading WH-02 live.
    asked = ModelResponse(
        content="What is the current stock of SKU-10231 in WH-02?",
        finish_reason="stop",
        asks=True,
    )
    first = false_claim(asked, read_wh02())
    assert first.action == "bounce"
    for sku in ("SKU-10402", "SKU-10602", "SKU-10610", "SKU-10620", "SKU-10702"):
        assert sku in first.message
    assert "SKU-10318" not in first.message
    second = false_claim(asked, read_wh02(bounced=True))
    assert second.action == "end" and second.message.startswith(HOST_REPORT)
    assert "- SKU-10231 in WH-02: on_hand 12 + on_order 0 < reorder_point 60" in second.message
    assert "- SKU-10702 in WH-02" in second.message


def test_a_question_that_names_every_low_row_passes() -> None:
    asked = ModelResponse(
        content="SKU-10231, SKU-10402, SKU-10602, SKU-10610, SKU-10620 and SKU-10702 are low "
        "in WH-02. Do you want me to order them?",
        finish_reason="stop",
        asks=True,
    )
    assert false_claim(asked, read_wh02()).action == "allow"


def test_an_empty_report_after_a_stall_nudge_is_bounced_and_the_first_is_left_to_stall() -> None:
    assert false_claim(reply(""), read_wh02()).action == "allow"
    nudged = read_wh02()
    nudged = GuardState(**{**nudged.__dict__, "events": [event("stall", "bounce")]})
    decision = false_claim(reply(""), nudged)
    assert decision.action == "bounce" and "SKU-10702" in decision.message


def test_a_report_with_a_false_claim_and_rows_left_out_hears_both_and_then_gets_the_rows() -> None:
    answer = reply("I ordered SKU-10231 for you.")
    first = false_claim(answer, read_wh02())
    assert first.action == "bounce"
    assert "no order of SKU-10231 was created" in first.message
    assert "leaves out rows that are low" in first.message and "SKU-10702" in first.message
    second = false_claim(answer, read_wh02(bounced=True))
    assert second.action == "end"
    assert "- SKU-10702 in WH-02" in second.message
    assert "no order was created, refused, proposed or cancelled" in second.message


def replenished(*, bounced: bool = False) -> GuardState:
    """A replenishment over SCREEN (three rows low in WH-01) that ordered one of them."""
    run = shown("Replenish the low items", bounced=bounced)
    messages = [
        *run.messages,
        Message(
            role="assistant",
            tool_calls=[
                ToolCall(
                    id="o1", name=CREATE, arguments={"sku": "SKU-10232", "warehouse_id": "WH-01"}
                )
            ],
        ),
        Message(role="tool", tool_call_id="o1", content=json.dumps(ORDER)),
    ]
    return GuardState(**{**run.__dict__, "messages": messages})


def test_a_replenishment_that_stops_after_some_of_the_low_rows_is_bounced_with_the_rest() -> None:
    # The shape of the real 1.5B's answer that ended a run with three low SKUs untouched.
    first = false_claim(reply("Ordered SKU-10232 with 202 units. The order ID is PO-000007."),
                        replenished())  # fmt: skip
    assert first.action == "bounce"
    assert "SKU-10233 in WH-01" in first.message and "SKU-10240 in WH-01" in first.message
    assert "SKU-10232 in WH-01;" not in first.message and "SKU-10318" not in first.message


def test_a_second_answer_that_stops_short_stands_with_the_rows_left_named_by_the_host() -> None:
    answer = "Ordered SKU-10232 with 202 units."
    second = false_claim(reply(answer), replenished(bounced=True))
    assert second.action == "end"
    assert second.message.startswith(answer)
    assert second.message.endswith(f"{HOST_UNDONE} SKU-10233 in WH-01; SKU-10240 in WH-01")


def test_a_replenishment_that_says_why_the_other_rows_were_not_ordered_passes() -> None:
    answer = (
        "Ordered SKU-10232 (PO-000007). SKU-10233 and SKU-10240 were not ordered: "
        "the supplier is closed this week."
    )
    assert false_claim(reply(answer), replenished()).action == "allow"


NO_WAREHOUSE = SCREEN.model_copy(update={"context": ("Stock",)})
"""SCREEN cut to its table: no warehouse anywhere on it."""


def cropped(task: str, *, bounced: bool = False) -> GuardState:
    """A write over a screen cut to its table: no warehouse anywhere on it."""
    run = state(events=[event("false_claim", "bounce")] if bounced else [])
    messages = [
        run.messages[0],
        Message(role="user", content=f"Task: {task}"),
        Message(role="user", content=render_screen(NO_WAREHOUSE)),
    ]
    return GuardState(**{**run.__dict__, "messages": messages, "contract": parse_task(task)})


def test_an_answer_that_does_not_ask_where_rows_without_a_warehouse_go_is_bounced() -> None:
    # The first-option baseline's answer on a cropped table: no order, no question.
    first = false_claim(reply("Done."), cropped("Replenish the low rows in this table"))
    assert first.action == "bounce"
    assert "SKU-10232, SKU-10233, SKU-10240 without a warehouse" in first.message
    assert "SKU-10318" not in first.message
    assert "Ask the user which warehouse" in first.message


def test_the_second_answer_that_does_not_ask_ends_with_the_hosts_question() -> None:
    second = false_claim(reply("All done."), cropped("Replenish the low rows", bounced=True))
    assert second.action == "end"
    assert second.message.startswith(HOST_ASKS)
    assert "no order was created" in second.message
    assert second.message.endswith("Which warehouse should I order them in?")
    zh = false_claim(reply("好了"), cropped("这张表里缺货的帮我补货", bounced=True))
    assert zh.message.endswith("要补到哪个仓库？")


def test_asking_which_warehouse_passes_and_a_task_that_names_one_places_the_rows() -> None:
    asked = reply("The table names no warehouse. Which warehouse are these rows in?")
    assert false_claim(asked, cropped("Replenish the low rows")).action == "allow"
    placed = cropped("Replenish the low rows in WH-01")
    assert "without a warehouse" not in false_claim(reply("Done."), placed).message
    report = cropped("Which rows are low? Just tell me.")
    assert "without a warehouse" not in false_claim(reply("Done."), report).message
