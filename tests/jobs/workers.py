"""Real `stockshot worker`s for tests on PostgreSQL: one as a task of the test's own event
loop (lending the test's loaded OCR engine), or one as its own OS process."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import threading
import time
from collections.abc import AsyncIterator, Iterator

import psycopg

from pipeline.ingest import Ingestor
from pipeline.jobs.worker import serve_worker
from pipeline.settings import Settings
from tests.conftest import cli_env, cli_process, stop_process

__all__ = ["in_process_worker", "live_workers", "worker_process"]


def live_workers(url: str) -> set[int]:
    """The ids of the registered workers (a dead one's stays until another prunes it, so a
    new worker is a new id, not a higher count)."""
    with psycopg.connect(url, autocommit=True) as conn:
        exists = conn.execute("SELECT to_regclass('procrastinate_workers')").fetchone()
        if exists is None or exists[0] is None:
            return set()
        rows = conn.execute("SELECT id FROM procrastinate_workers").fetchall()
    return {int(row[0]) for row in rows}


@contextlib.asynccontextmanager
async def in_process_worker(
    settings: Settings, ingestor: Ingestor | None = None, *, concurrency: int = 4
) -> AsyncIterator[asyncio.Task[None]]:
    url = settings.store_url()
    before = await asyncio.to_thread(live_workers, url)
    task = asyncio.create_task(
        serve_worker(
            settings, concurrency=concurrency, install_signal_handlers=False, ingestor=ingestor
        )
    )
    deadline = time.monotonic() + 60
    while not await asyncio.to_thread(live_workers, url) - before:
        if task.done():
            task.result()
        assert time.monotonic() < deadline, "the worker did not start within 60 s"
        await asyncio.sleep(0.05)
    try:
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


@contextlib.contextmanager
def worker_process(
    store_url: str, data_dir: str, *, concurrency: str = "2", **settings: str
) -> Iterator[subprocess.Popen[str]]:
    """`stockshot worker` as its own process on the database `store_url`, started (it has
    registered itself) when the block begins; stopped with SIGTERM at the end."""
    env = cli_env(
        **{"data_dir": data_dir, "database_url": store_url, "timezone": "Asia/Shanghai", **settings}
    )
    before = live_workers(store_url)
    process = cli_process("worker", "--concurrency", concurrency, env=env)
    assert process.stderr is not None
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(process.stderr or ()), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 120
        while not live_workers(store_url) - before:
            assert process.poll() is None, f"the worker exited: {''.join(lines)}"
            assert time.monotonic() < deadline, f"the worker did not start: {''.join(lines)}"
            time.sleep(0.1)
        yield process
    finally:
        stop_process(process)
        reader.join(timeout=30)
        process.stderr.close()
