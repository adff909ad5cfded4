"""The provider half of an OpenAI-compatible model: one chat-completions URL, its key, and
what a request does when the endpoint fails.

A refused connection, a timeout and the statuses a busy or restarting server answers with
(408, 409, 425, 429, 5xx) are tried again, with exponential backoff (1, 2, 4, 8, 8 … s) plus
jitter, or after exactly the `Retry-After` the server asked for (up to a minute); a timeout
doubles the next attempt's timeout (a local server keeps generating the abandoned reply and
serves requests one at a time). Anything else is a `VlmError` at once, with the status and
body. The retry policy is tenacity's; the sleep is passed in.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import httpx
from tenacity import RetryCallState

from pipeline.errors import VlmError
from pipeline.models import JsonObject
from pipeline.retrying import retried

__all__ = ["RETRY_AFTER_MAX_S", "RETRY_STATUS", "ChatEndpoint", "retry_after_s"]

log = logging.getLogger(__name__)

RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
RETRY_AFTER_MAX_S = 60.0
"""The longest `Retry-After` honoured; a server asking for more gets that much."""


def retry_after_s(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds a `Retry-After` header asks to wait (a number or an HTTP date), or None."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    try:
        moment = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return max(0.0, (moment - (now or datetime.now(UTC))).total_seconds())


class _Retryable(Exception):
    """An attempt that may be tried again: the error to raise if it is the last one."""

    def __init__(self, error: VlmError, *, timed_out: bool = False, wait_s: float | None = None):
        super().__init__(str(error))
        self.error = error
        self.timed_out = timed_out
        self.wait_s = wait_s


class ChatEndpoint:
    """POSTs chat-completions payloads to `base_url` and hands back the JSON object."""

    def __init__(
        self,
        *,
        client: httpx.AsyncClient,
        base_url: str,
        api_key: str | None = None,
        timeout_s: float = 120.0,
        retries: int = 2,
        jitter_s: float = 0.5,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        rng: random.Random | None = None,
    ) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self._client = client
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._timeout = timeout_s
        self._retries = retries
        self._jitter = jitter_s
        self._sleep = sleep
        self._rng = rng or random.Random()

    async def post(self, payload: JsonObject) -> JsonObject:
        timeout = [self._timeout]

        def wait(state: RetryCallState) -> float:
            failure = _failure(state)
            if failure.wait_s is not None:
                return min(failure.wait_s, RETRY_AFTER_MAX_S)
            backoff = min(8.0, 0.5 * 2.0**state.attempt_number)
            jitter: float = self._rng.uniform(0.0, self._jitter) if self._jitter else 0.0
            return backoff + jitter

        def before_sleep(state: RetryCallState) -> None:
            failure = _failure(state)
            if failure.timed_out:
                timeout[0] *= 2
            log.warning(
                "model request failed (%s); retry %d of %d",
                failure.error, state.attempt_number, self._retries,
            )  # fmt: skip

        try:
            return await retried(
                lambda: self._attempt(payload, timeout[0]),
                attempts=self._retries + 1,
                retry_on=_Retryable,
                wait=wait,
                sleep=self._sleep,
                before_sleep=before_sleep,
            )
        except _Retryable as exc:
            raise exc.error from exc.__cause__

    async def _attempt(self, payload: JsonObject, limit_s: float) -> JsonObject:
        try:
            response = await self._client.post(
                self.url, json=payload, headers=self._headers, timeout=limit_s
            )
        except httpx.TimeoutException as exc:
            error = VlmError(f"model endpoint {self.url} did not answer within {limit_s:g} s")
            raise _Retryable(error, timed_out=True) from exc
        except httpx.HTTPError as exc:
            error = VlmError(f"cannot reach model endpoint {self.url}: {exc}")
            raise _Retryable(error) from exc
        if response.status_code >= 400:
            error = VlmError(
                f"model endpoint {self.url} returned HTTP {response.status_code}: "
                f"{response.text[:300]}",
                status=response.status_code,
                body=response.text[:2000],
            )
            if response.status_code not in RETRY_STATUS:
                raise error
            raise _Retryable(error, wait_s=retry_after_s(response.headers.get("retry-after")))
        try:
            body = response.json()
        except (ValueError, RecursionError):
            raise VlmError(
                f"model endpoint {self.url} answered with invalid JSON",
                status=response.status_code,
                body=response.text[:2000],
            ) from None
        if not isinstance(body, dict):
            raise VlmError(
                f"model endpoint {self.url} answered with a non-object",
                status=response.status_code,
                body=response.text[:2000],
            )
        return body


def _failure(state: RetryCallState) -> _Retryable:
    assert state.outcome is not None
    failure = state.outcome.exception()
    assert isinstance(failure, _Retryable)
    return failure
