"""Fuzz of the ingest entry point: any bytes under any name are read or refused, never more.

Every call runs in a worker with a time bound; resident memory is measured over each run.
Both runs use the real OCR engine. The short run (`make test`) is derandomized; the long one
(`make harden`) tries thousands of inputs per property, seeded by `HARDEN_SEED`.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import pytest
from hypothesis import given, seed, settings, strategies as st

from pipeline.errors import EmptyInputError, ImageTooLargeError, InputError
from pipeline.ingest import IngestConfig, Ingestor
from pipeline.ingest.cache import IngestCache
from pipeline.models import IngestResult
from pipeline.ocr import OcrEngine
from pipeline.settings import Settings
from tests.hardening.bounds import bounded, mib, rss_bytes
from tests.hardening.conftest import FIGURES, LONG, PROFILE, SEED, examples
from tests.hardening.images import (
    BOMBS,
    NAMES,
    Seed,
    mutated,
    not_images,
    png_bomb,
    sample_seeds,
    seeds,
)

CALL_BOUND_S = 60.0
# What a first pass may keep once it is over: caches, allocator slack, and ONNX Runtime's
# allocation plan per input shape it has seen (about 0.5 GiB for detection and 0.3 GiB for
# recognition once many shapes have come, then flat).
FIRST_PASS_BOUND = 1536 * 2**20
# The same inputs again (long run) must not peak higher than the first time: memory that is
# only held between calls (allocator slack, plans) comes back to the same level, a leak climbs
# past it. (RSS at one instant is no measure: the allocator returns big blocks as it pleases.)
SECOND_PASS_BOUND = 64 * 2**20
DEFAULTS = Settings()
CLOCK = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def ingestor_with(engine: OcrEngine, cache: IngestCache | None) -> Ingestor:
    """The service's own limits (25 MiB, 50 M pixels), so bombs meet the real thresholds."""
    config = IngestConfig(
        max_bytes=DEFAULTS.max_upload_bytes, max_pixels=DEFAULTS.max_image_pixels, tz=UTC
    )
    return Ingestor(engine, config=config, cache=cache, clock=lambda: CLOCK)


@pytest.fixture(scope="module")
def engine(rapidocr: OcrEngine) -> OcrEngine:
    return rapidocr


@pytest.fixture
def ingestor(engine: OcrEngine, caplog: pytest.LogCaptureFixture) -> Iterator[Ingestor]:
    # RapidOCR logs an empty detection with its exception as the message; a record kept by the
    # test's log capture keeps that exception's frames (the page, its maps) for the whole run.
    caplog.set_level(logging.ERROR, logger="RapidOCR")
    with IngestCache(None, memory_items=32) as cache:
        yield ingestor_with(engine, cache)


class Tally:
    """What one property saw: outcomes by kind, inputs by format, the slowest call."""

    def __init__(self, topic: str) -> None:
        self.topic = topic
        self.outcomes: Counter[str] = Counter()
        self.formats: Counter[str] = Counter()
        self.slowest = 0.0
        self.counting = True  # off for a second pass over the same inputs
        self.peak = 0  # the highest RSS seen after a call

    def check(self, ingestor: Ingestor, data: bytes, name: str, fmt: str = "bytes") -> str:
        """Ingest once, bounded: a result, or an InputError whose message names the file."""
        started = time.perf_counter()
        outcome = bounded(
            lambda: ingestor.ingest_bytes(data, name=name),
            CALL_BOUND_S,
            f"ingest of {name!r} ({len(data)} bytes, {fmt})",
        )
        self.slowest = max(self.slowest, time.perf_counter() - started)
        self.peak = max(self.peak, rss_bytes() or 0)
        self.formats[fmt] += self.counting
        if outcome.error is None:
            assert isinstance(outcome.value, IngestResult)
            kind = "read"
        elif isinstance(outcome.error, InputError):
            assert name in str(outcome.error), f"{outcome.error!s} does not name {name!r}"
            kind = type(outcome.error).__name__
        else:
            raise AssertionError(
                f"ingest of {name!r} ({fmt}) raised {type(outcome.error).__name__}: {outcome.error}"
            ) from outcome.error
        self.outcomes[kind] += self.counting
        return kind

    def report(self, engine: OcrEngine, growth: Growth, **extra: object) -> None:
        FIGURES[f"{self.topic} [{engine.name}]"] = {
            "inputs": sum(self.formats.values()),
            "formats": dict(sorted(self.formats.items())),
            "outcomes": dict(sorted(self.outcomes.items())),
            "seed": SEED if LONG else "derandomized",
            "slowest call": f"{self.slowest:.2f} s",
            "RSS growth": str(growth),
            **extra,
        }


class Growth:
    """RSS growth over a first pass and, in the long run, over the same inputs again."""

    def __init__(self, first: int | None, second: int | None) -> None:
        self.first = first
        self.second = second

    def __str__(self) -> str:
        shown = mib(self.first)
        if self.second is None:
            return shown
        return f"{shown}; same inputs again: peak {mib(self.second)} above the first"


def measured(
    run: Callable[[], None], warm_up: Callable[[], None], engine: OcrEngine, tally: Tally
) -> Growth:
    """RSS growth over `run`, after `warm_up` has loaded what a first call loads; in the long
    run, `run` again (the same seeded inputs) must peak no higher than the first time."""
    warm_up()
    before = rss_bytes()
    tally.peak = 0
    run()
    middle = rss_bytes()
    first_peak = tally.peak
    repeat = None
    if LONG and first_peak:
        tally.counting, tally.peak = False, 0
        run()
        repeat = tally.peak - first_peak
        assert repeat < SECOND_PASS_BOUND, (
            f"the same inputs again peaked {mib(repeat)} higher than the first time"
        )
    if before is None or middle is None:
        return Growth(None, repeat)
    first = middle - before
    assert first < FIRST_PASS_BOUND, f"RSS grew by {mib(first)}"
    return Growth(first, repeat)


def _profiled(max_examples: int) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """The run's Hypothesis profile with `max_examples`; on a long run, the fixed seed too."""

    def apply(test: Callable[..., None]) -> Callable[..., None]:
        test = settings(settings.get_profile(PROFILE), max_examples=max_examples)(test)
        return seed(SEED)(test) if LONG else test

    return apply


def fuzz_mutations(
    ingestor: Ingestor, tally: Tally, pool: tuple[Seed, ...], max_examples: int
) -> Callable[[], None]:
    """The property that every mutation of a seed in `pool`, under any name, is read or
    refused (as `tally` checks it)."""

    @_profiled(max_examples)
    @given(case=mutated(pool), name=st.sampled_from(NAMES))
    def fuzz(case: tuple[Seed, bytes], name: str) -> None:
        tally.check(ingestor, case[1], name, case[0].format)

    return fuzz


def test_mutated_images_are_read_or_refused_with_an_input_error_naming_the_file(
    ingestor: Ingestor, engine: OcrEngine
) -> None:
    tally = Tally("ingest fuzz: mutated small images")
    pool = seeds()
    fuzz = fuzz_mutations(ingestor, tally, pool, examples(400, 6000))

    def warm_up() -> None:
        for original in pool[:12]:
            tally.check(ingestor, original.data, "warm-up.png", original.format)

    growth = measured(fuzz, warm_up, engine, tally)
    tally.report(engine, growth, seeds=len(pool))
    assert tally.outcomes["read"] > 0, "no mutated image decoded: the fuzz stops at the headers"


def test_mutated_and_truncated_samples_are_read_or_refused(
    ingestor: Ingestor, engine: OcrEngine
) -> None:
    tally = Tally("ingest fuzz: mutated and cut sample screenshots")
    pool = sample_seeds()
    fuzz = fuzz_mutations(ingestor, tally, pool, examples(40, 600))

    @_profiled(examples(60, 1000))
    @given(sample=st.sampled_from(pool), fraction=st.floats(0.0, 1.0, exclude_max=True))
    def cut(sample: Seed, fraction: float) -> None:
        data = sample.data[: int(len(sample.data) * fraction)]
        kind = tally.check(ingestor, data, sample.label, sample.format)
        assert kind != "read" or len(data) > 0

    def both() -> None:
        fuzz()
        cut()

    growth = measured(both, lambda: None, engine, tally)
    tally.report(engine, growth, seeds=len(pool))


def test_bytes_that_are_no_image_under_an_image_name_are_refused_naming_the_file(
    ingestor: Ingestor, engine: OcrEngine
) -> None:
    tally = Tally("ingest fuzz: non-image bytes")

    @_profiled(examples(200, 3000))
    @given(data=not_images(), name=st.sampled_from(NAMES))
    def fuzz(data: bytes, name: str) -> None:
        assert tally.check(ingestor, data, name) != "read"

    growth = measured(fuzz, lambda: None, engine, tally)
    tally.report(engine, growth)


@pytest.mark.parametrize("name", NAMES, ids=[f"name{n}" for n in range(len(NAMES))])
def test_zero_bytes_are_an_empty_input_error_naming_the_file(ingestor: Ingestor, name: str) -> None:
    with pytest.raises(EmptyInputError) as refused:
        ingestor.ingest_bytes(b"", name=name)
    assert name in str(refused.value)


@pytest.mark.parametrize("fmt", list(BOMBS))
@pytest.mark.parametrize("scale", ["over our limit", "over Pillow's", "the format's largest"])
def test_a_decompression_bomb_is_refused_from_its_header_in_each_format(
    ingestor: Ingestor, fmt: str, scale: str
) -> None:
    build, largest = BOMBS[fmt]
    side = {"over our limit": 8_000, "over Pillow's": 14_000, "the format's largest": largest}
    width = min(side[scale], largest)
    data = build(width, width)
    assert len(data) < 4096
    before = rss_bytes()
    outcome = bounded(lambda: ingestor.ingest_bytes(data, name=f"bomb.{fmt}"), 10.0, "bomb")
    after = rss_bytes()
    assert isinstance(outcome.error, ImageTooLargeError), outcome.error or outcome.value
    assert f"bomb.{fmt}" in str(outcome.error)
    if before is not None and after is not None:
        assert after - before < 64 * 2**20, f"the refusal grew RSS by {mib(after - before)}"


def test_a_real_png_bomb_is_refused_without_decoding_a_row(ingestor: Ingestor) -> None:
    # 12000 x 12000 zeros: 144 MB of pixels in about 140 kB, every row really compressed.
    data = png_bomb(12_000, 12_000, real=True)
    assert len(data) < 300_000
    before = rss_bytes()
    started = time.perf_counter()
    outcome = bounded(lambda: ingestor.ingest_bytes(data, name="zeros.png"), 10.0, "bomb")
    spent = time.perf_counter() - started
    after = rss_bytes()
    assert isinstance(outcome.error, ImageTooLargeError)
    assert "zeros.png" in str(outcome.error)
    assert spent < 2.0
    if before is not None and after is not None:
        assert after - before < 64 * 2**20
    FIGURES["ingest: real PNG bomb"] = {
        "file": f"{len(data):,} bytes for 12000x12000",
        "refused in": f"{spent * 1000:.0f} ms",
        "RSS growth": mib(None if before is None or after is None else after - before),
    }


@pytest.mark.parametrize(("width", "height"), [(7_100, 7_100), (60_000, 1_000), (1, 60_000_000)])
def test_giant_dimensions_over_the_pixel_limit_are_refused_with_the_limit(
    ingestor: Ingestor, width: int, height: int
) -> None:
    data = png_bomb(width, height)
    with pytest.raises(ImageTooLargeError, match=r"giant\.png: .*(over the limit|too many pixels)"):
        ingestor.ingest_bytes(data, name="giant.png")
