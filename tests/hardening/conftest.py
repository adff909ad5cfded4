"""The hardening suite: a short fixed-seed run in `make test`, the long run under `HARDEN_LONG=1`.

Tests marked `harden_long` run only in the long run (`make harden`). Hypothesis uses the profile of the
run: `hardening` (derandomized, a few hundred inputs per property) or `hardening-long`
(thousands, seeded by `HARDEN_SEED`). Each test may add figures (inputs tried, latencies, RSS)
to `FIGURES`; they are printed at the end of the session.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from pipeline.host.loop import Run, run_task
from pipeline.host.record import RunRecord
from pipeline.host.toolbox import MemoryTarget, Toolbox
from pipeline.ingest.cache import IngestCache
from pipeline.models import IngestResult
from pipeline.ocr import OcrEngine
from servers.factory import build_server
from store.sql import SqlStore
from store.stores import sqlite_store
from tests.api.serve import seed
from tests.conftest import SAMPLES, make_ingestor

LONG = os.environ.get("HARDEN_LONG", "") not in ("", "0")
SEED = int(os.environ.get("HARDEN_SEED", "20261130"))

FIGURES: dict[str, dict[str, Any]] = defaultdict(dict)

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]
_BOTH: dict[str, Any] = {
    "deadline": None,
    "database": None,
    "print_blob": True,
    "suppress_health_check": _QUIET,
}
settings.register_profile("hardening", max_examples=300, derandomize=True, **_BOTH)
settings.register_profile("hardening-long", max_examples=4000, derandomize=False, **_BOTH)
PROFILE = "hardening-long" if LONG else "hardening"


def examples(short: int, long: int) -> int:
    """How many inputs a property tries in this run."""
    return long if LONG else short


GROUPS = ("inventory", "orders", "warehouses")
TASK = "find the SKUs that are low and raise replenishment orders"
SAMPLE = SAMPLES / "erp-light-wh01.png"


def memory_targets(store: SqlStore) -> list[MemoryTarget]:
    """Every group's server over `store`, as the API and the watch folder connect them: only a
    run's own groups decide what it may call."""
    return [MemoryTarget(g, build_server(g, store)) for g in GROUPS]


async def run_on(store: SqlStore, **run: Any) -> RunRecord:
    """One host run (the `Run` fields but the toolbox) over every group's server on `store`."""
    async with Toolbox(memory_targets(store)) as toolbox:
        return await run_task(Run(toolbox=toolbox, **run))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return seed(tmp_path / "stockshot.db")


@pytest.fixture(scope="session")
def screenshot(rapidocr: OcrEngine) -> IngestResult:
    """The light ERP sample, read once for the session."""
    with IngestCache(None) as cache:
        return make_ingestor(rapidocr, cache).ingest_path(SAMPLE)


@pytest.fixture
def store(db: Path) -> Iterator[SqlStore]:
    with sqlite_store(db) as opened:
        yield opened


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "harden_long: only in the long hardening run (HARDEN_LONG=1, make harden)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if LONG:
        return
    long_only = [item for item in items if item.get_closest_marker("harden_long") is not None]
    if long_only:
        config.hook.pytest_deselected(items=long_only)
        items[:] = [item for item in items if item.get_closest_marker("harden_long") is None]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not FIGURES:
        return
    terminalreporter.section("hardening figures")
    for topic, values in FIGURES.items():
        shown = ", ".join(f"{k}: {v}" for k, v in values.items())
        terminalreporter.write_line(f"{topic}: {shown}")
