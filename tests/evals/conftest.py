"""Shared fixtures: the samples ingested once per session, a seeded store, a workbench."""

from pathlib import Path

import pytest

from pipeline.evals.cases import Case, load_cases
from pipeline.evals.scratch import SeededStore
from pipeline.evals.screens import EVAL_CLOCK, SAMPLES_ZONE, Screens
from pipeline.ingest import IngestConfig, Ingestor
from pipeline.ocr import OcrEngine


@pytest.fixture(scope="session")
def cases() -> list[Case]:
    return load_cases()


@pytest.fixture(scope="session")
def screens(rapidocr: OcrEngine) -> Screens:
    config = IngestConfig(max_bytes=30_000_000, max_pixels=50_000_000, tz=SAMPLES_ZONE)
    return Screens(Ingestor(rapidocr, config=config, clock=lambda: EVAL_CLOCK), now=EVAL_CLOCK)


@pytest.fixture(scope="session")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> SeededStore:
    return SeededStore(tmp_path_factory.mktemp("seeded"), now=EVAL_CLOCK)


def case_by_id(cases: list[Case], case_id: str) -> Case:
    return next(c for c in cases if c.id == case_id)


def write_cases(directory: Path, text: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "cases.json").write_text(text, encoding="utf-8")
    return directory
