"""Proposals over each real store: one decision wins, expiry, a stale claim, a tampered row."""

from __future__ import annotations

import shutil
import threading
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from servers import approvals, catalog, domain
from servers.errors import NotLow, NotPending, SameRequester, UnknownProposal
from store.migrate import SCHEMA_VERSION
from store.models import JsonObject, ProposalQuery
from store.protocol import OpenStore, Store
from store.stores import open_store
from tests.servers.conftest import legacy_postgres, raw_sql, schema_version

DATA = Path(__file__).parents[1] / "store" / "data"

ARGS: JsonObject = {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 202}
ARGS_ROW = ("SKU-10232", "WH-01")
DAY = timedelta(days=1)


@pytest.fixture
def store(empty_store: OpenStore, now: datetime) -> OpenStore:
    """Proposals start from a store of each kind holding the demo catalogue, where SKU-10232
    is low in WH-01 (38 on hand, reorder point 120) and not in WH-02 (205)."""
    domain.seed(empty_store, *catalog.seed_data(), now=now)
    return empty_store


def _propose(
    store: Store, now: datetime, ttl: timedelta = DAY, run_id: str = "r1", sku: str = "SKU-10232"
) -> str:
    return approvals.propose(
        store, tool="orders_create_replenishment", arguments={**ARGS, "sku": sku}, now=now,
        ttl=ttl, run_id=run_id,
    ).proposal.id  # fmt: skip


def test_a_run_proposing_the_same_call_again_gets_its_earlier_proposal_back(
    store: OpenStore, now: datetime
) -> None:
    first = _propose(store, now)
    approvals.deny(store, first, by="b", reason="no", now=now)
    again = _propose(store, now)
    other_run = _propose(store, now, run_id="r2")
    pending = approvals.list_proposals(store, ProposalQuery(status="pending"), now=now)
    assert again == first
    assert other_run != first
    assert [p.id for p in pending] == [other_run]


def test_a_proposal_keeps_its_exact_arguments_and_their_hash(
    store: OpenStore, now: datetime
) -> None:
    proposal_id = _propose(store, now)
    proposal = approvals.get_proposal(store, proposal_id, now=now)
    with store.reading() as tx:
        audit = tx.audit(limit=5)
    assert proposal_id == "AP-000001"
    assert (proposal.status, proposal.arguments, proposal.run_id) == ("pending", ARGS, "r1")
    assert proposal.arguments_sha256 == approvals.arguments_sha256(
        {"warehouse_id": "WH-01", "quantity": 202, "sku": "SKU-10232"}
    )
    assert proposal.expires_at == (now + DAY).replace(microsecond=0)
    assert [(e.action, e.outcome) for e in audit if e.action != domain.SEED] == [
        ("approval proposed", "accepted")
    ]


def test_of_many_concurrent_claims_exactly_one_wins(store: OpenStore, now: datetime) -> None:
    proposal_id = _propose(store, now)
    won: list[str] = []
    lost: list[str] = []
    barrier = threading.Barrier(20)

    def claim(n: int) -> None:
        barrier.wait()
        try:
            approvals.claim(store, proposal_id, by=f"person-{n}", now=now)
            won.append(f"person-{n}")
        except NotPending as exc:
            lost.append(exc.message)

    threads = [threading.Thread(target=claim, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    final = approvals.get_proposal(store, proposal_id, now=now)
    assert len(won) == 1 and len(lost) == 19
    assert final.status == "approved" and final.decided_by == won[0]


def test_a_settled_approval_keeps_its_order_and_a_refusal_fails_it(
    store: OpenStore, now: datetime
) -> None:
    first, second = _propose(store, now), _propose(store, now, run_id="r2", sku="SKU-10318")
    claimed = approvals.claim(store, first, by="a", now=now)
    done = approvals.settle(
        store, claimed, ran=True, message="ok", result={"order": {}}, order_id="PO-000001",
        now=now,
    )  # fmt: skip
    refused = approvals.settle(
        store,
        approvals.claim(store, second, by="a", now=now),
        ran=False,
        message="refused: not low now",
        result={"live": {"on_hand": 900}},
        order_id=None,
        now=now,
    )
    assert (done.status, done.order_id) == ("approved", "PO-000001")
    assert (refused.status, refused.reason, refused.result) == (
        "failed",
        "refused: not low now",
        {"live": {"on_hand": 900}},
    )


def test_a_decided_proposal_cannot_be_denied_or_approved_again(
    store: OpenStore, now: datetime
) -> None:
    proposal_id = _propose(store, now)
    approvals.deny(store, proposal_id, by="b", reason="no budget", now=now)
    with pytest.raises(NotPending, match="is denied by b"):
        approvals.claim(store, proposal_id, by="a", now=now)
    with pytest.raises(NotPending, match="is denied by b"):
        approvals.deny(store, proposal_id, by="a", reason=None, now=now)


def test_an_expired_proposal_is_marked_expired_when_anyone_looks(
    store: OpenStore, now: datetime
) -> None:
    proposal_id = _propose(store, now, ttl=timedelta(hours=1))
    assert approvals.list_proposals(store, ProposalQuery(status="pending"), now=now)
    later = now + timedelta(hours=2)
    assert approvals.list_proposals(store, ProposalQuery(status="pending"), now=later) == []
    (expired,) = approvals.list_proposals(store, ProposalQuery(status="expired"), now=later)
    with pytest.raises(NotPending, match="is expired"):
        approvals.claim(store, proposal_id, by="a", now=later)
    assert expired.id == proposal_id


def test_a_claim_never_settled_can_be_taken_again_after_a_while(
    store: OpenStore, now: datetime
) -> None:
    proposal_id = _propose(store, now)
    approvals.claim(store, proposal_id, by="crashed", now=now)
    with pytest.raises(NotPending):
        approvals.claim(store, proposal_id, by="b", now=now + timedelta(seconds=5))
    again = approvals.claim(store, proposal_id, by="b", now=now + approvals.STALE_CLAIM)
    assert again.decided_by == "b"


def test_a_proposal_whose_stored_arguments_changed_will_not_run(
    store: OpenStore, store_url: str, now: datetime
) -> None:
    proposal_id = _propose(store, now)
    raw_sql(store_url, """UPDATE proposals SET arguments = '{"quantity": 9000}' WHERE number = 1""")
    with pytest.raises(NotPending, match="no longer match"):
        approvals.claim(store, proposal_id, by="a", now=now)


def test_an_unknown_or_malformed_id_says_what_ids_look_like(
    store: OpenStore, now: datetime
) -> None:
    for bad in ("AP-000042", "PO-000001", "hello"):
        with pytest.raises(UnknownProposal, match="ids look like AP-000001"):
            approvals.get_proposal(store, bad, now=now)


def test_a_sqlite_store_of_the_first_schema_gains_the_approvals_table(db_path: Path) -> None:
    # A store file the first schema version wrote (before proposals existed).
    shutil.copyfile(DATA / "store-v1.db", db_path)
    with open_store(str(db_path)) as store, store.reading() as tx:
        assert tx.proposals(ProposalQuery()) == []
    assert schema_version(str(db_path)) == SCHEMA_VERSION


def test_a_postgres_store_of_the_first_schema_gains_the_approvals_table(postgres_url: str) -> None:
    legacy_postgres(postgres_url, 1, rows=False)
    with open_store(postgres_url) as store, store.reading() as tx:
        assert tx.proposals(ProposalQuery()) == []
    assert schema_version(postgres_url) == SCHEMA_VERSION


def test_under_separation_whoever_started_the_run_cannot_claim_its_proposal_and_it_is_audited(
    store: OpenStore, now: datetime
) -> None:
    proposal = approvals.propose(
        store, tool="orders_create_replenishment", arguments=ARGS, now=now, ttl=DAY,
        run_id="r1", requested_by="api:otto",
    ).proposal  # fmt: skip
    with pytest.raises(SameRequester, match="another key or person must approve it"):
        approvals.claim(store, proposal.id, by="api:otto", now=now, separate=True)
    assert approvals.get_proposal(store, proposal.id, now=now).status == "pending"
    claimed = approvals.claim(store, proposal.id, by="api:anna", now=now, separate=True)
    assert (claimed.status, claimed.decided_by, claimed.requested_by) == (
        "approved",
        "api:anna",
        "api:otto",
    )
    with store.reading() as tx:
        trail = [
            (e.action, e.outcome, e.actor)
            for e in reversed(tx.audit(limit=10))
            if e.action != domain.SEED
        ]
    assert trail == [
        ("approval proposed", "accepted", "api:otto"),
        ("approval approved", "refused", "api:otto"),
        ("approval approved", "accepted", "api:anna"),
    ]


def test_without_separation_the_starter_of_a_run_may_approve_it(
    store: OpenStore, now: datetime
) -> None:
    proposal = approvals.propose(
        store, tool="orders_create_replenishment", arguments=ARGS, now=now, ttl=DAY,
        requested_by="cli:ops",
    ).proposal  # fmt: skip
    assert approvals.claim(store, proposal.id, by="cli:ops", now=now).status == "approved"


def test_a_write_live_stock_does_not_need_is_refused_with_the_live_numbers_and_not_queued(
    store: OpenStore, now: datetime
) -> None:
    stale = {**ARGS, "warehouse_id": "WH-02", "observed_on_hand": 12}
    with pytest.raises(NotLow) as refused:
        approvals.propose(
            store, tool="orders_create_replenishment", arguments=stale, now=now, ttl=DAY
        )
    with store.reading() as tx:
        (audited,) = [e for e in tx.audit(limit=5) if e.action == approvals.PROPOSE]
    assert refused.value.message == (
        "SKU-10232 in WH-02 is not low now: on_hand 205 + on_order 0 >= reorder_point 120 "
        "(the screenshot showed 12)"
    )
    assert approvals.list_proposals(store, ProposalQuery(), now=now) == []
    assert (audited.outcome, audited.reason) == (
        "refused",
        f"orders_create_replenishment not queued: {refused.value.message}",
    )


def test_the_same_write_asked_again_by_anyone_gets_the_proposal_already_waiting(
    store: OpenStore, now: datetime
) -> None:
    first = approvals.propose(
        store, tool="orders_create_replenishment", arguments=ARGS, now=now, ttl=DAY, run_id="r1"
    )
    later = now + timedelta(hours=1)
    again = [
        approvals.propose(
            store, tool="orders_create_replenishment", arguments=arguments, now=later, ttl=DAY,
            run_id=run_id, requested_by=who,
        )
        for arguments, run_id, who in [
            (ARGS, "r2", "api:anna"),
            ({**ARGS, "quantity": 50}, None, "mcp:desktop"),
        ]
    ]  # fmt: skip
    pending = approvals.list_proposals(store, ProposalQuery(status="pending"), now=later)
    assert first.new and first.waiting_since is None
    assert [(p.proposal.id, p.new, p.waiting_since) for p in again] == [
        (first.proposal.id, False, now)
    ] * 2
    assert [p.id for p in pending] == [first.proposal.id]


def test_a_decided_proposal_frees_its_write_for_a_new_one(store: OpenStore, now: datetime) -> None:
    first = _propose(store, now)
    approvals.deny(store, first, by="b", reason="wrong supplier", now=now)
    second = _propose(store, now, run_id="r2")
    assert second != first
    assert approvals.get_proposal(store, second, now=now).status == "pending"


def test_twenty_writers_on_their_own_connections_leave_one_pending_proposal(
    store: OpenStore, store_url: str, now: datetime
) -> None:
    ids: list[str] = []
    errors: list[BaseException] = []
    start = threading.Barrier(20)

    def write(n: int) -> None:
        try:
            with open_store(store_url) as own:
                start.wait(timeout=30)
                ids.append(_propose(own, now, run_id=f"run-{n}"))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    pending = approvals.list_proposals(store, ProposalQuery(status="pending"), now=now)
    assert errors == []
    assert len(pending) == 1
    assert ids == [pending[0].id] * 20


def test_a_pending_proposal_whose_sku_stops_being_low_expires_saying_why(
    store: OpenStore, now: datetime
) -> None:
    proposal_id = _propose(store, now)
    with store.reading() as tx:
        (row,) = [r for r in tx.stock_records() if (r.sku, r.warehouse_id) == ARGS_ROW]
    domain.import_records(store, [row.model_copy(update={"on_hand": 500})], now=now, source="t")
    (listed,) = approvals.list_proposals(store, ProposalQuery(), now=now)
    with pytest.raises(NotPending, match="no longer needed"):
        approvals.claim(store, proposal_id, by="a", now=now)
    assert (listed.id, listed.status) == (proposal_id, "expired")
    assert listed.reason == (
        "no longer needed: SKU-10232 in WH-01 is not low now: "
        "on_hand 500 + on_order 0 >= reorder_point 120"
    )
