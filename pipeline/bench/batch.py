"""Images per minute through a pool of worker processes, each with its own engine, beside one.

Configurations on an N-core machine: one process whose ONNX Runtime uses N intra-op threads
(what a single `stockshot` process does by default), one process with one thread, and N
processes with one intra-op thread each (N threads each would oversubscribe the cores). OpenCV
gets the same thread count as ONNX Runtime. All pools start, warm up on one image, and wait;
rounds then alternate between them, each round being every image once, longest first.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypedDict

from pipeline.bench.context import BenchContext
from pipeline.bench.document import CpuScaling
from pipeline.bench.profile import profiling
from pipeline.ingest import IngestConfig, Ingestor
from pipeline.ocr import EngineOptions, make_engine

__all__ = [
    "BatchConfig",
    "BatchResult",
    "configs_for",
    "cpu_scaling",
    "measure_batch",
    "peak_rss_mb",
]

_TIMEOUT_S = 600.0


@dataclass(frozen=True)
class BatchConfig:
    key: str
    processes: int
    threads: int

    @property
    def label(self) -> str:
        p = "process" if self.processes == 1 else "processes"
        t = "thread" if self.threads == 1 else "threads"
        return f"{self.processes} {p} x {self.threads} intra-op {t}"


@dataclass
class BatchResult:
    config: BatchConfig
    per_minute: list[float] = field(default_factory=list)
    wall_ms: list[float] = field(default_factory=list)
    busy_ms: list[float] = field(default_factory=list)
    peak_rss_mb: list[float] = field(default_factory=list)
    stage_ms_per_image: dict[str, float] = field(default_factory=dict)
    error: str | None = None


def configs_for(cores: int) -> list[BatchConfig]:
    return [
        BatchConfig("single_all_cores", 1, cores),
        BatchConfig("single_one_thread", 1, 1),
        BatchConfig("pool", cores, 1),
    ]


def peak_rss_mb(pid: int | str = "self") -> float | None:
    """VmHWM of a live process (Linux), in MB."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return None


class WorkerSummary(TypedDict):
    """What a worker reports as it exits: its peak memory, its profile, its image count."""

    rss: float
    stages: dict[str, float]
    images: int


Message = tuple[Literal["ready", "done", "exit", "error"], int, float | str | WorkerSummary]
"""What a worker says: ready (pid), done (index, ms), exit (pid, summary), error (pid, text)."""
if TYPE_CHECKING:  # the queue class takes no type arguments at run time
    from multiprocessing.queues import Queue

    Tasks = Queue[int | None]
    """Image indexes to ingest; None tells a worker to stop."""
    Answers = Queue[Message]


def _worker(
    engine: str,
    options: EngineOptions,
    config: IngestConfig,
    paths: list[Path],
    tasks: Tasks,
    results: Answers,
) -> None:
    """Warm up, then ingest what the queue hands out until told to stop; a light sampling
    profile (5 ms) runs in every worker alike, so the stages can be compared between pools."""
    try:
        import cv2

        cv2.setNumThreads(options.threads)
        ingestor = Ingestor(make_engine(engine, options), config=config, cache=None)
        ingestor.ingest_path(paths[0])
        results.put(("ready", os.getpid(), 0.0))
        done = 0
        with profiling("batch worker", interval=0.005) as profile:
            while True:
                item = tasks.get()
                if item is None:
                    break
                started = time.perf_counter()
                ingestor.ingest_path(paths[item])
                done += 1
                results.put(("done", item, (time.perf_counter() - started) * 1000))
        summary: WorkerSummary = {
            "rss": peak_rss_mb() or 0.0,
            "stages": dict(profile.stages),
            "images": done,
        }
        results.put(("exit", os.getpid(), summary))
    except Exception as exc:
        results.put(("error", os.getpid(), f"{type(exc).__name__}: {exc}"))


@dataclass
class _Pool:
    config: BatchConfig
    processes: list[BaseProcess]
    tasks: Tasks
    results: Answers


def _expect(pool: _Pool, kind: str, count: int) -> list[float | str | WorkerSummary]:
    """The payloads of the next `count` messages of `kind` (other kinds are skipped)."""
    got: list[float | str | WorkerSummary] = []
    deadline = time.monotonic() + _TIMEOUT_S
    while len(got) < count:
        try:
            message = pool.results.get(timeout=max(0.1, deadline - time.monotonic()))
        except queue.Empty:
            raise RuntimeError(f"{pool.config.label}: no answer in {_TIMEOUT_S:g} s") from None
        if message[0] == "error":
            raise RuntimeError(f"{pool.config.label}: worker failed: {message[2]}")
        if message[0] == kind:
            got.append(message[2])
    return got


def _times(pool: _Pool, count: int) -> list[float]:
    """The milliseconds of the next `count` ingests."""
    return [float(ms) for ms in _expect(pool, "done", count) if isinstance(ms, int | float)]


def _summaries(pool: _Pool) -> list[WorkerSummary]:
    """Each worker's summary as it exits."""
    found = _expect(pool, "exit", pool.config.processes)
    return [s for s in found if isinstance(s, dict)]


def measure_batch(
    ctx: BenchContext,
    paths: Sequence[Path],
    *,
    rounds: int,
    cores: int | None = None,
    engine: str = "rapidocr",
) -> list[BatchResult]:
    cores = cores or os.cpu_count() or 1
    spawn = multiprocessing.get_context("spawn")
    results = {c.key: BatchResult(c) for c in configs_for(cores)}
    pools: list[_Pool] = []
    config = ctx.config()
    try:
        for batch_config in configs_for(cores):
            tasks: Tasks = spawn.Queue()
            answers: Answers = spawn.Queue()
            options = ctx.engine_options(batch_config.threads)
            workers: list[BaseProcess] = [
                spawn.Process(
                    target=_worker,
                    args=(engine, options, config, list(paths), tasks, answers),
                    daemon=True,
                )
                for _ in range(batch_config.processes)
            ]
            for worker in workers:
                worker.start()
            pools.append(_Pool(batch_config, workers, tasks, answers))
        for pool in pools:
            _expect(pool, "ready", pool.config.processes)
        ctx.note(f"batch pools ready ({', '.join(p.config.label for p in pools)})")
        for r in range(rounds):
            for pool in pools[r % len(pools) :] + pools[: r % len(pools)]:
                started = time.perf_counter()
                for item in range(len(paths)):
                    pool.tasks.put(item)
                done = _times(pool, len(paths))
                wall = (time.perf_counter() - started) * 1000
                result = results[pool.config.key]
                result.wall_ms.append(wall)
                result.busy_ms.append(sum(done))
                result.per_minute.append(len(paths) / (wall / 60000))
        for pool in pools:
            for _ in pool.processes:
                pool.tasks.put(None)
            result = results[pool.config.key]
            stages: dict[str, float] = {}
            images = 0
            for summary in _summaries(pool):
                result.peak_rss_mb.append(float(summary["rss"]))
                images += int(summary["images"])
                for stage, seconds in summary["stages"].items():
                    stages[stage] = stages.get(stage, 0.0) + float(seconds)
            result.stage_ms_per_image = {k: v * 1000 / max(1, images) for k, v in stages.items()}
    except RuntimeError as exc:
        for result in results.values():
            result.error = result.error or str(exc)
    finally:
        for pool in pools:
            for worker in pool.processes:
                worker.join(timeout=10)
                if worker.is_alive():
                    worker.terminate()
                    worker.join(timeout=5)
    return list(results.values())


def _loop(count: int) -> float:
    started = time.perf_counter()
    total = 0
    for i in range(count):
        total += i * i
    return time.perf_counter() - started


def cpu_scaling(cores: int | None = None, loops: int = 12_000_000) -> CpuScaling:
    """What N plain Python loops at once get from the machine right now, against one alone:
    the most any pool can scale by while other work shares the cores."""
    cores = cores or os.cpu_count() or 1
    with multiprocessing.get_context("spawn").Pool(cores) as pool:
        pool.map(_loop, [1] * cores, chunksize=1)
        alone = pool.apply(_loop, (loops,))
        together = max(pool.map(_loop, [loops] * cores, chunksize=1))
    return {"alone_s": alone, "together_s": together, "scaling": cores * alone / together}
