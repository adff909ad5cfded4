"""The ledger summary the host writes from the tool results, whatever the model says."""

from pipeline.host.ledger import summarize
from pipeline.toolfacts import Facts, OrderFact


def test_every_kind_of_outcome_is_listed_with_its_ids_and_reasons() -> None:
    facts = Facts(
        created={
            ("SKU-10232", "WH-01"): OrderFact("PO-000007", "SKU-10232", "WH-01", 202, "open"),
            ("SKU-10310", "WH-01"): OrderFact("PO-000003", "SKU-10310", "WH-01", 25, "open"),
        },
        new_orders=["PO-000007"],
        refusals={("SKU-10402", "WH-01"): "refused: SKU-10402 in WH-01 is not low now"},
        proposed={("SKU-10318", "WH-01"): "AP-000004"},
        proposed_quantities={"AP-000004": 48},
        proposed_cancels={"PO-000001": "AP-000005"},
        cancelled={"PO-000002": OrderFact("PO-000002", "SKU-10501", "WH-01", 41, "cancelled")},
        dry_run=[("orders_create_replenishment", {"sku": "SKU-10520", "warehouse_id": "WH-01"})],
    )
    ledger = summarize(facts)
    assert [e.order_id for e in ledger.ordered] == ["PO-000007"]
    assert [e.order_id for e in ledger.returned] == ["PO-000003"]
    assert ledger.wrote
    assert ledger.text.splitlines() == [
        "Ledger (from this run's tool results):",
        "- ordered 1: PO-000007 SKU-10232 in WH-01 x202",
        "- already ordered before (same idempotency key) 1: PO-000003 SKU-10310 in WH-01",
        "- waiting for approval 2: AP-000004 SKU-10318 in WH-01 x48, AP-000005 cancel PO-000001",
        "- cancelled 1: PO-000002 (SKU-10501 in WH-01)",
        "- dry run, recorded and not run 1: SKU-10520 in WH-01",
        "- refused 1: SKU-10402 in WH-01: refused: SKU-10402 in WH-01 is not low now",
    ]


def test_a_run_that_did_nothing_says_so() -> None:
    ledger = summarize(Facts())
    assert not ledger.wrote
    assert ledger.text == (
        "Ledger (from this run's tool results): no order was created, refused, proposed or "
        "cancelled."
    )
