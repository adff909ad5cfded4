"""The agent host: its own overhead per hop, and a whole `rules` replenishment run over stdio.

Both run the embedded `rules` model on the table the pipeline read from the headline sample,
against a freshly seeded demo store per run (a run raises orders, so a second run on the same
store would do less). Host time is what the run took minus model time minus tool time.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from pipeline.contract import parse_task
from pipeline.host import (
    CALL_GUARDS,
    RESPONSE_GUARDS,
    HostLimits,
    MemoryTarget,
    Run,
    RunRecord,
    Target,
    Toolbox,
    choose_groups,
    from_ingest,
    run_task,
    stdio_targets,
)
from pipeline.models import IngestResult
from pipeline.vlm.rules import RulesModel
from servers import catalog, domain
from servers.factory import build_server
from store.stores import open_store

__all__ = ["TASK", "HostRuns", "StdioRuns", "measure_host", "measure_stdio"]

TASK = "find the SKUs that are low and raise replenishment orders"


@dataclass
class _Runs:
    """What every timed run keeps of its record: the hops, the tool calls and the status."""

    hops: list[int] = field(default_factory=list)
    tool_calls: list[int] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)

    def count(self, record: RunRecord) -> None:
        self.hops.append(record.hops)
        self.tool_calls.append(len(record.tool_calls))
        self.statuses.append(record.status)


@dataclass
class HostRuns(_Runs):
    per_hop_ms: list[float] = field(default_factory=list)
    host_ms: list[float] = field(default_factory=list)
    total_ms: list[float] = field(default_factory=list)


@dataclass
class StdioRuns(_Runs):
    spawn_and_run_ms: list[float] = field(default_factory=list)
    run_ms: list[float] = field(default_factory=list)
    error: str | None = None


def _seed(db: Path) -> None:
    with open_store(str(db)) as store:
        domain.seed(store, *catalog.seed_data(), now=datetime.now(UTC))


async def _run(toolbox: Toolbox, results: Sequence[IngestResult]) -> RunRecord:
    return await run_task(
        Run(
            task=TASK,
            model=RulesModel(),
            toolbox=toolbox,
            groups=choose_groups(parse_task(TASK)),
            attachments=from_ingest(results),
            limits=HostLimits(),
            response_guards=RESPONSE_GUARDS,
            call_guards=CALL_GUARDS,
            clock=lambda: datetime.now(UTC),
        )
    )


async def _memory_runs(
    scratch: Path, results: Sequence[IngestResult], rounds: int
) -> list[RunRecord]:
    records = []
    for r in range(rounds + 1):
        db = scratch / f"host-memory-{r}.db"
        _seed(db)
        with open_store(str(db)) as store:
            targets: list[Target] = [
                MemoryTarget(g, build_server(g, store)) for g in choose_groups(parse_task(TASK))
            ]
            async with Toolbox(targets) as toolbox:
                record = await _run(toolbox, results)
        if r:
            records.append(record)
    return records


def measure_host(scratch: Path, results: Sequence[IngestResult], rounds: int) -> HostRuns:
    """`rounds` runs over in-memory servers after one warm-up run."""
    runs = HostRuns()
    for record in asyncio.run(_memory_runs(scratch, results, rounds)):
        hops = max(1, record.hops)
        runs.per_hop_ms.append(record.timings_ms["host"] / hops)
        runs.host_ms.append(record.timings_ms["host"])
        runs.total_ms.append(record.timings_ms["total"])
        runs.count(record)
    return runs


async def _stdio_runs(
    scratch: Path, results: Sequence[IngestResult], rounds: int, warm_up: bool
) -> StdioRuns:
    runs = StdioRuns()
    for r in range(0 if warm_up else 1, rounds + 1):
        db = scratch / f"host-stdio-{r}.db"
        _seed(db)
        env = {**os.environ, "STOCKSHOT_DATABASE_URL": str(db)}
        started = time.perf_counter()
        async with Toolbox(stdio_targets(choose_groups(parse_task(TASK)), env)) as toolbox:
            record = await _run(toolbox, results)
        whole = (time.perf_counter() - started) * 1000
        if r:
            runs.spawn_and_run_ms.append(whole)
            runs.run_ms.append(record.timings_ms["total"])
            runs.count(record)
    return runs


def measure_stdio(
    scratch: Path, results: Sequence[IngestResult], rounds: int, *, warm_up: bool = True
) -> StdioRuns:
    """A warm-up run (it fills the OS file cache for the server processes), then `rounds`."""
    try:
        return asyncio.run(_stdio_runs(scratch, results, rounds, warm_up))
    except Exception as exc:
        return StdioRuns(error=f"{type(exc).__name__}: {exc}")
