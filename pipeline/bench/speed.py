"""Ingest per image, variant beside variant: the full-page baseline, the pipeline on each engine.

Variants are measured in rounds: each round runs every variant once on every image, the variant
order rotating from round to round, so a burst of load from elsewhere on the machine lands on
all of them alike. One untimed warm-up per variant comes first (engines load lazily).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np
from PIL import Image

from pipeline.bench.accuracy import cell_matches, grid_from_lines
from pipeline.bench.context import BenchContext, quiet_info
from pipeline.bench.images import BenchImage
from pipeline.ingest import Ingestor
from pipeline.models import IngestResult, Table, TextLine
from pipeline.ocr import OcrEngine
from pipeline.ocr.rapid import plain_rapidocr, whole_page

if TYPE_CHECKING:
    from rapidocr import RapidOCR
    from rapidocr.utils.output import RapidOCROutput

__all__ = [
    "BASELINE",
    "BASELINE_CODE",
    "BASELINE_THREADS",
    "ENGINES",
    "OURS",
    "Sweep",
    "Variant",
    "baseline_lines",
    "build_variants",
    "run_sweep",
]

BASELINE = "full_page:RapidOCR()"
BASELINE_THREADS = "full_page:RapidOCR(our threads)"
OURS = "table_ocr:rapidocr"
ENGINES = ("rapidocr", "tesseract", "paddleocr")
_EVERY_IMAGE = (BASELINE, BASELINE_THREADS, OURS)
"""The variants every image is read by in any run: the speed-up targets are judged on each
image; the other engines read a subset in a standard run (`BenchOptions.peer_images`)."""

BASELINE_CODE = """\
from rapidocr import RapidOCR

engine = RapidOCR()             # defaults: detection + angle classifier + recognition
result = engine("screenshot.png")
for box, text, score in zip(result.boxes, result.txts, result.scores):
    print(box, text, score)"""

Runner = Callable[[BenchImage], tuple[float, Table, IngestResult | None]]


@dataclass
class Variant:
    key: str
    label: str
    run: Runner
    headline_only: bool = False


@dataclass
class Sweep:
    """Raw samples (ms) per image and variant, the last table's accuracy, the last results."""

    variants: list[Variant]
    samples: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    accuracy: dict[str, dict[str, tuple[int, int]]] = field(default_factory=dict)
    results: dict[str, IngestResult] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)


def baseline_lines(output: RapidOCROutput | None) -> list[TextLine]:
    """RapidOCR's output as text lines with axis-aligned boxes."""
    if output is None or output.boxes is None or output.txts is None or output.scores is None:
        return []
    lines = []
    for quad, text, score in zip(output.boxes, output.txts, output.scores, strict=True):
        x, y, w, h = cv2.boundingRect(np.asarray(quad, dtype=np.float32))
        confidence = min(1.0, max(0.0, float(score)))
        lines.append(TextLine(text=str(text), box=(x, y, x + w, y + h), confidence=confidence))
    return lines


def _baseline(engine: RapidOCR) -> Runner:
    def run(image: BenchImage) -> tuple[float, Table, IngestResult | None]:
        started = time.perf_counter()
        output = whole_page(engine, str(image.path))
        elapsed = (time.perf_counter() - started) * 1000
        return elapsed, grid_from_lines(baseline_lines(output)), None

    return run


def _engine_full_page(engine: OcrEngine) -> Runner:
    def run(image: BenchImage) -> tuple[float, Table, IngestResult | None]:
        started = time.perf_counter()
        with Image.open(image.path) as opened:
            rgb = np.asarray(opened.convert("RGB"), dtype=np.uint8)
        lines = engine.read(rgb)
        elapsed = (time.perf_counter() - started) * 1000
        return elapsed, grid_from_lines(lines), None

    return run


def _pipeline(ingestor: Ingestor) -> Runner:
    def run(image: BenchImage) -> tuple[float, Table, IngestResult | None]:
        started = time.perf_counter()
        result = ingestor.ingest_path(image.path, strategy="table_ocr")
        elapsed = (time.perf_counter() - started) * 1000
        return elapsed, result.table, result

    return run


def build_variants(ctx: BenchContext) -> list[Variant]:
    """The baseline, our engine's own full-page read (headline only), the pipeline per engine."""
    with quiet_info():
        default_engine = plain_rapidocr()
        threaded_engine = plain_rapidocr(ctx.settings.ocr_threads)
    variants = [
        Variant(
            BASELINE,
            "full page, `RapidOCR()` defaults (the ten-line baseline)",
            _baseline(default_engine),
        ),
        Variant(
            BASELINE_THREADS,
            "full page, `RapidOCR()` with only our thread settings (intra-op threads, one "
            "inter-op, no spinning)",
            _baseline(threaded_engine),
        ),
    ]
    for name in ENGINES:
        if ctx.options.quick and name != "rapidocr":
            ctx.skipped.setdefault(name, "skipped with --quick")
            continue
        engine = ctx.engine(name)
        if engine is None:
            continue
        if name == "rapidocr" and not ctx.options.quick:
            variants.append(
                Variant(
                    "full_page:rapidocr",
                    "full page, our rapidocr settings (no angle classifier)",
                    _engine_full_page(engine),
                    headline_only=True,
                )
            )
        ingestor = Ingestor(engine, config=ctx.config(), cache=None)
        variants.append(
            Variant(f"table_ocr:{name}", f"`table_ocr` pipeline, {name}", _pipeline(ingestor))
        )
    return variants


def run_sweep(
    ctx: BenchContext,
    variants: Sequence[Variant],
    images: Sequence[BenchImage],
    *,
    rounds: int,
    headline_rounds: int,
) -> Sweep:
    sweep = Sweep(list(variants))
    headline = ctx.options.headline
    limit = ctx.options.peer_images
    subset = {i.name for i in images[:limit]} if limit is not None else None

    def peers_read(image: BenchImage) -> bool:
        return subset is None or image.name in subset

    active = list(variants)
    for variant in list(active):
        try:
            variant.run(headline)
        except Exception as exc:  # an engine that cannot run is reported, not fatal
            sweep.errors[variant.key] = f"{type(exc).__name__}: {exc}"
            active.remove(variant)
    for image in images:
        sweep.samples[image.name] = {v.key: [] for v in active}
        sweep.accuracy[image.name] = {}
    for r in range(max(rounds, headline_rounds)):
        order = active[r % len(active) :] + active[: r % len(active)] if active else []
        for image in images:
            is_headline = image.name == headline.name
            if r >= (headline_rounds if is_headline else rounds):
                continue
            for variant in order:
                if variant.headline_only and not is_headline:
                    continue
                if not (is_headline or variant.key in _EVERY_IMAGE or peers_read(image)):
                    continue
                try:
                    elapsed, table, result = variant.run(image)
                except Exception as exc:
                    sweep.errors[f"{variant.key} on {image.name}"] = f"{type(exc).__name__}: {exc}"
                    continue
                sweep.samples[image.name][variant.key].append(elapsed)
                if image.truth is not None:
                    sweep.accuracy[image.name][variant.key] = cell_matches(table, image.truth)
                if result is not None and variant.key == OURS:
                    sweep.results[image.name] = result
        ctx.note(f"ingest round {r + 1}/{max(rounds, headline_rounds)} done")
    return sweep
