import json
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from pipeline.ingest import IngestConfig, Ingestor
from pipeline.ingest.cache import IngestCache
from pipeline.ocr import EngineOptions, OcrEngine, make_engine
from pipeline.ocr.structure import TableStructureModel, make_structure_model
from tests.postgres import PostgresCluster, find_bin_dir, running_cluster
from tests.tiers import tiers_of

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
SHANGHAI = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Sample:
    path: Path
    truth: dict[str, Any]


def load_samples() -> list[Sample]:
    manifest = json.loads((SAMPLES / "manifest.json").read_text(encoding="utf-8"))
    return [
        Sample(
            SAMPLES / entry["file"],
            json.loads((SAMPLES / entry["truth"]).read_text(encoding="utf-8")),
        )
        for entry in manifest
    ]


_UNIT_RUN = os.environ.get("STOCKSHOT_TEST_TIER") == "unit"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each test marked with the tiers it needs (`tests/tiers.py`), or `unit` when none."""
    for item in items:
        marked = {m.name for m in item.iter_markers()}
        where = Path(str(item.path)).resolve().relative_to(ROOT / "tests").as_posix()
        params = getattr(getattr(item, "callspec", None), "params", {})
        needs = tiers_of(getattr(item, "fixturenames", ()), params, where, marked)
        for tier in sorted(needs - marked):
            item.add_marker(tier)


@pytest.fixture(autouse=True)
def _unit_tests_reach_nothing_outside(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a `make unit` run, a test that starts a process or loads an OCR model fails, naming
    the tier to mark it with (`tests/tiers.py`), so the tiers stay true."""
    if not _UNIT_RUN:
        return

    def refuse(tier: str) -> Any:
        def refused(*_args: Any, **_kwargs: Any) -> Any:
            pytest.fail(
                f"this test needs the `{tier}` tier but is marked `unit`: mark it, or add its "
                "fixture or file to TIER_FIXTURES / TIER_FILES in tests/tiers.py",
                pytrace=False,
            )

        return refused

    import onnxruntime

    monkeypatch.setattr(onnxruntime, "InferenceSession", refuse("ocr"))
    monkeypatch.setattr(subprocess.Popen, "__init__", refuse("subprocess"))


@pytest.fixture(autouse=True)
def _isolated_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test reads the developer's settings or writes into their data directory."""
    import os

    for key in list(os.environ):
        if key.startswith("STOCKSHOT_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("STOCKSHOT_DATA_DIR", str(tmp_path / "data"))


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    """A throwaway PostgreSQL server for the session (skipped only where none is installed)."""
    bin_dir = find_bin_dir()
    if bin_dir is None:
        pytest.skip(
            "PostgreSQL is not installed (no initdb and pg_ctl; `make test` installs Debian's "
            "postgresql-15 with apt where it can)"
        )
    with running_cluster(bin_dir) as cluster:
        yield cluster


@pytest.fixture
def postgres_url(postgres_cluster: PostgresCluster) -> Iterator[str]:
    """The URL of a new, empty database, dropped after the test."""
    url = postgres_cluster.create_database()
    yield url
    postgres_cluster.drop_database(url)


@pytest.fixture(scope="session")
def rapidocr() -> OcrEngine:
    return make_engine("rapidocr", EngineOptions())


class CountingEngine:
    """The real engine, with a count of how often it ran."""

    def __init__(self, inner: OcrEngine) -> None:
        self.inner = inner
        self.name = inner.name
        self.models = inner.models
        self.calls = 0

    def recognize(self, crops: Any) -> Any:
        self.calls += 1
        return self.inner.recognize(crops)

    def read(self, image: Any) -> Any:
        self.calls += 1
        return self.inner.read(image)


_STRUCTURE: list[TableStructureModel] = []


def structure_model() -> TableStructureModel:
    """One RapidTable model for the whole test session (it loads at its first table)."""
    if not _STRUCTURE:
        _STRUCTURE.append(make_structure_model("rapid_table", EngineOptions()))
    return _STRUCTURE[0]


def make_ingestor(
    engine: OcrEngine, cache: IngestCache | None = None, *, structure: bool = True
) -> Ingestor:
    config = IngestConfig(max_bytes=30_000_000, max_pixels=40_000_000, tz=SHANGHAI)
    return Ingestor(
        engine,
        config=config,
        cache=cache,
        clock=lambda: NOW,
        structure=structure_model() if structure else None,
    )


@pytest.fixture
def counting(rapidocr: OcrEngine) -> CountingEngine:
    return CountingEngine(rapidocr)


@pytest.fixture
def disk_cache(tmp_path: Path) -> Iterator[IngestCache]:
    with IngestCache(tmp_path / "cache") as cache:
        yield cache


@pytest.fixture(scope="session")
def shared_cache() -> Iterator[IngestCache]:
    """One memory cache for the session: each distinct image is read once."""
    with IngestCache(None) as cache:
        yield cache


def stop_process(process: subprocess.Popen[str], timeout_s: float = 30) -> None:
    """SIGTERM, then SIGKILL after `timeout_s`; waits for the end either way."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=timeout_s)


def cli_env(**settings: str) -> dict[str, str]:
    """The environment of a `stockshot` child process: this one's without its STOCKSHOT_*
    variables, then `settings` (STOCKSHOT_* names without the prefix, in lower case)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("STOCKSHOT_")}
    return env | {f"STOCKSHOT_{name.upper()}": value for name, value in settings.items()}


def cli_process(*args: str, env: Mapping[str, str]) -> subprocess.Popen[str]:
    """`python -m pipeline.cli ARGS` from the repository root, with its stderr piped as text."""
    process = subprocess.Popen(
        [sys.executable, "-m", "pipeline.cli", *args],
        cwd=ROOT,
        env=dict(env),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    assert process.stderr is not None
    return process
