"""A cache hit from memory and from disk beside the miss that filled it, on the same image."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from pipeline.bench.context import BenchContext
from pipeline.ingest import IngestCache, Ingestor

__all__ = ["CacheTimings", "measure_cache"]


@dataclass
class CacheTimings:
    miss: list[float] = field(default_factory=list)
    memory: list[float] = field(default_factory=list)
    disk: list[float] = field(default_factory=list)
    states: list[str] = field(default_factory=list)


def measure_cache(ctx: BenchContext, rounds: int) -> CacheTimings | None:
    """Each round: a fresh cache folder, a miss, a memory hit, then a disk hit after reopening."""
    engine = ctx.engine("rapidocr")
    if engine is None:
        return None
    image = ctx.options.headline
    data = image.path.read_bytes()
    timings = CacheTimings()

    def timed(ingestor: Ingestor) -> tuple[float, str]:
        started = time.perf_counter()
        result = ingestor.ingest_bytes(data, name=image.name, strategy="table_ocr")
        return (time.perf_counter() - started) * 1000, result.cache

    for r in range(rounds + 1):
        folder = ctx.scratch / f"cache-{r}"
        with IngestCache(folder) as cache:
            ingestor = Ingestor(engine, config=ctx.config(), cache=cache)
            miss, miss_state = timed(ingestor)
            memory, memory_state = timed(ingestor)
        with IngestCache(folder) as reopened:
            disk, disk_state = timed(Ingestor(engine, config=ctx.config(), cache=reopened))
        if r == 0:
            continue  # warm-up
        timings.miss.append(miss)
        timings.memory.append(memory)
        timings.disk.append(disk)
        timings.states.append(f"{miss_state}/{memory_state}/{disk_state}")
    return timings
