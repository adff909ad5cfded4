"""Retention: every long-lived process prunes what is kept only for a while (screenshots,
webhook events and their delivery log), and never a screenshot a pending proposal shows."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pipeline.bootstrap import screen_shelf
from pipeline.host.record import AttachmentInfo, RunRecord, append_run_log
from pipeline.retention import logged_screens, tidy
from pipeline.settings import Settings
from pipeline.shelf import ScreenShelf
from servers import approvals, catalog, domain
from store.models import JsonObject, ProposalQuery
from store.protocol import OpenStore
from store.stores import open_store

T0 = datetime(2026, 12, 2, 8, 0, tzinfo=UTC)
ARGS: JsonObject = {"sku": "SKU-10232", "warehouse_id": "WH-01", "quantity": 202}


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data")


@pytest.fixture
def store(settings: Settings) -> Iterator[OpenStore]:
    with open_store(str(settings.resolved_db())) as opened:
        domain.seed(opened, *catalog.seed_data(), now=T0)
        yield opened


def kept(shelf: ScreenShelf, n: int, *, read_at: datetime) -> str:
    """A screenshot kept on the shelf, last read at `read_at`; its id."""
    data = b"\x89PNG\r\n\x1a\n" + bytes([n]) * 100
    sha = hashlib.sha256(data).hexdigest()
    shelf.keep(sha, data)
    path = shelf.path_of(sha)
    assert path is not None
    os.utime(path, (read_at.timestamp(), read_at.timestamp()))
    return sha


def logged_run(settings: Settings, run_id: str, *screens: str) -> None:
    record = RunRecord(
        id=run_id,
        task="order what is low",
        model="rules",
        groups=["inventory", "orders"],
        started_at=T0,
        attachments=[
            AttachmentInfo(name=f"shot-{k}.png", description="", sha256=sha)
            for k, sha in enumerate(screens)
        ],
    )
    append_run_log(settings.resolved_run_log(), record)


def propose(store: OpenStore, run_id: str | None, *, now: datetime = T0) -> None:
    approvals.propose(
        store,
        tool="orders_create_replenishment",
        arguments=ARGS,
        now=now,
        ttl=timedelta(days=60),
        run_id=run_id,
    )


def test_old_screenshots_go_but_the_one_a_pending_proposal_shows_stays(
    settings: Settings, store: OpenStore
) -> None:
    shelf = screen_shelf(settings)
    now = T0 + timedelta(days=40)
    shown = kept(shelf, 1, read_at=T0)
    forgotten = kept(shelf, 2, read_at=T0)
    recent = kept(shelf, 3, read_at=now - timedelta(days=1))
    logged_run(settings, "run-a", shown)
    propose(store, "run-a")

    tidied = tidy(settings, store, logged_screens(settings.resolved_run_log()), now=now)

    assert tidied.held is None and tidied.screens is not None
    assert tidied.screens.removed == (forgotten,)
    assert (shown in shelf, forgotten in shelf, recent in shelf) == (True, False, True)


def test_once_its_proposal_is_decided_a_screenshot_ages_out_like_any_other(
    settings: Settings, store: OpenStore
) -> None:
    shelf = screen_shelf(settings)
    shown = kept(shelf, 1, read_at=T0)
    logged_run(settings, "run-a", shown)
    propose(store, "run-a")
    (pending,) = approvals.list_proposals(store, ProposalQuery(status="pending"), now=T0)
    approvals.deny(store, pending.id, by="api:anna", now=T0, reason="not needed")

    tidy(settings, store, logged_screens(settings.resolved_run_log()), now=T0 + timedelta(days=40))

    assert shown not in shelf


def test_when_a_pending_proposals_run_cannot_be_found_no_screenshot_is_removed(
    settings: Settings, store: OpenStore
) -> None:
    shelf = screen_shelf(settings)
    old = kept(shelf, 1, read_at=T0)
    propose(store, "run-nowhere")

    tidied = tidy(
        settings, store, logged_screens(settings.resolved_run_log()), now=T0 + timedelta(days=40)
    )

    assert tidied.screens is None
    assert tidied.held is not None and "run-nowhere" in tidied.held
    assert old in shelf


def test_a_proposal_from_an_mcp_client_needs_no_screenshot(
    settings: Settings, store: OpenStore
) -> None:
    shelf = screen_shelf(settings)
    old = kept(shelf, 1, read_at=T0)
    propose(store, None)

    tidied = tidy(
        settings, store, logged_screens(settings.resolved_run_log()), now=T0 + timedelta(days=40)
    )

    assert tidied.screens is not None and tidied.screens.removed == (old,)
