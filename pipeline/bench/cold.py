"""A cold process start: a fresh `stockshot ingest` subprocess reading one image, timed whole.

Its peak RSS is measured in a separate run started by a small Python launcher: the kernel's
high-water mark of a child (`ru_maxrss`) includes the pages it shared with its parent between
fork and exec, and a bench process holding several engines would be counted in its place.
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

__all__ = [
    "ColdRun",
    "ColdStarts",
    "cold_command",
    "measure_cold",
    "peak_rss_of",
    "run_measured",
]


_LAUNCHER = (
    "import resource, subprocess, sys; "
    "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
    "stderr=subprocess.DEVNULL).returncode; "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if code == 0 else -1)"
)


@dataclass(frozen=True)
class ColdRun:
    wall_ms: float
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
    """Run to completion; wall time from spawn to exit."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.run(command, stdout=out, stderr=err, env=env, check=False)
        wall = (time.perf_counter() - started) * 1000
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
    return ColdRun(wall, process.returncode, ingest_ms, stderr[-2000:])


def peak_rss_of(command: list[str], env: dict[str, str] | None = None) -> float | None:
    """Peak RSS (MB) of `command` run to completion by a small launcher; None if it failed."""
    launched = subprocess.run(
        [sys.executable, "-c", _LAUNCHER, *command],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    try:
        kilobytes = int(launched.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None
    return kilobytes / 1024 if kilobytes > 0 else None


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
