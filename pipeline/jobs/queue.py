"""Jobs queued in PostgreSQL for worker processes: the API side.

An upload whose analysis is cached (this process's LRU, then the shared table) is answered
here at once. Otherwise its bytes go to `stockshot_uploads` and one ingest job per cache key
is queued, under a queueing lock and a lock on that key, so bytes sent to several API
instances at the same moment are analysed once, by one worker. The request waits for the
worker's notice, then reads the result from the cache. A run is a row in `stockshot_runs`
plus a job; its record and events are read back from the tables by whichever instance is
asked.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Sequence
from datetime import datetime

from procrastinate import App
from procrastinate.exceptions import AlreadyEnqueued

from pipeline.errors import InputError, ToolServerError
from pipeline.host import RunRecord
from pipeline.ingest import Ingestor
from pipeline.jobs.ingesting import RecentResults, check_upload, sha256_of
from pipeline.jobs.runbook import FINISHED, Numbered, RunState
from pipeline.jobs.shared import Listener, RunRow, Shared, wait_for
from pipeline.jobs.spec import IngestAsk, RunSpec
from pipeline.jobs.tasks import INGEST_TASK, RUN_TASK
from pipeline.models import IngestResult

__all__ = ["QueueJobs"]

_RECHECK_S = 2.0
"""A waiter looks again this often even without a notice."""


class QueueJobs:
    name = "postgresql queue"

    def __init__(
        self,
        ingestor: Ingestor,
        shared: Shared,
        app: App,
        listener: Listener,
        *,
        wait_s: float = 300.0,
        keep: int = 256,
    ) -> None:
        self.ingestor = ingestor
        self._shared = shared
        self._app = app
        self._listener = listener
        self._wait_s = wait_s
        self._recent = RecentResults(keep)

    @property
    def engine(self) -> str:
        return self.ingestor.engine.name

    async def ingest(self, ask: IngestAsk) -> IngestResult:
        check_upload(ask, max_bytes=self.ingestor.config.max_bytes)
        data, name, caller_time = ask.data, ask.name, ask.caller_time
        requested = ask.strategy or self.ingestor.config.strategy
        if len(data) > self.ingestor.config.max_bytes:
            return await self._read(data, name, caller_time, requested)  # refused with why
        started = time.perf_counter()
        digest = await asyncio.to_thread(sha256_of, data)
        key = self.ingestor.cache_key(digest, requested)
        if await asyncio.to_thread(self.ingestor.cached, digest, strategy=requested):
            return await self._read(data, name, caller_time, requested)
        await self._analysed(key, digest, requested, name, data)
        result = await self._read(data, name, caller_time, requested)
        # Analysed for this request (by a worker): a miss, timed from the upload.
        waited = round((time.perf_counter() - started) * 1000, 2)
        return result.model_copy(update={"cache": "miss", "timings_ms": {"total": waited}})

    async def _read(
        self, data: bytes, name: str, caller_time: datetime | None, strategy: str
    ) -> IngestResult:
        result = await asyncio.to_thread(
            self.ingestor.ingest_bytes, data, name=name, caller_time=caller_time, strategy=strategy
        )
        self._recent.add(result)
        await asyncio.to_thread(self._shared.remember_result, result)
        return result

    async def _analysed(self, key: str, digest: str, strategy: str, name: str, data: bytes) -> None:
        """Queue the analysis of `data` (unless one is queued) and wait until a worker has
        cached it; a worker's refusal is raised here as the error it raised."""
        with self._listener.waiting(f"ingest:{key}") as notice:
            await asyncio.to_thread(self._shared.forget_error, key)
            await asyncio.to_thread(self._shared.put_upload, key, data)
            await self._queue_ingest(key, digest, strategy, name)
            deadline = time.monotonic() + self._wait_s
            while True:
                if await asyncio.to_thread(self.ingestor.cached, digest, strategy=strategy):
                    return
                error = await asyncio.to_thread(self._shared.ingest_error, key)
                if error is not None:
                    raise error
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ToolServerError(
                        f"{name}: no worker analysed it within {self._wait_s:g} s; check that "
                        "`stockshot worker` processes are running on this database "
                        "(the job stays queued and a later upload of it is answered at once)"
                    )
                await wait_for(notice, min(_RECHECK_S, left))

    async def _queue_ingest(self, key: str, digest: str, strategy: str, name: str) -> None:
        deferrer = self._app.configure_task(
            INGEST_TASK, queue="ingest", lock=key, queueing_lock=key
        )
        # AlreadyEnqueued: the same bytes are queued already; wait for that job.
        with contextlib.suppress(AlreadyEnqueued):
            await deferrer.defer_async(key=key, sha256=digest, strategy=strategy, name=name)

    async def recent(self, ids: Sequence[str]) -> list[IngestResult]:
        found = {i: r for i in ids if (r := self._recent.get(i)) is not None}
        missing = [i for i in ids if i not in found]
        if missing:
            found.update(await asyncio.to_thread(self._shared.results, missing))
        unknown = [i for i in ids if i not in found]
        if unknown:
            raise InputError(
                f"ingest_ids: unknown {', '.join(repr(i) for i in unknown)}; upload the image "
                "with POST /v1/ingest first or send it with this request"
            )
        return [found[i] for i in ids]

    async def start_run(self, spec: RunSpec) -> tuple[str, str]:
        await asyncio.to_thread(self._shared.add_run, spec.id, spec.model_dump(mode="json"))
        await self._app.configure_task(RUN_TASK, queue="runs", lock=spec.id).defer_async(
            run_id=spec.id
        )
        return spec.id, "queued"

    async def history(self, *, limit: int) -> list[RunRecord]:
        rows = await asyncio.to_thread(self._shared.runs, limit)
        found = [await self._view(row) for row in rows]
        return [record for record in found if record is not None]

    async def record(self, run_id: str) -> RunRecord | None:
        row = await asyncio.to_thread(self._shared.run, run_id)
        if row is None:
            return None
        return await self._view(row)

    async def _view(self, row: RunRow) -> RunRecord | None:
        run_id = row.id
        if row.record is not None:
            return RunRecord.model_validate(row.record)
        spec = RunSpec.model_validate(row.spec)
        state = RunState(
            task=spec.task, model=spec.model, dry_run=spec.dry_run, started_at=spec.started_at
        )
        state.id = run_id
        for _, event in await asyncio.to_thread(self._shared.events, run_id, after=-1):
            state.add(event)
        view = state.view()
        return view if row.status != "queued" else view.model_copy(update={"status": "queued"})

    async def events(self, run_id: str, *, after: int) -> AsyncIterator[Numbered] | None:
        if await asyncio.to_thread(self._shared.run, run_id) is None:
            return None
        return self._follow(run_id, after)

    async def _follow(self, run_id: str, after: int) -> AsyncIterator[Numbered]:
        last = after
        with self._listener.waiting(f"run:{run_id}") as notice:
            while True:
                events: list[Numbered] = await asyncio.to_thread(
                    self._shared.events, run_id, after=last
                )
                for seq, event in events:
                    yield seq, event
                    last = seq
                    if event.get("type") == FINISHED:
                        return
                await wait_for(notice, _RECHECK_S)

    async def close(self) -> None:
        """The app, the listener and the shared pool are closed by whoever opened them."""
