"""The tables a PostgreSQL deployment shares come from the store's schema history; the\nlistener for finished jobs closes when asked."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from pipeline.errors import ConfigError
from pipeline.jobs.shared import Listener, Shared
from store.migrate import SCHEMA_VERSION
from tests.servers.conftest import legacy_postgres, raw_sql, schema_version

DATA = Path(__file__).resolve().parents[1] / "store" / "data"


def test_a_new_database_gets_the_job_tables_and_the_queue_schema(postgres_url: str) -> None:
    shared = Shared(postgres_url)
    try:
        shared.add_run("run-9", {"task": "report"})
        found = shared.run("run-9")
        assert found is not None and found.spec == {"task": "report"}
    finally:
        shared.close()
    assert raw_sql(postgres_url, "SELECT to_regclass('procrastinate_jobs') IS NOT NULL") == [
        (True,)
    ]
    assert schema_version(postgres_url) == SCHEMA_VERSION


def test_a_deployment_whose_job_tables_an_earlier_version_made_keeps_them_and_their_rows(
    postgres_url: str,
) -> None:
    legacy_postgres(postgres_url, 4)
    raw_sql(postgres_url, (DATA / "postgres-jobs-v1.sql").read_text(encoding="utf-8"))
    shared = Shared(postgres_url)
    try:
        found = shared.run("run-1")
        assert found is not None and found.status == "done"
    finally:
        shared.close()
    assert schema_version(postgres_url) == SCHEMA_VERSION


def test_a_job_database_that_cannot_be_reached_is_a_config_error_without_its_password() -> None:
    with pytest.raises(ConfigError, match="cannot reach the job database") as caught:
        Shared("postgresql://stockshot:s3cret@127.0.0.1:1/x?connect_timeout=5")
    assert "s3cret" not in str(caught.value)


async def test_a_listener_closes_when_its_connection_turns_the_cancellation_into_an_error(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    listening = asyncio.Event()
    turned: list[bool] = []
    real_notifies = psycopg.AsyncConnection.notifies

    async def notifies(conn: psycopg.AsyncConnection[Any], **kwargs: Any) -> AsyncIterator[Any]:
        listening.set()
        try:
            async for notice in real_notifies(conn, **kwargs):
                yield notice
        except asyncio.CancelledError:
            if turned:
                raise
            turned.append(True)  # the first cancellation comes out as the driver's own error
            raise psycopg.OperationalError("the connection was lost") from None

    monkeypatch.setattr(psycopg.AsyncConnection, "notifies", notifies)
    listener = Listener(postgres_url)
    await listener.start()
    await asyncio.wait_for(listening.wait(), timeout=30)
    closing = asyncio.create_task(listener.close())
    done, _ = await asyncio.wait({closing}, timeout=30)
    assert closing in done, "the listener went on after it was closed"
