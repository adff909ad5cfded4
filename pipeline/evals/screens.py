"""The sample screenshots of an evaluation run, each ingested once and kept in memory."""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from PIL import Image

from pipeline.evals.cases import SAMPLES_DIR, ImageRef, load_truth
from pipeline.ingest import Ingestor
from pipeline.models import IngestResult

__all__ = ["CROP_PADDING", "EVAL_CLOCK", "SAMPLES_ZONE", "Screens", "default_capture_time"]

CROP_PADDING = 8
SAMPLES_ZONE = ZoneInfo("Asia/Shanghai")
"""The zone of the samples' naive capture stamps (see samples/README.md)."""
EVAL_CLOCK = datetime(2026, 12, 1, 9, 0, tzinfo=SAMPLES_ZONE)
"""The fixed "now" of an evaluation: the morning after the newest sample screenshot."""


def default_capture_time(now: datetime) -> datetime:
    """The capture time given for samples whose file carries none (their mtime would vary
    with every checkout): the evening before the evaluation's clock."""
    return now - timedelta(hours=14)


class Screens:
    """Ingest results by image reference, each computed once per evaluation run.

    The ingestor is passed in (its engine, config and clock belong to the caller).
    """

    def __init__(
        self, ingestor: Ingestor, *, now: datetime, samples_dir: Path = SAMPLES_DIR
    ) -> None:
        self.ingestor = ingestor
        self.now = now
        self.samples_dir = samples_dir
        self._results: dict[ImageRef, IngestResult] = {}
        self._lock = threading.Lock()
        self.ingest_ms = 0.0

    def get(self, images: Sequence[ImageRef]) -> list[IngestResult]:
        return [self._one(image) for image in images]

    def _one(self, image: ImageRef) -> IngestResult:
        with self._lock:
            cached = self._results.get(image)
            if cached is not None:
                return cached
            result = self._ingest(image)
            self._results[image] = result
            self.ingest_ms += result.timings_ms.get("total", 0.0)
            return result

    def _ingest(self, image: ImageRef) -> IngestResult:
        truth = load_truth(image.file, self.samples_dir)
        path = self.samples_dir / image.file
        caller = image.captured_at
        if caller is None and truth.captured_at is None:
            caller = default_capture_time(self.now)
        if image.crop is None:
            return self.ingestor.ingest_path(path, caller_time=caller)
        if caller is None and truth.captured_at is not None:
            caller = datetime.fromisoformat(truth.captured_at)
            if caller.tzinfo is None:
                caller = caller.replace(tzinfo=self.ingestor.config.tz)
        with Image.open(path) as opened:
            x0, y0, x1, y1 = truth.table_box
            box = (
                max(0, x0 - CROP_PADDING),
                max(0, y0 - CROP_PADDING),
                min(opened.width, x1 + CROP_PADDING),
                min(opened.height, y1 + CROP_PADDING),
            )
            buffer = io.BytesIO()
            opened.crop(box).save(buffer, format="PNG")
        stem = Path(image.file).stem
        return self.ingestor.ingest_bytes(
            buffer.getvalue(), name=f"{stem}-table.png", caller_time=caller
        )

    @property
    def count(self) -> int:
        return len(self._results)
