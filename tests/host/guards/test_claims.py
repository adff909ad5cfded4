"""Claims read action by action and held to the ledger: what was done passes, anything else is
named."""

import pytest
from hypothesis import given, settings, strategies as st

from pipeline.host.guards.claims import parse_claims, unsupported
from pipeline.host.ledger import LedgerEntry, LedgerSummary

EMPTY = LedgerSummary()
ONE_ORDER = LedgerSummary(
    ordered=[LedgerEntry(sku="SKU-10232", warehouse_id="WH-01", quantity=202, order_id="PO-000007")]
)
REFUSED = LedgerSummary(
    refused=[LedgerEntry(sku="SKU-10402", warehouse_id="WH-01", reason="not low now")]
)
QUEUED = LedgerSummary(
    proposed=[
        LedgerEntry(sku="SKU-10318", warehouse_id="WH-01", quantity=40, proposal_id="AP-000003")
    ]
)


@pytest.mark.parametrize(
    ("ledger", "answer", "problem"),
    [
        # The real 1.5B's answer to "order 30 units of … and nothing else", with an empty ledger.
        (EMPTY, "I ordered 30 units of SKU-10231 and nothing else", "no order of SKU-10231"),
        # Two SKUs claimed with their quantities; one order written.
        (
            ONE_ORDER,
            "I ordered 202 units of SKU-10232 and 150 units of SKU-10318.",
            "no order of SKU-10318 was created in this run",
        ),
        (ONE_ORDER, "I ordered 30 units of SKU-10232.", "not 30 units"),
        (ONE_ORDER, "SKU-10232 was replenished in WH-02.", "not in WH-02"),
        (REFUSED, "I placed an order for SKU-10402.", "the server refused it"),
        (QUEUED, "I ordered SKU-10318 (40 units).", "waits for approval"),
        (EMPTY, "已为 SKU-10232 和 SKU-10318 各下单 30 件。", "no order of SKU-10232"),
        (EMPTY, "The orders were placed successfully.", "no order was created"),
        (ONE_ORDER, "Cancelled PO-000007 as asked.", "PO-000007 was not cancelled"),
        (ONE_ORDER, "Skipped SKU-10232 in WH-01: not low any more.", "in WH-01 in this run, not"),
    ],
)
def test_each_claimed_action_the_ledger_lacks_is_named(
    ledger: LedgerSummary, answer: str, problem: str
) -> None:
    assert any(problem in p for p in unsupported(answer, ledger)), unsupported(answer, ledger)


@pytest.mark.parametrize(
    ("ledger", "answer"),
    [
        (ONE_ORDER, "Ordered SKU-10232 in WH-01: 202 units (PO-000007)."),
        (ONE_ORDER, "已为 SKU-10232 下单 202 件，SKU-10318 未下单：库存充足。"),
        (ONE_ORDER, "I did not order SKU-10402 because it is not low; I ordered SKU-10232 x202."),
        (ONE_ORDER, "SKU-10232 is low in WH-01, so I ordered 202 units."),
        (REFUSED, "SKU-10402 was refused: it is not low now."),
        (QUEUED, "SKU-10318 waits for approval as AP-000003."),
        (EMPTY, "I don't need to order anything right now."),
        (EMPTY, "I will order SKU-10318 once you confirm."),
        (EMPTY, "No order was placed: SKU-10402 is not low now (on hand 310)."),
        (EMPTY, "I could not place the order for SKU-10231; the warehouse is not on the screen."),
        (EMPTY, "I created a summary of the low items."),
        # The fault replay's answer: the SKU ordered in one warehouse, skipped in the other.
        (
            ONE_ORDER,
            "Ordered 1, skipped 1.\n- ordered: SKU-10232 in WH-01: ordered 202 (PO-000007)\n"
            "- skipped: SKU-10232 in WH-02: not low any more: live on_hand 205 >= reorder_point 120",
        ),
        # The 0.5B's answer of a run that wrote nothing: what it skipped is no claim to hold.
        (EMPTY, "Order ids: PO-000042, PO-000043 Skus skipped: SKU-10232, SKU-10233, SKU-10240"),
    ],
)
def test_what_was_done_and_what_was_not_pass(ledger: LedgerSummary, answer: str) -> None:
    assert unsupported(answer, ledger) == []


def test_a_clause_that_only_lists_ids_continues_the_claim_before_it() -> None:
    (claim,) = parse_claims("I ordered SKU-10232, SKU-10233 and SKU-10240 in WH-01.")
    assert claim.kind == "ordered"
    assert claim.skus == ("SKU-10232", "SKU-10233", "SKU-10240")
    assert claim.warehouses == ("WH-01",)


def test_a_clause_that_says_something_of_its_own_continues_nothing() -> None:
    (claim,) = parse_claims("I ordered SKU-10232, SKU-10402 is not low.")
    assert claim.skus == ("SKU-10232",)
    (claim,) = parse_claims("I checked SKU-10403; it was ordered for 120 units.")
    assert claim.skus == ()


def test_an_order_made_before_the_run_is_held_to_the_orders_its_results_named() -> None:
    before = [
        LedgerEntry(sku="SKU-10403", warehouse_id="WH-01", quantity=120, order_id="PO-000001")
    ]
    answer = "SKU-10403 was already ordered (PO-000001, 120 units)."
    assert unsupported(answer, EMPTY, before) == []
    assert unsupported("I ordered SKU-10403 (120 units).", EMPTY, before) != []


@pytest.mark.parametrize(
    "answer",
    [
        "Orders cancelled: none. PO-000012 stays open because 'nix' is no verb I know.",
        "Replenishment orders placed: 0",
        "Cancelled: nothing (I could not tell what 'nix' asks).",
        "PO-000012 cancelled: not done (the request was unclear).",
        "已取消的订单：无。PO-000012 仍然有效。",
        "PO-000012 cancelled once you confirm the request.",
        "SKU-10233 ordered after your approval, not before.",
        "确认后为 SKU-10233 下单 40 件。",
    ],
)
def test_an_account_of_what_was_not_done_or_waits_on_the_user_claims_nothing(answer: str) -> None:
    assert parse_claims(answer) == []
    assert unsupported(answer, EMPTY) == []


@pytest.mark.parametrize(
    "answer",
    ["Cancelled PO-000012: done.", "Orders placed: SKU-10233 (40 units).", "已取消：PO-000012。"],
)
def test_a_heading_answered_with_what_was_done_is_still_held_to_the_ledger(answer: str) -> None:
    assert unsupported(answer, EMPTY) != []


# ---- a property: claims written from a ledger hold; each mutation of one is caught

SKUS = [f"SKU-{n}" for n in range(10231, 10241)]
WAREHOUSES = ["WH-01", "WH-02"]


@st.composite
def ledgers(draw: st.DrawFn) -> LedgerSummary:
    skus = draw(st.lists(st.sampled_from(SKUS), min_size=3, max_size=6, unique=True))
    kinds = draw(
        st.lists(
            st.sampled_from(["ordered", "proposed", "refused"]),
            min_size=len(skus),
            max_size=len(skus),
        )
    )
    ledger = LedgerSummary()
    for n, (sku, kind) in enumerate(zip(skus, kinds, strict=True)):
        warehouse = draw(st.sampled_from(WAREHOUSES))
        units = draw(st.integers(min_value=1, max_value=500))
        if kind == "ordered":
            ledger.ordered.append(
                LedgerEntry(
                    sku=sku, warehouse_id=warehouse, quantity=units, order_id=f"PO-{n + 1:06d}"
                )
            )
        elif kind == "proposed":
            ledger.proposed.append(
                LedgerEntry(
                    sku=sku, warehouse_id=warehouse, quantity=units, proposal_id=f"AP-{n + 1:06d}"
                )
            )
        else:
            ledger.refused.append(LedgerEntry(sku=sku, warehouse_id=warehouse, reason="not low"))
    return ledger


ORDERED = (
    "I ordered {q} units of {sku} in {wh}.",
    "Ordered {sku} x{q} in {wh} ({po}).",
    "{sku} was replenished in {wh}: {q} units.",
    "已为 {sku} 下单 {q} 件（{wh}）。",
)
PROPOSED = ("{sku} waits for approval ({q} units in {wh}).", "{sku} 的 {q} 件补货已提交审批。")


def written(template: str, entry: LedgerEntry, **changes: object) -> str:
    values: dict[str, object] = {
        "sku": entry.sku,
        "wh": entry.warehouse_id,
        "q": entry.quantity,
        "po": entry.order_id,
    }
    return template.format(**{**values, **changes})


def answers(ledger: LedgerSummary, template: int) -> str:
    said = [written(ORDERED[template % len(ORDERED)], e) for e in ledger.ordered]
    said += [written(PROPOSED[template % len(PROPOSED)], e) for e in ledger.proposed]
    said += [f"{e.sku} was skipped: the server said it is not low." for e in ledger.refused]
    return " ".join(said)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(ledgers(), st.integers(min_value=0, max_value=11))
def test_claims_written_from_the_ledger_hold(ledger: LedgerSummary, template: int) -> None:
    assert unsupported(answers(ledger, template), ledger) == []


MUTATIONS = ("another SKU", "another quantity", "another warehouse", "refused", "proposed")


@settings(max_examples=400, derandomize=True, deadline=None)
@given(ledgers(), st.integers(min_value=0, max_value=11), st.sampled_from(MUTATIONS))
def test_every_mutation_of_a_true_claim_is_caught(
    ledger: LedgerSummary, template: int, mutation: str
) -> None:
    form = ORDERED[template % len(ORDERED)]
    if mutation in ("refused", "proposed"):
        pool = ledger.refused if mutation == "refused" else ledger.proposed
        if not pool:
            return
        claim = written(form, pool[0], q=pool[0].quantity or 10, po="PO-000099")
    else:
        if not ledger.ordered:
            return
        entry = ledger.ordered[0]
        if mutation == "another SKU":
            used = {e.sku for e in (*ledger.ordered, *ledger.proposed, *ledger.refused)}
            claim = written(form, entry, sku=next(s for s in SKUS if s not in used))
        elif mutation == "another quantity":
            claim = written(form, entry, q=(entry.quantity or 0) + 1)
        else:
            other = next(w for w in WAREHOUSES if w != entry.warehouse_id)
            claim = written(form, entry, wh=other)
    assert unsupported(claim, ledger), claim
