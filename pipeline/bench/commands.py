"""Whole commands as a person waits for them, one process each, beside a plain `RapidOCR()`
process reading the same image in the same sitting. Every command takes its turns alongside
the others (in the reverse order every other turn), so a load that comes and goes falls on all
alike; each is judged by its best turn, as a ratio to the plain process's best turn.

- `hit`: `stockshot ingest IMAGE` of a screenshot already in the cache;
- `run`: `stockshot run` of the demo task with the `rules` model on that cached screenshot,
  against the demo catalogue (re-seeded before each turn, untimed, so every turn raises the
  same orders).

The commands run this checkout's code (`python -m pipeline.cli` from its root) in a data
folder of their own, filled (the cache, the catalogue) before the first turn, untimed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "COMMANDS",
    "DEMO_TASK",
    "PLAIN",
    "PLAIN_CODE",
    "CommandTimes",
    "cli",
    "measure_commands",
]

DEMO_TASK = "find the SKUs that are low and raise replenishment orders"
PLAIN = "plain RapidOCR"
PLAIN_CODE = "from rapidocr import RapidOCR; import sys; RapidOCR()(sys.argv[1])"
"""The peer: a new process that reads the image with rapidocr's defaults."""

COMMANDS: dict[str, tuple[str, ...]] = {
    "hit": ("ingest", "{image}"),
    "run": ("run", "--task", DEMO_TASK, "--model", "rules", "--image", "{image}"),
}
"""Each timed command's arguments after `python -m pipeline.cli`."""

ROOT = Path(__file__).resolve().parents[2]
"""This checkout: the commands import its code."""


def cli(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "pipeline.cli", *arguments]


@dataclass
class CommandTimes:
    image: str
    turns: int
    seconds: dict[str, list[float]] = field(default_factory=dict)
    """Each command's wall time per turn, the plain process's under `PLAIN`."""
    errors: dict[str, str] = field(default_factory=dict)
    """A command that failed: its exit and the end of what it printed."""

    def best(self, name: str) -> float | None:
        taken = self.seconds.get(name)
        return min(taken) if taken else None

    def vs_plain(self, name: str) -> float | None:
        """The command's best turn over the plain process's best turn."""
        ours, plain = self.best(name), self.best(PLAIN)
        return ours / plain if ours is not None and plain else None


def best_turns(times: dict[str, list[float]]) -> list[str]:
    """One line a label: its best turn, that over the plain process's best, every turn."""
    plain = min(times[PLAIN])
    lines = []
    for label, taken in times.items():
        best = min(taken)
        every = ", ".join(f"{t:.2f}" for t in taken)
        lines.append(f"{label:60} best {best:6.2f} s  {best / plain:5.2f}x  ({every})")
    return lines


def _failure(process: subprocess.CompletedProcess[bytes]) -> str:
    said = (process.stderr or b"").decode("utf-8", "replace").strip()[-300:]
    return f"exit {process.returncode}: {said}"


def _run(command: Sequence[str], env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        list(command), cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        check=False,
    )  # fmt: skip


def measure_commands(image: Path, *, turns: int, scratch: Path) -> CommandTimes:
    """`turns` turns of the plain process and of every command on `image`."""
    times = CommandTimes(image=image.name, turns=turns)
    with tempfile.TemporaryDirectory(dir=scratch, prefix="commands-") as data:
        env = {**os.environ, "STOCKSHOT_DATA_DIR": data}
        for prepare in (cli("store", "seed"), cli("ingest", str(image))):
            done = _run(prepare, env)
            if done.returncode != 0:
                times.errors[" ".join(prepare[3:5])] = _failure(done)
                return times
        jobs: list[tuple[str, list[str]]] = [(PLAIN, [sys.executable, "-c", PLAIN_CODE])]
        jobs += [
            (name, cli(*(a.format(image=image) for a in args))) for name, args in COMMANDS.items()
        ]
        jobs[0][1].append(str(image))
        for turn in range(turns):
            for name, command in jobs if turn % 2 == 0 else jobs[::-1]:
                if name in times.errors:
                    continue
                if name == "run":
                    _run(cli("store", "seed"), env)
                started = time.perf_counter()
                done = _run(command, env)
                taken = time.perf_counter() - started
                if done.returncode != 0:
                    times.errors[name] = _failure(done)
                    continue
                times.seconds.setdefault(name, []).append(round(taken, 3))
    return times
