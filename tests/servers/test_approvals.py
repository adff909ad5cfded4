"""Proposals over each real store: one decision wins, expiry, a stale claim, a tampered row."""

from __future__ import annotations

import shutil
import threading
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from servers import approvals
from servers.errors import NotPending, SameRequester, UnknownProposal
from servers.models import JsonObject, ProposalQuery
from servers.sql.migrate import SCHEMA_VERSION
from servers.store import OpenStore, Store
from servers.stores import open_store
from tests.servers.conftest import legacy_postgres, raw_sql, schema_version

DATA = Path(__file__).parent / "data"

ARGS: JsonObject = {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 202}
DAY = timedelta(days=1)


@pytest.fixture
def store(empty_store: OpenStore) -> OpenStore:
    """Proposals start from an empty store of each kind."""
    return empty_store


def _propose(store: Store, now: datetime, ttl: timedelta = DAY, run_id: str = "r1") -> str:
    return approvals.propose(
        store, tool="orders_create_replenishment", arguments=ARGS, now=now, ttl=ttl, run_id=run_id
    ).id


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
    assert [(e.action, e.outcome) for e in audit] == [("approval proposed", "accepted")]


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
    first, second = _propose(store, now), _propose(store, now, run_id="r2")
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
    )  # fmt: skip
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
        trail = [(e.action, e.outcome, e.actor) for e in reversed(tx.audit(limit=10))]
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
    )  # fmt: skip
    assert approvals.claim(store, proposal.id, by="cli:ops", now=now).status == "approved"
