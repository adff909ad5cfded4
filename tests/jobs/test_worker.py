"""The worker's own background loop ends when it is stopped, whatever the queue library made
of the cancellation."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from procrastinate import App

from pipeline.jobs.shared import stop
from pipeline.jobs.worker import _retry_stalled


class CancellationTurnedIntoAnError:
    """A job manager whose query, cancelled while it waits for a connection, raises its own
    error instead (what a connection pool can do): the first cancellation never reaches the
    loop."""

    def __init__(self) -> None:
        self.asked = asyncio.Event()
        self.calls = 0
        self.turned = False

    async def get_stalled_jobs(self, **_: Any) -> list[Any]:
        self.calls += 1
        self.asked.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            if self.turned:
                raise
            self.turned = True
            raise RuntimeError("the pool was closed while waiting for a connection") from None
        return []


class QueueApp:
    def __init__(self) -> None:
        self.job_manager = CancellationTurnedIntoAnError()


async def test_the_stalled_job_watcher_stops_when_its_query_swallowed_the_cancellation() -> None:
    app = QueueApp()
    watcher = asyncio.create_task(_retry_stalled(cast(App, app), 0.01, 0.03))
    await asyncio.wait_for(app.job_manager.asked.wait(), timeout=30)
    stopping = asyncio.create_task(stop(watcher))
    done, _ = await asyncio.wait({stopping}, timeout=30)
    assert stopping in done, "the watcher went on after it was stopped"
    assert app.job_manager.calls == 1  # it did not ask again after it was stopped
