"""`stockshot worker`: a process that takes ingest and run jobs from the PostgreSQL queue.

Each worker process holds its own OCR engine (loaded once), the three tool servers on the
shared store (reached in memory, as the API does), and a pool on the database. Ingest jobs
run their OCR on a thread of this process; run jobs are asyncio tasks of its loop. Workers
send a heartbeat; one silent for three heartbeats is taken as dead, and any live worker puts
its unfinished jobs back in the queue. A retried run starts again under the same id: orders
it already made come back under their run keys, proposals it already queued come back as
they are, so nothing is done twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import timedelta

from procrastinate import App, JobContext, RetryStrategy

from pipeline.bootstrap import build_ingestor, open_store, run_agent, utc_now
from pipeline.errors import ConfigError, InputError, StockshotError
from pipeline.host import MemoryTarget, RunRecord, Target
from pipeline.ingest import Ingestor
from pipeline.jobs.execute import runner
from pipeline.jobs.runbook import FINISHED, RunState, finished_event
from pipeline.jobs.shared import (
    PostgresLevel,
    Shared,
    asked_to_stop,
    sharing_cache,
    stop,
    stored_screens,
)
from pipeline.jobs.spec import Runner, RunSpec
from pipeline.jobs.tasks import INGEST_TASK, QUEUES, RUN_TASK, queue_app
from pipeline.models import RunEvent
from pipeline.profiles import StoreProfiles
from pipeline.retention import either, logged_screens, tidying
from pipeline.settings import Settings
from pipeline.webhooks import delivering
from servers.factory import GROUPS, build_server
from servers.settings import DEFAULT_MAX_ORDER_QUANTITY
from store.protocol import Store
from store.stores import store_scheme

__all__ = ["WorkerParts", "ingest_one", "register", "run_one", "serve_worker", "worker_parts"]

log = logging.getLogger(__name__)

_DONE = ("done", "limit", "error")


@dataclass
class WorkerParts:
    settings: Settings
    shared: Shared
    ingestor: Ingestor
    store: Store
    execute: Runner


@contextlib.contextmanager
def worker_parts(
    settings: Settings,
    *,
    max_order_quantity: int = DEFAULT_MAX_ORDER_QUANTITY,
    ingestor: Ingestor | None = None,
) -> Iterator[WorkerParts]:
    """Open what a worker needs from the settings; closed when the block ends. An `ingestor`
    lends its loaded engine (its cache is replaced by the shared one)."""
    url = settings.store_url()
    if store_scheme(url) != "postgresql":
        raise ConfigError(
            "stockshot worker takes jobs from a PostgreSQL queue: set STOCKSHOT_DATABASE_URL "
            "to a postgresql:// URL. With the SQLite store, `stockshot serve` runs every job "
            "in its own process and needs no worker"
        )
    with contextlib.ExitStack() as stack:
        shared = Shared(url)
        stack.callback(shared.close)
        store = open_store(settings)
        stack.callback(store.close)
        ingestor = (
            build_ingestor(settings, cache_level=PostgresLevel(shared))
            if ingestor is None
            else sharing_cache(ingestor, shared, memory_items=settings.memory_cache_items)
        )
        if ingestor.profiles is None:
            ingestor.profiles = StoreProfiles(store, clock=utc_now)
        ingestor.warm()  # before the first job, not during it
        # A queued run says whether its writes wait for approval (the API that queued it
        # decided); its tool servers hold writes or not to match.
        ttl = timedelta(seconds=settings.approval_ttl_s)
        targets: dict[bool, list[Target]] = {
            manual: [
                MemoryTarget(
                    g,
                    build_server(
                        g,
                        store,
                        max_order_quantity=max_order_quantity,
                        approval="manual" if manual else "auto",
                        approval_ttl=ttl,
                    ),
                )
                for g in GROUPS
            ]
            for manual in (False, True)
        }
        execute = runner(
            settings, store=store, targets=targets.__getitem__, run=run_agent, log_run=False
        )
        yield WorkerParts(settings, shared, ingestor, store, execute)


def ingest_one(parts: WorkerParts, *, key: str, sha256: str, strategy: str, name: str) -> None:
    """Analyse the upload under `key` into the shared cache, or record why it cannot be."""
    ingestor = parts.ingestor
    if ingestor.cache_key(sha256, strategy) != key:
        parts.shared.ingest_done(
            key,
            ConfigError(
                f"{name}: this worker reads with other model files or another version of "
                "stockshot than the API that queued it; run the same version and models "
                "on every machine"
            ),
        )
        return
    if ingestor.cached(sha256, strategy=strategy):
        parts.shared.ingest_done(key)
        return
    data = parts.shared.upload(key)
    if data is None:
        parts.shared.ingest_done(
            key, InputError(f"{name}: its bytes were gone before a worker read them; send it again")
        )
        return
    try:
        ingestor.ingest_bytes(data, name=name, strategy=strategy)
    except StockshotError as exc:
        parts.shared.ingest_done(key, exc)
        return
    parts.shared.ingest_done(key)


class _EventWriter:
    """Numbers each event as it comes and writes them in order, in batches, off the loop."""

    def __init__(self, shared: Shared, run_id: str, first: int) -> None:
        self._shared = shared
        self._run_id = run_id
        self.next = first
        self._pending: list[RunEvent] = []
        self._start = first
        self._wake = asyncio.Event()
        self._closing = False
        self._task = asyncio.create_task(self._drain())

    def add(self, event: RunEvent) -> None:
        self._pending.append(event)
        self.next += 1
        self._wake.set()

    async def _drain(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._pending = self._pending, []
            first, self._start = self._start, self._start + len(batch)
            await asyncio.to_thread(self._shared.add_events, self._run_id, first, batch)
            if self._closing and not self._pending:
                return

    async def close(self) -> None:
        self._closing = True
        self._wake.set()
        await self._task


async def run_one(parts: WorkerParts, run_id: str) -> None:
    """Execute the queued run `run_id`; its events and record go to the shared tables."""
    shared = parts.shared
    row = await asyncio.to_thread(shared.run, run_id)
    if row is None:
        log.warning("run job for %s: no such run (removed?); skipped", run_id)
        return
    if row.status in _DONE:
        return  # finished, then its worker died before the job was marked done
    attempt, first = await asyncio.to_thread(shared.begin_attempt, run_id)
    spec = RunSpec.model_validate(row.spec)
    writer = _EventWriter(shared, run_id, first)
    if attempt > 1:
        writer.add(
            {
                "run_id": run_id,
                "type": "run_retried",
                "attempt": attempt,
                "message": "the worker executing this run stopped; it starts again under "
                "the same id (orders it made come back, none is made twice)",
            }
        )
    state = RunState(
        task=spec.task, model=spec.model, dry_run=spec.dry_run, started_at=spec.started_at
    )
    state.id = run_id

    def sink(event: RunEvent) -> None:
        if event.get("type") != FINISHED:  # published once the record is kept
            state.add(event)
            writer.add(event)

    record: RunRecord
    try:
        record = await parts.execute(spec, sink)
    except StockshotError as exc:
        record = _failed(state, str(exc))
    except Exception as exc:
        log.exception("run %s failed", run_id)
        record = _failed(state, f"the run failed: {type(exc).__name__}: {exc}")
    await writer.close()
    await asyncio.to_thread(
        shared.finish_run,
        run_id,
        record.model_dump(mode="json"),
        record.status,
        finished_event(run_id, record),
        writer.next,
    )


def _failed(state: RunState, message: str) -> RunRecord:
    return state.view().model_copy(
        update={
            "status": "error",
            "final": message,
            "final_by": "host",
            "error": message,
            "ended_at": utc_now(),
        }
    )


def register(app: App, parts: WorkerParts) -> None:
    """The worker's tasks on `app`, bound to this process's parts."""

    @app.task(name=INGEST_TASK, queue="ingest", retry=RetryStrategy(max_attempts=3, wait=2))
    async def ingest_job(key: str, sha256: str, strategy: str, name: str) -> None:
        await asyncio.to_thread(
            ingest_one, parts, key=key, sha256=sha256, strategy=strategy, name=name
        )

    @app.task(name=RUN_TASK, queue="runs", pass_context=True)
    async def run_job(context: JobContext, run_id: str) -> None:
        await run_one(parts, run_id)


async def _retry_stalled(app: App, every_s: float, stalled_s: float) -> None:
    """Put the jobs of workers silent for `stalled_s` back in the queue, every `every_s`,
    until cancelled."""
    while not asked_to_stop():
        await asyncio.sleep(every_s)
        try:
            stalled = await app.job_manager.get_stalled_jobs(seconds_since_heartbeat=stalled_s)
        except Exception as exc:
            log.warning("looking for stalled jobs failed: %s", exc)
            continue
        for job in stalled:
            try:
                await app.job_manager.retry_job(job)
            except Exception as exc:  # another worker retried it first
                log.debug("retrying job %s: %s", job.id, exc)
            else:
                log.warning(
                    "job %s (%s) of a worker silent for %.0f s is queued again",
                    job.id, job.task_name, stalled_s,
                )  # fmt: skip


async def serve_worker(
    settings: Settings,
    *,
    concurrency: int = 1,
    queues: Sequence[str] = QUEUES,
    install_signal_handlers: bool = True,
    ingestor: Ingestor | None = None,
) -> None:
    """Take jobs until stopped (SIGINT/SIGTERM finish the jobs in hand first; a cancelled
    task stops at once). `ingestor` lends a loaded engine (see `worker_parts`)."""
    unknown = [q for q in queues if q not in QUEUES]
    if unknown:
        raise InputError(f"unknown queue {', '.join(unknown)}; known: {', '.join(QUEUES)}")
    from servers.errors import InputError as ServerSettingsError
    from servers.settings import load_settings

    try:
        max_order_quantity = load_settings().max_order_quantity
    except ServerSettingsError as exc:
        raise ConfigError(str(exc)) from exc
    with worker_parts(settings, max_order_quantity=max_order_quantity, ingestor=ingestor) as parts:
        app = queue_app(settings.store_url(), max_connections=concurrency + 4)
        register(app, parts)
        heartbeat = settings.worker_heartbeat_s
        async with contextlib.AsyncExitStack() as webhooks, app.open_async():
            if settings.webhook_urls:
                # Workers deliver the webhooks too; a claimed delivery is one process's.
                await webhooks.enter_async_context(delivering(settings, parts.store))
            runs = either(
                stored_screens(settings.store_url()), logged_screens(settings.resolved_run_log())
            )
            await webhooks.enter_async_context(tidying(settings, parts.store, runs, clock=utc_now))
            watcher = asyncio.create_task(_retry_stalled(app, heartbeat, heartbeat * 3))
            try:
                log.info("worker taking %s jobs, %d at a time", ", ".join(queues), concurrency)
                await app.run_worker_async(
                    queues=list(queues),
                    concurrency=concurrency,
                    update_heartbeat_interval=heartbeat,
                    stalled_worker_timeout=heartbeat * 3,
                    delete_jobs="successful",
                    install_signal_handlers=install_signal_handlers,
                )
            finally:
                await stop(watcher)
