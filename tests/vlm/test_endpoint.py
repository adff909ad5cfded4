"""The model endpoint's retries: jittered exponential backoff, and a server's Retry-After."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import httpx
import pytest

from pipeline.errors import VlmError
from pipeline.vlm.endpoint import RETRY_AFTER_MAX_S, ChatEndpoint, retry_after_s

URL = "http://127.0.0.1:8000/v1"
OK = {"choices": [{"message": {"role": "assistant", "content": "fine"}}]}


class Recorder:
    """Stands in for `asyncio.sleep`: keeps the delays, waits for nothing."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def endpoint(
    replies: list[httpx.Response], *, retries: int = 2, jitter_s: float = 0.5, seed: int = 7
) -> tuple[ChatEndpoint, Recorder, list[httpx.Request]]:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return replies[min(len(seen) - 1, len(replies) - 1)]

    sleep = Recorder()
    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    made = ChatEndpoint(
        client=client, base_url=URL, retries=retries, jitter_s=jitter_s, sleep=sleep,
        rng=random.Random(seed),
    )  # fmt: skip
    return made, sleep, seen


async def test_the_backoff_is_jittered_within_its_bounds_and_differs_between_clients() -> None:
    schedules = []
    for seed in (1, 2):
        made, sleep, _ = endpoint([httpx.Response(503, text="busy")], retries=4, seed=seed)
        with pytest.raises(VlmError, match="HTTP 503"):
            await made.post({})
        for delay, base in zip(sleep.delays, [1.0, 2.0, 4.0, 8.0], strict=True):
            assert base <= delay <= base + 0.5
        schedules.append(sleep.delays)
    assert schedules[0] != schedules[1]


async def test_a_retry_after_in_seconds_is_waited_exactly_and_the_next_answer_used() -> None:
    made, sleep, seen = endpoint(
        [httpx.Response(429, headers={"Retry-After": "3"}), httpx.Response(200, json=OK)]
    )
    assert await made.post({}) == OK
    assert (sleep.delays, len(seen)) == ([3.0], 2)


async def test_a_retry_after_longer_than_a_minute_waits_a_minute() -> None:
    made, sleep, _ = endpoint(
        [httpx.Response(503, headers={"Retry-After": "3600"}), httpx.Response(200, json=OK)]
    )
    await made.post({})
    assert sleep.delays == [RETRY_AFTER_MAX_S]


async def test_a_refusal_that_is_not_transient_is_not_retried_whatever_it_asks() -> None:
    made, sleep, seen = endpoint([httpx.Response(400, headers={"Retry-After": "1"})])
    with pytest.raises(VlmError) as caught:
        await made.post({})
    assert (caught.value.status, sleep.delays, len(seen)) == (400, [], 1)


def test_retry_after_reads_seconds_and_http_dates_and_ignores_anything_else() -> None:
    now = datetime(2026, 12, 2, 8, 0, 0, tzinfo=UTC)
    assert retry_after_s("7", now=now) == 7.0
    assert retry_after_s("Wed, 02 Dec 2026 08:00:30 GMT", now=now) == 30.0
    assert retry_after_s("Wed, 02 Dec 2026 07:00:00 GMT", now=now) == 0.0
    assert retry_after_s("soon", now=now) is None
    assert retry_after_s(None) is None
