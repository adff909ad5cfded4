"""The job queue's task names and queues: the one place both sides spell them."""

from __future__ import annotations

__all__ = ["INGEST_TASK", "QUEUES", "RUN_TASK", "queue_app"]

from procrastinate import App, PsycopgConnector

INGEST_TASK = "stockshot.ingest"
RUN_TASK = "stockshot.run"
QUEUES = ("ingest", "runs")


def queue_app(url: str, *, max_connections: int = 10) -> App:
    """A Procrastinate app on the database `url`; open it before use (`open_async`)."""
    return App(connector=PsycopgConnector(conninfo=url, min_size=1, max_size=max_connections))
