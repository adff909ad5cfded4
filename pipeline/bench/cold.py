"""A cold process start: a fresh `stockshot ingest` subprocess reading one image, timed whole.

Its peak RSS comes from the kernel's accounting of that child (`wait4`), not from sampling.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.bench.context import BenchContext

__all__ = ["ColdRun", "ColdStarts", "cold_command", "measure_cold", "run_measured"]


@dataclass(frozen=True)
class ColdRun:
    wall_ms: float
    peak_rss_mb: float
    returncode: int
    ingest_ms: float | None
    stderr: str


@dataclass
class ColdStarts:
    command: list[str]
    runs: list[ColdRun] = field(default_factory=list)

    @property
    def wall_ms(self) -> list[float]:
        return [r.wall_ms for r in self.runs if r.returncode == 0]

    @property
    def peak_rss_mb(self) -> list[float]:
        return [r.peak_rss_mb for r in self.runs if r.returncode == 0]


def cold_command(image: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "pipeline.cli",
        "ingest",
        "--no-cache",
        "--strategy",
        "table_ocr",
        "--json",
        str(image),
    ]


def run_measured(command: list[str], env: dict[str, str] | None = None) -> ColdRun:
    """Run to completion; wall time from spawn to exit, peak RSS of that child alone."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        wall = (time.perf_counter() - started) * 1000
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    ingest_ms = None
    for line in stdout.splitlines():
        try:
            ingest_ms = float(json.loads(line)["timings_ms"]["total"])
        except (ValueError, KeyError, TypeError):
            continue
    # ru_maxrss is in kilobytes on Linux.
    return ColdRun(wall, usage.ru_maxrss / 1024, process.returncode, ingest_ms, stderr[-2000:])


def measure_cold(ctx: BenchContext, rounds: int, *, warm_up: bool = True) -> ColdStarts:
    """An untimed start first (it fills the OS file cache), then `rounds` timed starts."""
    command = cold_command(ctx.options.headline.path)
    starts = ColdStarts(command)
    env = dict(os.environ)
    first = 0 if warm_up else 1
    for r in range(first, rounds + 1):
        run = run_measured(command, env)
        if r:
            starts.runs.append(run)
    return starts
