"""The worker's own background loop ends when it is stopped, whatever the queue library made
of the cancellation."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from pipeline.jobs.shared import Shared, stop
from pipeline.jobs.tasks import queue_app
from pipeline.jobs.worker import _retry_stalled


async def test_the_stalled_job_watcher_stops_when_its_query_swallowed_the_cancellation(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    Shared(postgres_url).close()  # the job tables and the queue's schema
    app = queue_app(postgres_url, max_connections=2)
    real_query = app.job_manager.get_stalled_jobs
    asked = asyncio.Event()
    calls: list[int] = []
    turned: list[bool] = []

    async def get_stalled_jobs(**kwargs: Any) -> Any:
        # The real query, then a wait (as for a pool's connection) in which the first
        # cancellation comes out as an error of the library's own.
        calls.append(len(list(await real_query(**kwargs))))
        asked.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            if turned:
                raise
            turned.append(True)
            raise RuntimeError("the pool was closed while waiting for a connection") from None

    monkeypatch.setattr(app.job_manager, "get_stalled_jobs", get_stalled_jobs)
    async with app.open_async():
        watcher = asyncio.create_task(_retry_stalled(app, 0.01, 0.03))
        await asyncio.wait_for(asked.wait(), timeout=30)
        stopping = asyncio.create_task(stop(watcher))
        done, _ = await asyncio.wait({stopping}, timeout=30)
        assert stopping in done, "the watcher went on after it was stopped"
    assert calls == [0]  # one look, nothing stalled, and none after it was stopped
