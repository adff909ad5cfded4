"""What the processes of a PostgreSQL deployment share, in that database: every statement on
the tables they share.

- `stockshot_ingest_cache`: analysed screenshots by cache key (the level behind each
  process's LRU: `PostgresLevel`);
- `stockshot_uploads`: the bytes of an upload waiting for a worker, by cache key, deleted
  once it is analysed; `stockshot_ingest_errors`: why bytes could not be analysed;
- `stockshot_results`: the latest result of each upload by its id, for runs that name it;
- `stockshot_runs` and `stockshot_run_events`: each run's request, status and record, and
  its events numbered from 0, so any API instance answers for a run any worker executes;
- the job queue's own tables (Procrastinate's schema).

They are created by the store's schema history (`store.migrations`, revision 0005).

Workers announce what they finished with `NOTIFY stockshot` (`ingest:<key>`, `run:<id>`);
`Listener` wakes whoever waits for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import cast

import psycopg
from psycopg.rows import DictRow, dict_row
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from pipeline.cache import Entry, IngestCache
from pipeline.errors import ConfigError, StockshotError
from pipeline.ingest import Ingestor
from pipeline.models import CacheState, IngestResult, JsonObject, RunEvent
from store.errors import StoreError
from store.stores import open_store

__all__ = [
    "CHANNEL",
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

CHANNEL = "stockshot"


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


@dataclass(frozen=True)
class RunRow:
    id: str
    spec: JsonObject
    status: str
    record: JsonObject | None
    attempts: int


class Shared:
    """The shared tables over a pool of connections; every method is one short transaction."""

    def __init__(self, url: str, *, max_connections: int = 8) -> None:
        self.url = url
        try:
            # The store's schema history creates these tables too (revision 0005).
            open_store(url).close()
        except StoreError as exc:
            raise ConfigError(f"cannot reach the job database: {exc}".strip()) from exc
        self.pool: ConnectionPool[psycopg.Connection[DictRow]] = ConnectionPool(
            url,
            min_size=1,
            max_size=max_connections,
            kwargs={"autocommit": True, "row_factory": dict_row},
            open=True,
        )

    def close(self) -> None:
        self.pool.close()

    @contextlib.contextmanager
    def _conn(self) -> Iterator[psycopg.Connection[DictRow]]:
        with self.pool.connection() as conn:
            yield conn

    def notify(self, conn: psycopg.Connection[DictRow], payload: str) -> None:
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))

    # ingest
    def put_upload(self, key: str, data: bytes) -> None:
        with self._conn() as conn:
            conn.execute(
                "INSERT INTO stockshot_uploads (key, data) VALUES (%s, %s) "
                "ON CONFLICT (key) DO NOTHING",
                (key, data),
            )

    def upload(self, key: str) -> bytes | None:
        with self._conn() as conn:
            row = conn.execute("SELECT data FROM stockshot_uploads WHERE key = %s", (key,))
            found = row.fetchone()
        return None if found is None else bytes(found["data"])

    def ingest_done(self, key: str, error: StockshotError | None = None) -> None:
        """The analysis under `key` is cached, or failed with `error`: drop the upload, keep
        the error, and wake whoever waits for it."""
        with self._conn() as conn, conn.transaction():
            conn.execute("DELETE FROM stockshot_uploads WHERE key = %s", (key,))
            if error is None:
                conn.execute("DELETE FROM stockshot_ingest_errors WHERE key = %s", (key,))
            else:
                conn.execute(
                    "INSERT INTO stockshot_ingest_errors (key, kind, message) VALUES (%s, %s, %s) "
                    "ON CONFLICT (key) DO UPDATE SET kind = EXCLUDED.kind, "
                    "message = EXCLUDED.message, at = now()",
                    (key, type(error).__name__, str(error)),
                )
            self.notify(conn, f"ingest:{key}")

    def ingest_error(self, key: str) -> StockshotError | None:
        with self._conn() as conn:
            row = conn.execute(
                "SELECT kind, message FROM stockshot_ingest_errors WHERE key = %s", (key,)
            ).fetchone()
        return None if row is None else error_named(row["kind"], row["message"])

    def forget_error(self, key: str) -> None:
        with self._conn() as conn:
            conn.execute("DELETE FROM stockshot_ingest_errors WHERE key = %s", (key,))

    def remember_result(self, result: IngestResult) -> None:
        with self._conn() as conn:
            conn.execute(
                "INSERT INTO stockshot_results (sha256, result) VALUES (%s, %s) "
                "ON CONFLICT (sha256) DO UPDATE SET result = EXCLUDED.result, at = now()",
                (result.sha256, Jsonb(result.model_dump(mode="json"))),
            )

    def results(self, ids: Sequence[str]) -> dict[str, IngestResult]:
        with self._conn() as conn:
            rows = conn.execute(
                "SELECT sha256, result FROM stockshot_results WHERE sha256 = ANY(%s)", (list(ids),)
            ).fetchall()
        return {row["sha256"]: IngestResult.model_validate(row["result"]) for row in rows}

    # runs
    def add_run(self, run_id: str, spec: JsonObject) -> None:
        with self._conn() as conn:
            conn.execute(
                "INSERT INTO stockshot_runs (id, spec, status) VALUES (%s, %s, 'queued')",
                (run_id, Jsonb(spec)),
            )

    def run(self, run_id: str) -> RunRow | None:
        with self._conn() as conn:
            row = conn.execute(
                "SELECT id, spec, status, record, attempts FROM stockshot_runs WHERE id = %s",
                (run_id,),
            ).fetchone()
        return None if row is None else RunRow(**row)

    def runs(self, limit: int) -> list[RunRow]:
        """The latest runs, newest first."""
        with self._conn() as conn:
            rows = conn.execute(
                "SELECT id, spec, status, record, attempts FROM stockshot_runs "
                "ORDER BY created_at DESC, id DESC LIMIT %s",
                (limit,),
            ).fetchall()
        return [RunRow(**row) for row in rows]

    def begin_attempt(self, run_id: str) -> tuple[int, int]:
        """Mark the run running; its attempt number (1 first) and the next event number."""
        with self._conn() as conn, conn.transaction():
            row = conn.execute(
                "UPDATE stockshot_runs SET status = 'running', attempts = attempts + 1, "
                "updated_at = now() WHERE id = %s RETURNING attempts",
                (run_id,),
            ).fetchone()
            if row is None:
                raise KeyError(run_id)
            seq = conn.execute(
                "SELECT COALESCE(MAX(seq) + 1, 0) AS next FROM stockshot_run_events "
                "WHERE run_id = %s",
                (run_id,),
            ).fetchone()
        assert seq is not None
        return int(row["attempts"]), int(seq["next"])

    def add_events(self, run_id: str, first: int, events: Sequence[RunEvent]) -> None:
        if not events:
            return
        with self._conn() as conn, conn.transaction():
            with conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO stockshot_run_events (run_id, seq, event) VALUES (%s, %s, %s)",
                    [(run_id, first + k, Jsonb(e)) for k, e in enumerate(events)],
                )
            self.notify(conn, f"run:{run_id}")

    def finish_run(
        self, run_id: str, record: JsonObject, status: str, finished: RunEvent, seq: int
    ) -> None:
        """Keep the record, then publish `run_finished`, in one transaction: whoever sees the
        event can read the record."""
        with self._conn() as conn, conn.transaction():
            conn.execute(
                "UPDATE stockshot_runs SET status = %s, record = %s, updated_at = now() "
                "WHERE id = %s",
                (status, Jsonb(record), run_id),
            )
            conn.execute(
                "INSERT INTO stockshot_run_events (run_id, seq, event) VALUES (%s, %s, %s)",
                (run_id, seq, Jsonb(finished)),
            )
            self.notify(conn, f"run:{run_id}")

    def events(self, run_id: str, *, after: int) -> list[tuple[int, RunEvent]]:
        with self._conn() as conn:
            rows = conn.execute(
                "SELECT seq, event FROM stockshot_run_events WHERE run_id = %s AND seq > %s "
                "ORDER BY seq",
                (run_id, after),
            ).fetchall()
        return [(int(row["seq"]), dict(row["event"])) for row in rows]


def stored_screens(url: str) -> Callable[[Collection[str]], dict[str, list[str]]]:
    """The screenshots (ingest ids) each run of `stockshot_runs` read, by run id: from its
    record once finished, else from what it was asked to read."""

    def screens(run_ids: Collection[str]) -> dict[str, list[str]]:
        if not run_ids:
            return {}
        with psycopg.connect(url, row_factory=dict_row) as conn:
            rows = conn.execute(
                "SELECT id, spec->'results' AS results, record->'attachments' AS attachments "
                "FROM stockshot_runs WHERE id = ANY(%s)",
                (list(run_ids),),
            ).fetchall()
        found: dict[str, list[str]] = {}
        for row in rows:
            named = [*(row["attachments"] or []), *(row["results"] or [])]
            found[row["id"]] = [
                sha for item in named if isinstance(sha := item.get("sha256"), str) and sha
            ]
        return found

    return screens


class PostgresLevel:
    """The ingest cache's shared level: one table every API instance and worker reads."""

    state: CacheState = "database"

    def __init__(self, shared: Shared) -> None:
        self._shared = shared

    def get(self, key: str) -> Entry | None:
        with self._shared.pool.connection() as conn:
            row = conn.execute(
                "SELECT entry FROM stockshot_ingest_cache WHERE key = %s", (key,)
            ).fetchone()
        if row is None:
            return None
        entry = json.loads(bytes(row["entry"]))
        return cast(Entry, entry) if isinstance(entry, dict) else None  # as `put` kept it

    def set(self, key: str, entry: Entry) -> None:
        data = json.dumps(entry, ensure_ascii=False, separators=(",", ":")).encode()
        with self._shared.pool.connection() as conn:
            conn.execute(
                "INSERT INTO stockshot_ingest_cache (key, entry) VALUES (%s, %s) "
                "ON CONFLICT (key) DO NOTHING",
                (key, data),
            )

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
    """One connection listening on `stockshot`; `waiting(payload)` gives an event that is set
    when a worker announces that payload. The connection comes back after a failure; whoever
    waits also looks again on its own every few seconds, so a missed notice only delays."""

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
                    await conn.execute(f"LISTEN {CHANNEL}")
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
