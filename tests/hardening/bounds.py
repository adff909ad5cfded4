"""Bounded calls and resident memory, for tests that must never hang or grow."""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


class Hang(AssertionError):
    """A call did not return within its bound."""


@dataclass
class Outcome(Generic[T]):
    value: T | None = None
    error: BaseException | None = None


class _Worker:
    """One daemon thread that runs calls one at a time.

    One thread for the whole run, not one per call: the allocator gives each new thread its
    own arena, so a thread per call would measure arenas, not the code under test. A daemon,
    so a call that never returns fails its test without holding up the process at exit; the
    next call then gets a fresh worker."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        threading.Thread(target=self._serve, name="bounded", daemon=True).start()

    def _serve(self) -> None:
        while True:
            self._jobs.get()()

    def submit(self, job: Callable[[], None]) -> None:
        self._jobs.put(job)


_worker: _Worker | None = None
_worker_lock = threading.Lock()


def bounded(call: Callable[[], T], timeout_s: float, what: str = "the call") -> Outcome[T]:
    """Run `call` in the worker thread; its value or exception, or `Hang` after `timeout_s`."""
    global _worker
    outcome: Outcome[T] = Outcome()
    done = threading.Event()

    def job() -> None:
        try:
            outcome.value = call()
        except BaseException as exc:
            outcome.error = exc
        finally:
            done.set()

    with _worker_lock:
        if _worker is None:
            _worker = _Worker()
        worker = _worker
    worker.submit(job)
    if not done.wait(timeout_s):
        with _worker_lock:
            if _worker is worker:
                _worker = None  # stuck: the next call gets a fresh one
        raise Hang(f"{what} did not return within {timeout_s:g} s")
    return outcome


def rss_bytes() -> int | None:
    """This process's resident memory now (Linux), or None where /proc is not there."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:  # noqa: PTH123
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")


def mib(n: int | None) -> str:
    return "n/a" if n is None else f"{n / 2**20:.0f} MiB"
