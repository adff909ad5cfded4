"""`stockshot serve` as its own process on 127.0.0.1, with the settings a test gives it."""

from __future__ import annotations

import contextlib
import queue
import re
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from servers import catalog, domain
from store.stores import open_store, store_scheme
from tests.conftest import cli_env, cli_process, stop_process
from tests.host.conftest import SEEDED_AT
from tests.jobs.workers import worker_process

KEY = "test-key-1"


def seed(db: Path) -> Path:
    """The demo catalogue in a fresh store file; five of the sample's SKUs are low live."""
    seed_store(str(db))
    return db


def seed_store(url: str) -> str:
    """The demo catalogue in the store `url` names (a SQLite path or a database URL)."""
    with open_store(url) as store:
        domain.seed(store, *catalog.seed_data(), now=SEEDED_AT)
    return url


@dataclass
class Served:
    """`stockshot serve` running as its own process on 127.0.0.1."""

    url: str
    db: Path
    store_url: str
    process: subprocess.Popen[str]
    stderr: list[str] = field(default_factory=list)


def _drain(stream: IO[str], lines: list[str], first: queue.Queue[str]) -> None:
    for line in stream:
        lines.append(line)
        first.put(line)


@contextmanager
def serving(data: Path, store_url: str | None = None, **settings: str) -> Iterator[Served]:
    """Serve a seeded store (the SQLite file in `data`, or the one `store_url` names);
    `settings` are STOCKSHOT_* names without the prefix."""
    store_url = seed_store(store_url or str(data / "stockshot.db"))
    env = cli_env(
        **{
            "data_dir": str(data),
            "database_url": store_url,
            "api_keys": KEY,
            "timezone": "Asia/Shanghai",
            **settings,
        }
    )
    workers = contextlib.ExitStack()
    if store_scheme(store_url) == "postgresql":  # jobs go to a worker process
        workers.enter_context(worker_process(store_url, str(data), **settings))
    process = cli_process("serve", "--port", "0", env=env)
    assert process.stderr is not None
    lines: list[str] = []
    first: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=_drain, args=(process.stderr, lines, first), daemon=True)
    reader.start()
    try:
        url = None
        while url is None:
            try:
                line = first.get(timeout=120)
            except queue.Empty:
                raise AssertionError(f"stockshot serve did not start: {''.join(lines)}") from None
            match = re.search(r"stockshot serve: (http://\S+/)", line)
            url = match.group(1).rstrip("/") if match else None
        yield Served(
            url=url,
            db=data / "stockshot.db",
            store_url=store_url,
            process=process,
            stderr=lines,
        )
    finally:
        stop_process(process)
        reader.join(timeout=30)
        process.stderr.close()
        workers.close()
