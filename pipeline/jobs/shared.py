"""What the processes of a PostgreSQL deployment share, in that database, in the pipeline's
terms: the tables and every statement on them are the store's (`store.jobs`); this adapter
turns ingest results, errors and run events into what those tables keep and back.

- the ingest cache's shared level, behind each process's LRU (`PostgresLevel`);
- an upload's bytes waiting for a worker, and why bytes could not be analysed (the error
  comes back as the class the worker raised);
- the latest result of each upload by its id, for runs that name it;
- each run's request, status and record, and its numbered events.

Workers announce what they finished on the store's channel (`ingest:<key>`, `run:<id>`);
`Listener` wakes whoever waits for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import cast

import psycopg

from pipeline.errors import ConfigError, StockshotError
from pipeline.ingest import Entry, IngestCache, Ingestor
from pipeline.models import CacheState, IngestResult, JsonObject, RunEvent
from store.errors import StoreError
from store.jobs import JobTables, RunRow, listen, run_inputs
from store.stores import describe_url, open_store

__all__ = [
    "Listener",
    "PostgresLevel",
    "RunRow",
    "Shared",
    "asked_to_stop",
    "error_named",
    "sharing_cache",
    "stop",
    "stored_screens",
]

log = logging.getLogger(__name__)


def error_named(kind: str, message: str) -> StockshotError:
    """The error a worker recorded, as the class it raised (any `StockshotError`)."""
    classes: dict[str, type[StockshotError]] = {}
    pending: list[type[StockshotError]] = [StockshotError]
    while pending:
        cls = pending.pop()
        classes[cls.__name__] = cls
        pending.extend(cls.__subclasses__())
    cls = classes.get(kind, StockshotError)
    try:
        return cls(message)
    except TypeError:  # a subclass with its own arguments
        return StockshotError(message)


class Shared:
    """The shared tables in the pipeline's terms; every method is one short transaction."""

    def __init__(self, url: str, *, max_connections: int = 8) -> None:
        self.url = url
        try:
            # The store's schema history creates these tables too (revision 0005).
            open_store(url).close()
        except StoreError as exc:
            raise ConfigError(f"cannot reach the job database: {exc}".strip()) from exc
        self.tables = JobTables(url, where=describe_url(url), max_connections=max_connections)

    def close(self) -> None:
        self.tables.close()

    # ingest
    def put_upload(self, key: str, data: bytes) -> None:
        self.tables.put_upload(key, data)

    def upload(self, key: str) -> bytes | None:
        return self.tables.upload(key)

    def ingest_done(self, key: str, error: StockshotError | None = None) -> None:
        """The analysis under `key` is cached, or failed with `error`: drop the upload, keep
        the error, and wake whoever waits for it."""
        kept = None if error is None else (type(error).__name__, str(error))
        self.tables.ingest_done(key, kept)

    def ingest_error(self, key: str) -> StockshotError | None:
        found = self.tables.ingest_error(key)
        return None if found is None else error_named(*found)

    def forget_error(self, key: str) -> None:
        self.tables.forget_error(key)

    def remember_result(self, result: IngestResult) -> None:
        self.tables.remember_result(result.sha256, result.model_dump(mode="json"))

    def results(self, ids: Sequence[str]) -> dict[str, IngestResult]:
        found = self.tables.results(ids)
        return {sha256: IngestResult.model_validate(kept) for sha256, kept in found.items()}

    # runs
    def add_run(self, run_id: str, spec: JsonObject) -> None:
        self.tables.add_run(run_id, spec)

    def run(self, run_id: str) -> RunRow | None:
        return self.tables.run(run_id)

    def runs(self, limit: int) -> list[RunRow]:
        """The latest runs, newest first."""
        return self.tables.runs(limit)

    def begin_attempt(self, run_id: str) -> tuple[int, int]:
        """Mark the run running; its attempt number (1 first) and the next event number."""
        return self.tables.begin_attempt(run_id)

    def add_events(self, run_id: str, first: int, events: Sequence[RunEvent]) -> None:
        self.tables.add_events(run_id, first, events)

    def finish_run(
        self, run_id: str, record: JsonObject, status: str, finished: RunEvent, seq: int
    ) -> None:
        """Keep the record, then publish `run_finished`, in one transaction: whoever sees the
        event can read the record."""
        self.tables.finish_run(run_id, record, status, finished, seq)

    def events(self, run_id: str, *, after: int) -> list[tuple[int, RunEvent]]:
        return self.tables.events(run_id, after=after)


def stored_screens(url: str) -> Callable[[Collection[str]], dict[str, list[str]]]:
    """The screenshots (ingest ids) each run of `stockshot_runs` read, by run id: from its
    record once finished, else from what it was asked to read."""

    def screens(run_ids: Collection[str]) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for run_id, (attachments, results) in run_inputs(url, run_ids).items():
            named = [*(attachments if isinstance(attachments, list) else [])]
            named += results if isinstance(results, list) else []
            found[run_id] = [
                sha
                for item in named
                if isinstance(item, dict) and isinstance(sha := item.get("sha256"), str) and sha
            ]
        return found

    return screens


class PostgresLevel:
    """The ingest cache's shared level: one table every API instance and worker reads."""

    state: CacheState = "database"

    def __init__(self, shared: Shared) -> None:
        self._shared = shared

    def get(self, key: str) -> Entry | None:
        found = self._shared.tables.cached(key)
        if found is None:
            return None
        entry = json.loads(found)
        return cast(Entry, entry) if isinstance(entry, dict) else None  # as `put` kept it

    def set(self, key: str, entry: Entry) -> None:
        data = json.dumps(entry, ensure_ascii=False, separators=(",", ":")).encode()
        self._shared.tables.cache(key, data)

    def close(self) -> None:
        """The pool is the `Shared` object's to close."""


def sharing_cache(ingestor: Ingestor, shared: Shared, *, memory_items: int = 256) -> Ingestor:
    """`ingestor`'s engine, models and settings, caching in the shared table (behind an LRU of
    its own) instead of wherever it cached."""
    return Ingestor(
        ingestor.engine,
        config=ingestor.config,
        cache=IngestCache(memory_items=memory_items, level=PostgresLevel(shared)),
        clock=ingestor.clock,
        structure=ingestor.structure,
        shelf=ingestor.shelf,
    )


class Listener:
    """One connection listening on the store's channel; `waiting(payload)` gives an event that
    is set when a worker announces that payload. The connection comes back after a failure;
    whoever waits also looks again on its own every few seconds, so a missed notice only
    delays."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._waiters: dict[str, set[asyncio.Event]] = {}
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._listen())

    async def close(self) -> None:
        if self._task is not None:
            await stop(self._task)

    @contextlib.contextmanager
    def waiting(self, payload: str) -> Iterator[asyncio.Event]:
        event = asyncio.Event()
        self._waiters.setdefault(payload, set()).add(event)
        try:
            yield event
        finally:
            waiters = self._waiters.get(payload)
            if waiters is not None:
                waiters.discard(event)
                if not waiters:
                    del self._waiters[payload]

    async def _listen(self) -> None:
        delay = 0.5
        while not asked_to_stop():
            try:
                conn = await psycopg.AsyncConnection.connect(self._url, autocommit=True)
                async with conn:
                    await listen(conn)
                    delay = 0.5
                    async for notice in conn.notifies():
                        for event in self._waiters.get(notice.payload, ()):
                            event.set()
            except psycopg.Error as exc:
                if asked_to_stop():
                    return
                log.warning("listening for finished jobs failed (%s); again in %.1f s", exc, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)


def asked_to_stop() -> bool:
    """Whether the running task was cancelled. A loop that carries on after an error asks
    this: the cancellation may have reached it as a library's own error, or been lost in
    `asyncio.wait_for`'s race on Python 3.11, and the loop would otherwise never end."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


async def stop(task: asyncio.Task[None]) -> None:
    """Cancel `task` and wait until it has ended."""
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def wait_for(event: asyncio.Event, timeout_s: float) -> None:
    """Until `event` is set or `timeout_s` passed; clears it for the next wait."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), timeout=timeout_s)
    event.clear()
