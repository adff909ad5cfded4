"""Bounded calls and resident memory, for tests that must never hang or grow."""

from __future__ import annotations

import os
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


def bounded(call: Callable[[], T], timeout_s: float, what: str = "the call") -> Outcome[T]:
    """Run `call` in a daemon worker; its value or exception, or `Hang` after `timeout_s`.

    A daemon thread, so a call that never returns fails the test without holding up the
    process at exit."""
    outcome: Outcome[T] = Outcome()

    def work() -> None:
        try:
            outcome.value = call()
        except BaseException as exc:
            outcome.error = exc

    worker = threading.Thread(target=work, name="bounded", daemon=True)
    worker.start()
    worker.join(timeout_s)
    if worker.is_alive():
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
