"""Jobs: ingesting screenshots and executing runs, behind one interface the API uses.

    JOBS = {"sqlite": in this process, "postgresql": queued for `stockshot worker` processes}

The store's URL picks the kind. With SQLite everything runs inside the API process, as the
embedded default always has. With PostgreSQL, `POST /v1/ingest` and `POST /v1/runs` queue
jobs (Procrastinate, in the same database: LISTEN/NOTIFY and `SKIP LOCKED`, no broker);
worker processes do the OCR and execute the runs, and every API instance answers for every
run from the shared tables (`pipeline.jobs.shared`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Protocol

from pipeline.host import RunRecord
from pipeline.jobs.runbook import Numbered
from pipeline.jobs.spec import IngestAsk, RunSpec
from pipeline.models import IngestResult

__all__ = ["IngestAsk", "Jobs", "RunSpec"]


class Jobs(Protocol):
    name: str

    @property
    def engine(self) -> str:
        """The OCR engine the ingest jobs read with."""
        ...

    async def ingest(self, ask: IngestAsk) -> IngestResult:
        """One upload read; the same bytes are analysed once, wherever they were sent."""
        ...

    async def recent(self, ids: Sequence[str]) -> list[IngestResult]:
        """Results of earlier uploads by id, in the order asked; unknown ids are refused."""
        ...

    async def start_run(self, spec: RunSpec) -> tuple[str, str]:
        """Start (or queue) a run; its id and status once it has one."""
        ...

    async def record(self, run_id: str) -> RunRecord | None:
        """The finished record, or what happened so far; None for an unknown id."""
        ...

    async def history(self, *, limit: int) -> list[RunRecord]:
        """The latest runs, newest first: running and queued ones as they stand, finished
        ones as recorded (also those of an earlier process)."""
        ...

    async def events(self, run_id: str, *, after: int) -> AsyncIterator[Numbered] | None:
        """The run's events numbered above `after`, then live ones until `run_finished`;
        None for an unknown id."""
        ...

    async def close(self) -> None: ...
