"""The tables a PostgreSQL deployment shares come from the store's schema history."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.errors import ConfigError
from pipeline.jobs.shared import Shared
from servers.sql.migrate import SCHEMA_VERSION
from tests.servers.conftest import legacy_postgres, raw_sql, schema_version

DATA = Path(__file__).resolve().parents[1] / "servers" / "data"


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
