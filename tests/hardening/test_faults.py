"""Faults: the model endpoint down, slow or talking garbage; a tool server killed mid-run; the
store locked by another writer. Every run ends with a record that says what failed, and the
store holds each write once or not at all."""

from __future__ import annotations

import os
import signal
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from pipeline.bootstrap import run_agent
from pipeline.host.attachments import from_ingest
from pipeline.host.loop import HostLimits, Run, run_task
from pipeline.host.record import RunRecord, read_run_log
from pipeline.host.toolbox import Toolbox, stdio_targets
from pipeline.models import IngestResult, Message, ModelResponse, ModelSettings, ToolSpec
from pipeline.settings import Settings
from pipeline.vlm.rules import RulesModel
from servers import domain
from store.models import OrderQuery
from store.sql import SqlStore
from store.stores import sqlite_store
from tests.hardening.conftest import FIGURES, GROUPS, TASK, memory_targets
from tests.hardening.endpoints import KINDS, Misbehaving, refused_url

CREATE = "orders_create_replenishment"


def settings_for(tmp_path: Path, db: Path, **overrides: Any) -> Settings:
    return Settings(
        data_dir=tmp_path / "data",
        db=db,
        timezone="Asia/Shanghai",
        vlm_retries=0,
        vlm_timeout_s=1.0,
        wall_clock_s=60.0,
        **overrides,
    )


def ledger(db: Path) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(orders as (sku, warehouse), audit entries as (action, outcome)) since the seed."""
    with sqlite_store(db) as store:
        orders = domain.list_orders(store, OrderQuery(limit=500)).orders
        audit = domain.audit_log(store, limit=500)
    entries = [(a.action, str(a.outcome)) for a in audit if a.action != "store seed"]
    return [(o.sku, o.warehouse_id) for o in orders], entries


def test_every_way_the_endpoint_fails_is_covered() -> None:
    assert set(WORDING) == {"refused", *KINDS}


def note(fault: str, record: RunRecord, db: Path) -> None:
    orders, audit = ledger(db)
    FIGURES[f"fault: {fault}"] = {
        "status": record.status,
        "final": record.final[:120],
        "orders": len(orders),
        "audit entries": len(audit),
    }


# ---- the model endpoint

# What the run's final message says, for each way the endpoint fails.
WORDING = {
    "refused": "cannot reach model endpoint",
    "hang": "did not answer within 1 s",
    "drop": "cannot reach model endpoint",
    "not-json": "answered with invalid JSON",
    "truncated-json": "answered with invalid JSON",
    "no-choices": "answered without choices",
    "empty-choices": "answered without choices",
    "not-an-object": "answered with a non-object",
    "calls-not-a-list": "tool_calls that are not a list",
    "http-500": "returned HTTP 500",
    "http-503": "returned HTTP 503",
}


@pytest.mark.parametrize("kind", list(WORDING))
async def test_a_model_endpoint_that_fails_ends_the_run_with_an_error_and_writes_nothing(
    kind: str, tmp_path: Path, db: Path, store: SqlStore, screenshot: IngestResult
) -> None:
    settings = settings_for(tmp_path, db)
    started = time.perf_counter()
    if kind == "refused":
        record = await run_agent(
            settings,
            task=TASK,
            results=[screenshot],
            model_spec="openai:local",
            base_url=refused_url(),
            targets=memory_targets(store),
        )
    else:
        async with Misbehaving(kind) as endpoint:
            record = await run_agent(
                settings,
                task=TASK,
                results=[screenshot],
                model_spec="openai:local",
                base_url=endpoint.url,
                targets=memory_targets(store),
            )
        assert endpoint.requests == 1
    spent = time.perf_counter() - started
    assert record.status == "error"
    assert record.final.startswith("the model endpoint failed: ")
    assert "/chat/completions" in record.final
    assert WORDING[kind] in record.final, record.final
    assert spent < settings.vlm_timeout_s + 10
    assert ledger(db) == ([], [])
    assert [r.id for r in read_run_log(settings.resolved_run_log())] == [record.id]
    note(f"model endpoint {kind}", record, db)


# ---- a tool server process killed mid-run


def children_running(*words: str) -> list[int]:
    """Pids of this process's children whose command line holds every word (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text(encoding="ascii", errors="replace")
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == os.getpid() and all(w.encode() in cmdline for w in words):
            found.append(int(entry.name))
    return found


def kill_orders_server() -> None:
    (pid,) = children_running("servers", "orders")
    os.kill(pid, signal.SIGKILL)


class KillBefore:
    """The rules model, killing the orders server just before its `hop`-th answer."""

    name = "rules"

    def __init__(self, hop: int) -> None:
        self.inner = RulesModel()
        self.hop = hop
        self.requests = 0

    async def request(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], settings: ModelSettings
    ) -> ModelResponse:
        self.requests += 1
        if self.requests == self.hop:
            kill_orders_server()
        return await self.inner.request(messages, tools, settings)


async def run_over_stdio(
    db: Path,
    screenshot: IngestResult,
    model: Any,
    on_event: Callable[[dict[str, Any]], None] | None = None,
) -> RunRecord:
    env = {**os.environ, "STOCKSHOT_DB": str(db), "STOCKSHOT_APPROVAL": "auto"}
    async with Toolbox(stdio_targets(GROUPS, env)) as toolbox:
        return await run_task(
            Run(
                task=TASK,
                model=model,
                toolbox=toolbox,
                groups=GROUPS,
                attachments=from_ingest([screenshot]),
                limits=HostLimits(wall_clock_s=60.0),
                on_event=on_event,
            )
        )


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")


@needs_proc
async def test_an_orders_server_killed_between_hops_ends_the_run_naming_it_and_nothing_is_written(
    db: Path, screenshot: IngestResult
) -> None:
    # Hop 1 reads live stock, hop 2 would create the orders.
    started = time.perf_counter()
    record = await run_over_stdio(db, screenshot, KillBefore(hop=2))
    spent = time.perf_counter() - started
    assert record.status == "error"
    assert "orders tool server" in record.final
    assert spent < 30
    calls = [c for c in record.tool_calls if c.name == CREATE]
    assert len(calls) <= 1 and all(c.is_error for c in calls)
    assert ledger(db) == ([], [])
    note("orders server killed between hops", record, db)


@needs_proc
async def test_an_orders_server_killed_after_the_first_write_keeps_that_write_once(
    db: Path, screenshot: IngestResult
) -> None:
    written: list[str] = []

    def kill_after_first_write(event: dict[str, Any]) -> None:
        if event["type"] == "tool_call" and event["name"] == CREATE and not written:
            written.append(event["arguments"]["sku"])
            kill_orders_server()

    record = await run_over_stdio(db, screenshot, RulesModel(), on_event=kill_after_first_write)
    assert record.status == "error"
    assert "orders tool server" in record.final
    orders, audit = ledger(db)
    assert [sku for sku, _ in orders] == written
    assert audit == [(CREATE, "accepted")]
    note("orders server killed after the first write", record, db)


# ---- the store locked by another writer


async def test_a_store_locked_by_another_writer_is_retried_then_reported_busy_and_nothing_is_half_written(
    tmp_path: Path, db: Path, screenshot: IngestResult
) -> None:
    busy_s = 0.3
    with sqlite_store(db, busy_timeout_s=busy_s) as store:
        blocker = sqlite3.connect(db, isolation_level=None)
        try:
            blocker.execute("BEGIN IMMEDIATE")
            started = time.perf_counter()
            record = await run_agent(
                settings_for(tmp_path, db),
                task=TASK,
                results=[screenshot],
                targets=memory_targets(store),
            )
            spent = time.perf_counter() - started
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
    creates = [c for c in record.tool_calls if c.name == CREATE]
    assert creates, "the run never tried to write"
    for call in creates:
        assert call.is_error
        assert "store is busy" in call.result, call.result
    assert spent < len(creates) * busy_s + 15
    assert ledger(db) == ([], [])
    note("store locked by another writer", record, db)

    with sqlite_store(db) as store:
        again = await run_agent(
            settings_for(tmp_path, db),
            task=TASK,
            results=[screenshot],
            targets=memory_targets(store),
        )
    assert len(ledger(db)[0]) == 5, again.final
