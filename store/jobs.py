"""The tables the processes of a PostgreSQL deployment share, and every statement on them.

- `stockshot_ingest_cache`: analysed screenshots by cache key, as the bytes the cache keeps;
- `stockshot_uploads`: the bytes of an upload waiting for a worker, by cache key, deleted
  once it is analysed; `stockshot_ingest_errors`: why bytes could not be analysed (the error's
  kind and message);
- `stockshot_results`: the latest result of each upload by its id, as JSON;
- `stockshot_runs` and `stockshot_run_events`: each run's request, status and record, and its
  events numbered from 0, so any API instance answers for a run any worker executes.

The job queue's own tables are Procrastinate's (its schema, created by revision 0005 too).
`JobTables` speaks in plain values (bytes, JSON objects, text); what they mean to the pipeline
is its own adapter's (`pipeline.jobs.shared`). Every method is one short transaction; a driver
error becomes `StoreError` here. What a writer finished is announced with `NOTIFY stockshot`
in the same transaction, so whoever hears it can read it; `listen` subscribes a connection.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import JsonValue
from sqlalchemy import (
    Column,
    Connection,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    Table,
    Text,
    create_engine,
    delete,
    exc as sa_exc,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.dialects import postgresql
from sqlalchemy.pool import NullPool

from store.errors import StoreError

if TYPE_CHECKING:
    import psycopg
    from psycopg.rows import TupleRow

__all__ = [
    "CHANNEL",
    "JobTables",
    "RunRow",
    "ingest_cache",
    "ingest_errors",
    "job_metadata",
    "listen",
    "results",
    "run_events",
    "run_inputs",
    "runs",
    "uploads",
]

CHANNEL = "stockshot"
"""The channel workers announce what they finished on (`ingest:<key>`, `run:<id>`)."""

JsonObject = dict[str, JsonValue]

job_metadata = MetaData()
"""The shared tables: on PostgreSQL only (a SQLite store has no job workers)."""


def _moment(name: str) -> Column[Any]:
    return Column(name, DateTime(timezone=True), nullable=False, server_default=func.now())


ingest_cache = Table(
    "stockshot_ingest_cache",
    job_metadata,
    Column("key", Text, primary_key=True),
    Column("entry", LargeBinary, nullable=False),
    _moment("created_at"),
)

uploads = Table(
    "stockshot_uploads",
    job_metadata,
    Column("key", Text, primary_key=True),
    Column("data", LargeBinary, nullable=False),
    _moment("created_at"),
)

ingest_errors = Table(
    "stockshot_ingest_errors",
    job_metadata,
    Column("key", Text, primary_key=True),
    Column("kind", Text, nullable=False),
    Column("message", Text, nullable=False),
    _moment("at"),
)

results = Table(
    "stockshot_results",
    job_metadata,
    Column("sha256", Text, primary_key=True),
    Column("result", postgresql.JSONB, nullable=False),
    _moment("at"),
)

runs = Table(
    "stockshot_runs",
    job_metadata,
    Column("id", Text, primary_key=True),
    Column("spec", postgresql.JSONB, nullable=False),
    Column("status", Text, nullable=False),
    Column("record", postgresql.JSONB),
    Column("attempts", Integer, nullable=False, server_default="0"),
    _moment("created_at"),
    _moment("updated_at"),
)

run_events = Table(
    "stockshot_run_events",
    job_metadata,
    Column(
        "run_id",
        Text,
        ForeignKey("stockshot_runs.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("seq", Integer, primary_key=True),
    Column("event", postgresql.JSONB, nullable=False),
)


@dataclass(frozen=True)
class RunRow:
    id: str
    spec: JsonObject
    status: str
    record: JsonObject | None
    attempts: int


_RUN = (runs.c.id, runs.c.spec, runs.c.status, runs.c.record, runs.c.attempts)


def _run_row(row: Any) -> RunRow:
    return RunRow(
        id=row.id, spec=row.spec, status=row.status, record=row.record, attempts=row.attempts
    )


class JobTables:
    """The shared tables of the PostgreSQL database `url` names, over a pool of connections.
    The tables are there once the store has been opened on that database (it migrates it)."""

    def __init__(self, url: str, *, where: str, max_connections: int = 8) -> None:
        import psycopg

        def connect() -> psycopg.Connection[TupleRow]:
            return psycopg.connect(url, connect_timeout=10)

        self.where = where
        self._engine: Engine = create_engine(
            "postgresql+psycopg://",
            creator=connect,
            pool_size=max_connections,
            max_overflow=0,
            pool_pre_ping=True,
        )

    def close(self) -> None:
        self._engine.dispose()

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        try:
            with self._engine.begin() as conn:
                yield conn
        except sa_exc.DBAPIError as exc:
            raise StoreError(f"job database {self.where}: {exc.orig}") from exc
        except sa_exc.TimeoutError as exc:
            raise StoreError(
                f"the job database {self.where} is busy: no connection came free"
            ) from exc

    @staticmethod
    def _notify(conn: Connection, payload: str) -> None:
        conn.execute(select(func.pg_notify(CHANNEL, payload)))

    # ---- the ingest cache's shared level

    def cached(self, key: str) -> bytes | None:
        with self._transaction() as conn:
            found = conn.execute(
                select(ingest_cache.c.entry).where(ingest_cache.c.key == key)
            ).scalar_one_or_none()
        return None if found is None else bytes(found)

    def cache(self, key: str, entry: bytes) -> None:
        """Keep `entry` under `key`; one already there stays (the same analysis)."""
        statement = postgresql.insert(ingest_cache).values(key=key, entry=entry)
        with self._transaction() as conn:
            conn.execute(statement.on_conflict_do_nothing(index_elements=[ingest_cache.c.key]))

    # ---- uploads and their analysis

    def put_upload(self, key: str, data: bytes) -> None:
        statement = postgresql.insert(uploads).values(key=key, data=data)
        with self._transaction() as conn:
            conn.execute(statement.on_conflict_do_nothing(index_elements=[uploads.c.key]))

    def upload(self, key: str) -> bytes | None:
        with self._transaction() as conn:
            found = conn.execute(
                select(uploads.c.data).where(uploads.c.key == key)
            ).scalar_one_or_none()
        return None if found is None else bytes(found)

    def ingest_done(self, key: str, error: tuple[str, str] | None = None) -> None:
        """The analysis under `key` is cached, or failed with `error` (its kind and message):
        drop the upload, keep the error, and announce `ingest:<key>`."""
        with self._transaction() as conn:
            conn.execute(delete(uploads).where(uploads.c.key == key))
            if error is None:
                conn.execute(delete(ingest_errors).where(ingest_errors.c.key == key))
            else:
                kind, message = error
                statement = postgresql.insert(ingest_errors).values(
                    key=key, kind=kind, message=message
                )
                conn.execute(
                    statement.on_conflict_do_update(
                        index_elements=[ingest_errors.c.key],
                        set_={
                            "kind": statement.excluded.kind,
                            "message": statement.excluded.message,
                            "at": func.now(),
                        },
                    )
                )
            self._notify(conn, f"ingest:{key}")

    def ingest_error(self, key: str) -> tuple[str, str] | None:
        """The kind and message of the error analysing `key` failed with, if it did."""
        with self._transaction() as conn:
            row = conn.execute(
                select(ingest_errors.c.kind, ingest_errors.c.message).where(
                    ingest_errors.c.key == key
                )
            ).one_or_none()
        return None if row is None else (row.kind, row.message)

    def forget_error(self, key: str) -> None:
        with self._transaction() as conn:
            conn.execute(delete(ingest_errors).where(ingest_errors.c.key == key))

    def remember_result(self, sha256: str, result: JsonObject) -> None:
        statement = postgresql.insert(results).values(sha256=sha256, result=result)
        with self._transaction() as conn:
            conn.execute(
                statement.on_conflict_do_update(
                    index_elements=[results.c.sha256],
                    set_={"result": statement.excluded.result, "at": func.now()},
                )
            )

    def results(self, ids: Sequence[str]) -> dict[str, JsonObject]:
        """The remembered results of `ids`, by id (an unknown id is left out)."""
        with self._transaction() as conn:
            rows = conn.execute(
                select(results.c.sha256, results.c.result).where(results.c.sha256.in_(ids))
            ).all()
        return {row.sha256: row.result for row in rows}

    # ---- runs and their events

    def add_run(self, run_id: str, spec: JsonObject) -> None:
        with self._transaction() as conn:
            conn.execute(insert(runs).values(id=run_id, spec=spec, status="queued"))

    def run(self, run_id: str) -> RunRow | None:
        with self._transaction() as conn:
            row = conn.execute(select(*_RUN).where(runs.c.id == run_id)).one_or_none()
        return None if row is None else _run_row(row)

    def runs(self, limit: int) -> list[RunRow]:
        """The latest runs, newest first."""
        newest = (runs.c.created_at.desc(), runs.c.id.desc())
        with self._transaction() as conn:
            rows = conn.execute(select(*_RUN).order_by(*newest).limit(limit)).all()
        return [_run_row(row) for row in rows]

    def begin_attempt(self, run_id: str) -> tuple[int, int]:
        """Mark the run running; its attempt number (1 first) and the next event number.
        `KeyError` for a run that is not there."""
        with self._transaction() as conn:
            attempts = conn.execute(
                update(runs)
                .where(runs.c.id == run_id)
                .values(status="running", attempts=runs.c.attempts + 1, updated_at=func.now())
                .returning(runs.c.attempts)
            ).scalar_one_or_none()
            if attempts is None:
                raise KeyError(run_id)
            following = conn.execute(
                select(func.coalesce(func.max(run_events.c.seq) + 1, 0)).where(
                    run_events.c.run_id == run_id
                )
            ).scalar_one()
        return int(attempts), int(following)

    def add_events(
        self, run_id: str, first: int, events: Sequence[Mapping[str, JsonValue]]
    ) -> None:
        """Number `events` from `first` and announce `run:<id>`."""
        if not events:
            return
        rows = [{"run_id": run_id, "seq": first + k, "event": e} for k, e in enumerate(events)]
        with self._transaction() as conn:
            conn.execute(insert(run_events), rows)
            self._notify(conn, f"run:{run_id}")

    def finish_run(
        self,
        run_id: str,
        record: JsonObject,
        status: str,
        finished: Mapping[str, JsonValue],
        seq: int,
    ) -> None:
        """Keep the record, then add the `finished` event, in one transaction: whoever sees
        the event can read the record."""
        with self._transaction() as conn:
            conn.execute(
                update(runs)
                .where(runs.c.id == run_id)
                .values(status=status, record=record, updated_at=func.now())
            )
            conn.execute(insert(run_events).values(run_id=run_id, seq=seq, event=finished))
            self._notify(conn, f"run:{run_id}")

    def events(self, run_id: str, *, after: int) -> list[tuple[int, JsonObject]]:
        """The run's events numbered after `after`, in order."""
        with self._transaction() as conn:
            rows = conn.execute(
                select(run_events.c.seq, run_events.c.event)
                .where(run_events.c.run_id == run_id, run_events.c.seq > after)
                .order_by(run_events.c.seq)
            ).all()
        return [(int(row.seq), dict(row.event)) for row in rows]


def run_inputs(url: str, run_ids: Collection[str]) -> dict[str, tuple[JsonValue, JsonValue]]:
    """For each of `run_ids` stored: what its record says it attached and what it was asked
    to read (`record.attachments`, `spec.results`), as stored (None where absent). One short
    connection of its own."""
    if not run_ids:
        return {}
    import psycopg

    def connect() -> psycopg.Connection[TupleRow]:
        return psycopg.connect(url, connect_timeout=10)

    engine = create_engine("postgresql+psycopg://", creator=connect, poolclass=NullPool)
    statement = select(
        runs.c.id,
        runs.c.record["attachments"].label("attachments"),
        runs.c.spec["results"].label("results"),
    ).where(runs.c.id.in_(list(run_ids)))
    try:
        with engine.connect() as conn:
            rows = conn.execute(statement).all()
    except sa_exc.DBAPIError as exc:
        raise StoreError(f"job database: {exc.orig}") from exc
    finally:
        engine.dispose()
    return {row.id: (row.attachments, row.results) for row in rows}


async def listen(conn: psycopg.AsyncConnection[Any]) -> None:
    """Subscribe `conn` (in autocommit) to what workers announce on `CHANNEL`."""
    from psycopg import sql

    await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
