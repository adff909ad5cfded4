"""The job queue's task names and queues: the one place both sides spell them."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from procrastinate import App

__all__ = ["INGEST_TASK", "QUEUES", "RUN_TASK", "queue_app"]

INGEST_TASK = "stockshot.ingest"
RUN_TASK = "stockshot.run"
QUEUES = ("ingest", "runs")


def queue_app(url: str, *, max_connections: int = 10) -> App:
    """A Procrastinate app on the database `url`; open it before use (`open_async`)."""
    from procrastinate import App, PsycopgConnector

    return App(connector=PsycopgConnector(conninfo=url, min_size=1, max_size=max_connections))
