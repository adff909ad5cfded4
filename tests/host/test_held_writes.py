"""What the loop hands the proposal queue: one draft per order, with the screen and the live
numbers the run read, and the model's own idempotency key left out."""

from datetime import UTC, datetime

from pipeline.host.context import Attachment
from pipeline.host.held_writes import ProposalRefusal, ProposalTicket, drafts_for, queued_outcome
from pipeline.toolfacts import CREATE_TOOL, Facts, Live

SCREEN = Attachment(
    "erp.png",
    "Screenshot captured at 2026-11-28T10:05:00+08:00 (a past view).\n"
    "Page: Stock · WH-01\n"
    "| sku | name | on_hand | reorder_point | warehouse_id | low |\n|---|---|---|---|---|---|\n"
    "| SKU-10232 | Hex nut | 38 | 120 |  | yes |\n"
    "| SKU-10318 | Tube kit | 2 | 25 |  | yes |",
    "the table read from erp.png",
)


def test_a_create_for_several_skus_becomes_one_draft_per_sku_with_its_numbers() -> None:
    facts = Facts(live={("SKU-10232", "WH-01"): Live("SKU-10232", "WH-01", 38, 0, 120)})
    drafts = drafts_for(
        "run-1",
        "orders_create_replenishment",
        {"warehouse_id": "WH-01", "skus": ["SKU-10232", "SKU-10318"], "idempotency_key": "k"},
        attachments=[SCREEN],
        facts=facts,
    )
    assert [d.arguments for d in drafts] == [
        {"sku": "SKU-10232", "warehouse_id": "WH-01"},
        {"sku": "SKU-10318", "warehouse_id": "WH-01"},
    ]
    assert drafts[0].observation == {
        "sku": "SKU-10232",
        "warehouse_id": "WH-01",
        "on_hand": 38,
        "reorder_point": 120,
        "captured_at": "2026-11-28T10:05:00+08:00",
        "screen": "erp.png",
    }
    assert drafts[0].live == {"on_hand": 38, "on_order": 0, "reorder_point": 120}
    assert drafts[1].live is None


def test_a_cancel_is_one_draft_as_it_was_sent() -> None:
    (draft,) = drafts_for(
        "run-1", "orders_cancel", {"order_id": "PO-000007"}, attachments=[], facts=Facts()
    )
    assert (draft.tool, draft.arguments, draft.observation) == (
        "orders_cancel",
        {"order_id": "PO-000007"},
        None,
    )


WHEN = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


def test_the_model_reads_which_write_waits_already_since_when_and_which_was_refused() -> None:
    refusal = ProposalRefusal(
        CREATE_TOOL, {"sku": "SKU-10231"}, "not_low", "SKU-10231 in WH-01 is not low now"
    )
    waiting = ProposalTicket(
        "AP-000007", CREATE_TOOL, {"sku": "SKU-10232"}, WHEN, waiting_since=WHEN
    )
    is_error, _, structured = queued_outcome([waiting, refusal])
    assert not is_error
    assert structured["message"] == (
        "already waiting for approval, not executed: AP-000007 since 2026-11-30T08:00:00+00:00: "
        'orders_create_replenishment {"sku": "SKU-10232"}. A person approves or denies it; do '
        "not send it again. Report it as waiting for approval. refused: SKU-10231 in WH-01 is "
        "not low now."
    )
    assert structured["results"] == [
        {"sku": "SKU-10231", "refused": {"error": "not_low", "message": refusal.message}}
    ]


def test_a_write_every_order_of_which_was_refused_is_an_error_with_nothing_queued() -> None:
    refusal = ProposalRefusal(CREATE_TOOL, {"sku": "SKU-10231"}, "not_low", "not low now")
    is_error, _, structured = queued_outcome([refusal])
    assert is_error
    assert "queued" not in structured
    assert structured["message"] == "refused: not low now."
