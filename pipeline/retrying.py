"""Calling an async operation again while it fails: tenacity's loop, with the caller's stop,
wait, sleep and log."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type, stop_after_attempt

__all__ = ["retried"]

T = TypeVar("T")


async def retried(
    attempt: Callable[[], Awaitable[T]],
    *,
    attempts: int,
    retry_on: type[Exception],
    wait: Callable[[RetryCallState], float],
    sleep: Callable[[float], Awaitable[None]],
    before_sleep: Callable[[RetryCallState], None],
) -> T:
    """What `attempt()` returns, calling it again while it raises `retry_on`, at most
    `attempts` times in all; the last failure is raised as it is, any other error at once."""
    retrying = AsyncRetrying(
        stop=stop_after_attempt(attempts),
        wait=wait,
        retry=retry_if_exception_type(retry_on),
        sleep=sleep,
        before_sleep=before_sleep,
        reraise=True,
    )
    async for state in retrying:
        with state:
            return await attempt()
    raise AssertionError("the retry loop ends with an answer or an error")
