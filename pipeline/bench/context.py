"""What every section of a bench run shares: the options, the engines built once, scratch space."""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pipeline.bench.document import BenchMode, RoundsDoc
from pipeline.bench.images import BenchImage
from pipeline.errors import StockshotError
from pipeline.ingest import IngestConfig
from pipeline.ocr import EngineOptions, OcrEngine, make_engine
from pipeline.settings import Settings

__all__ = [
    "PEER_IMAGES",
    "BenchContext",
    "BenchOptions",
    "quiet_info",
    "rounds_of",
]


PEER_IMAGES: dict[BenchMode, int | None] = {"quick": None, "standard": 1, "full": None}
"""How many images of each set the peers read (None: all); our pipeline reads every image."""


def rounds_of(repeat: int, *, mode: BenchMode) -> RoundsDoc:
    """Timed rounds per section. `--repeat` sets the expensive ones (every image, the batch,
    the stdio runs); a full run gives the headline image and the cheap sections at least five,
    a standard run three (`quick`: the cheap ones two, one cold start and one stdio run, and
    no process warm-up)."""
    if mode == "quick":
        least, processes = 1, 1
    elif mode == "standard":
        least, processes = 3, max(repeat, 2)
    else:
        least, processes = 5, max(repeat, 3)
    return {
        "images": repeat,
        "headline": max(repeat, least),
        "cheap": max(repeat, 2 if mode == "quick" else least),
        "cold": processes,
        "stdio": processes,
        "batch": repeat,
        "commands": 1 if mode == "quick" else 3,
        "warm_up_processes": mode != "quick",
    }


@dataclass(frozen=True)
class BenchOptions:
    images: Sequence[BenchImage]
    headline: BenchImage
    repeat: int
    mode: BenchMode
    out: Path
    settings: Settings
    tables: Sequence[Path] = ()
    """Folders of table pictures with a CSV of each beside it, read beside the corpus."""
    real_screens: Path | None = None
    """The real products' screenshots with hand-written truth (`pipeline.bench.real_screens`)."""
    real_products: Path | None = None
    """Real products' own screens rendered here, with their split beside them."""

    @property
    def quick(self) -> bool:
        return self.mode == "quick"

    @property
    def peer_images(self) -> int | None:
        """How many images of each set the peers read (None: every image)."""
        return PEER_IMAGES[self.mode]

    @property
    def rounds(self) -> RoundsDoc:
        return rounds_of(self.repeat, mode=self.mode)


@dataclass
class BenchContext:
    """Engines are loaded once per run and shared by the sections that need the same one."""

    options: BenchOptions
    scratch: Path
    engines: dict[str, OcrEngine] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    verbose: bool = True
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def settings(self) -> Settings:
        return self.options.settings

    def config(self) -> IngestConfig:
        return IngestConfig(
            max_bytes=self.settings.max_upload_bytes,
            max_pixels=self.settings.max_image_pixels,
            tz=_zone(self.settings.timezone),
        )

    def engine_options(self, threads: int | None = None) -> EngineOptions:
        return EngineOptions(
            threads=self.settings.ocr_threads if threads is None else threads,
            model_dir=self.settings.resolved_model_dir(),
        )

    def engine(self, name: str) -> OcrEngine | None:
        """The named engine, built on first use; None (with the reason kept) when it cannot be."""
        if name in self.engines:
            return self.engines[name]
        if name in self.skipped:
            return None
        try:
            with quiet_info():
                built = make_engine(name, self.engine_options())
        except StockshotError as exc:
            self.skipped[name] = str(exc)
            return None
        self.engines[name] = built
        return built

    def note(self, message: str) -> None:
        if self.verbose:
            print(f"bench: {message}", file=sys.stderr, flush=True)

    @contextmanager
    def step(self, label: str) -> Iterator[None]:
        started = time.perf_counter()
        self.note(f"{label} ...")
        yield
        took = time.perf_counter() - started
        self.seconds[label] = round(took, 1)
        self.note(f"{label}: {took:.1f} s (load {load_text()})")


def load_text() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def _zone(name: str | None) -> tzinfo:
    if not name:
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


@contextmanager
def quiet_info() -> Iterator[None]:
    """Engines announce every model file they load at INFO; a bench prints its own progress."""
    logging.disable(logging.INFO)
    try:
        yield
    finally:
        logging.disable(logging.NOTSET)
