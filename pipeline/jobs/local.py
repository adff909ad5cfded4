"""Jobs in this process (the embedded SQLite setup): ingest on a worker-thread pool, runs as
asyncio tasks of the API, events kept in memory and finished records in the run log."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence

from pipeline.host import RunRecord
from pipeline.jobs.ingesting import IngestService
from pipeline.jobs.runbook import FINISHED, Numbered, RunBook, RunState
from pipeline.jobs.spec import EventSink, IngestAsk, Runner, RunSpec
from pipeline.models import IngestResult

__all__ = ["LocalJobs"]


class LocalJobs:
    name = "in-process"

    def __init__(self, ingest: IngestService, runs: RunBook, execute: Runner) -> None:
        self._ingest = ingest
        self._runs = runs
        self._execute = execute

    @property
    def engine(self) -> str:
        return self._ingest.ingestor.engine.name

    async def ingest(self, ask: IngestAsk) -> IngestResult:
        return await self._ingest.ingest(ask)

    async def recent(self, ids: Sequence[str]) -> list[IngestResult]:
        return self._ingest.recent(ids)

    async def start_run(self, spec: RunSpec) -> tuple[str, str]:
        state = RunState(
            task=spec.task, model=spec.model, dry_run=spec.dry_run, started_at=spec.started_at
        )

        async def start(sink: EventSink) -> RunRecord:
            return await self._execute(spec, sink)

        await self._runs.start(state, start)
        assert state.id is not None
        return state.id, state.record.status if state.record is not None else "running"

    async def record(self, run_id: str) -> RunRecord | None:
        state = self._runs.get(run_id)
        if state is not None:
            return state.view()
        return await asyncio.to_thread(self._runs.logged, run_id)

    async def history(self, *, limit: int) -> list[RunRecord]:
        return await asyncio.to_thread(self._runs.recent, limit)

    async def events(self, run_id: str, *, after: int) -> AsyncIterator[Numbered] | None:
        state = self._runs.get(run_id)
        if state is None:
            record = await asyncio.to_thread(self._runs.logged, run_id)
            if record is None:
                return None
            state = RunState(
                task=record.task,
                model=record.model,
                dry_run=record.dry_run,
                started_at=record.started_at,
            )
            state.id = record.id
            state.record = record
            state.add(
                {
                    "run_id": record.id,
                    "type": FINISHED,
                    "status": record.status,
                    "final": record.final,
                    "final_by": record.final_by,
                }
            )
        return state.follow(after=after)

    async def close(self) -> None:
        await self._runs.close()
