"""The scale-out measurements (reports/scale.md): the embedded SQLite setup beside 2 API
processes and 3 worker processes on one PostgreSQL, on this machine.

    make scale        (or: .venv/bin/python scripts/scale.py [--out reports])

It starts a throwaway PostgreSQL cluster (Debian's postgresql-15, as the tests do), seeds
the demo catalogue, and starts real `stockshot serve` and `stockshot worker` processes:

1. 200 concurrent ingests (20 misses, 180 hits), once against one SQLite `stockshot serve`
   (jobs in its own process) and once spread over 2 API processes with 3 workers;
2. 50 concurrent runs replenishing the same five low SKUs (approval auto), started on one
   API and read back from the other: orders per SKU and warehouse must be exactly one;
3. a worker killed with SIGKILL while it holds OCR jobs, and another while it executes
   runs: every upload still answered, every run finished, no order doubled;
4. ingest throughput of 1 and of 2 worker processes on new images, and what one worker
   costs (start-up time, resident memory, seconds per image).

Writes scale.json and scale.md into --out. Exit status 1 when an expectation failed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from load_ingest import one_round, rss_kib  # noqa: E402
from scale_report import checks, markdown  # noqa: E402

from servers import catalog, domain  # noqa: E402
from store.models import OrderQuery  # noqa: E402
from store.stores import open_store  # noqa: E402
from tests.postgres import find_bin_dir, running_cluster  # noqa: E402

KEY = "scale-key"
SAMPLE = ROOT / "samples" / "erp-light-wh01.png"
TASK = "find the SKUs that are low and raise replenishment orders"
SEEDED_AT = "2026-11-27T09:00:00+08:00"


class Proc:
    """A `stockshot` command as its own process, its stderr kept."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pipeline.cli", *args],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.append(line)

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        self._reader.join(timeout=10)

    def kill(self) -> None:
        os.kill(self.pid, signal.SIGKILL)
        self.process.wait(timeout=30)


def env_for(store_url: str, data: Path, **more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("STOCKSHOT_")}
    return env | {
        "STOCKSHOT_DATA_DIR": str(data),
        "STOCKSHOT_DATABASE_URL": store_url,
        "STOCKSHOT_API_KEYS": KEY,
        "STOCKSHOT_TIMEZONE": "Asia/Shanghai",
        "STOCKSHOT_APPROVAL": "auto",
        "STOCKSHOT_WORKER_HEARTBEAT_S": "1",
        **{f"STOCKSHOT_{k.upper()}": v for k, v in more.items()},
    }


def serve(env: dict[str, str]) -> tuple[Proc, str]:
    proc = Proc(["serve", "--port", "0"], env)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        for line in proc.lines:
            found = re.search(r"stockshot serve: (http://\S+/)", line)
            if found:
                return proc, found.group(1).rstrip("/")
        if proc.process.poll() is not None:
            raise SystemExit(f"stockshot serve exited: {''.join(proc.lines)}")
        time.sleep(0.1)
    raise SystemExit("stockshot serve did not start within 180 s")


def workers_registered(url: str) -> set[int]:
    """The ids of the workers registered now (a dead one stays until another prunes it)."""
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute("SELECT id FROM procrastinate_workers").fetchall()
    return {int(row[0]) for row in rows}


def start_worker(env: dict[str, str], store_url: str, concurrency: int = 2) -> tuple[Proc, float]:
    """A worker process, once it has registered itself (a new id, not a count: a dead
    worker's row may be pruned at the same moment)."""
    before = workers_registered(store_url)
    proc = Proc(["worker", "--concurrency", str(concurrency)], env)
    while not workers_registered(store_url) - before:
        if proc.process.poll() is not None:
            raise SystemExit(f"stockshot worker exited: {''.join(proc.lines)}")
        time.sleep(0.05)
    return proc, time.perf_counter() - proc.started


def seed(url: str) -> None:
    from datetime import datetime

    with open_store(url) as store:
        domain.seed(store, *catalog.seed_data(), now=datetime.fromisoformat(SEEDED_AT))


def open_orders(url: str) -> list[tuple[str, str]]:
    with open_store(url) as store:
        orders = domain.list_orders(store, OrderQuery(status="open", limit=10_000)).orders
    return [(o.sku, o.warehouse_id) for o in orders]


def cancel_open_orders(url: str) -> None:
    from datetime import UTC, datetime

    with open_store(url) as store:
        for order in domain.list_orders(store, OrderQuery(status="open", limit=10_000)).orders:
            domain.cancel_order(store, order.id, now=datetime.now(UTC))


def sql_one(url: str, query: str) -> Any:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(query).fetchone()
    return None if row is None else row[0]


def doing(url: str, task: str) -> bool:
    """Whether a worker holds a job of `task` now."""
    query = "SELECT count(*) FROM procrastinate_jobs WHERE status = 'doing' AND task_name = %s"
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(query, (task,)).fetchone()
    return bool(row and row[0])


async def until(check: Callable[[], bool], timeout_s: float = 120.0) -> None:
    """Poll `check` (off the loop) until it holds."""
    deadline = time.monotonic() + timeout_s
    while not await asyncio.to_thread(check):
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out after {timeout_s:g} s waiting for {check}")
        await asyncio.sleep(0.02)


async def ingest_load(
    urls: list[str], *, requests: int, misses: int, tag: int, image: bytes
) -> dict[str, Any]:
    """`requests` uploads at once over `urls` in turn; `misses` of them new bytes."""
    async with httpx.AsyncClient(timeout=600.0, headers={"X-API-Key": KEY}) as http:
        # Each API has the picture once before the load: hits are hits from the start.
        for url in urls:
            await http.post(f"{url}/v1/ingest", files={"file": ("warm.png", image, "image/png")})
    return await one_round(urls, KEY, image, requests, requests, misses, tag)


async def misses_only(urls: list[str], count: int, tag: int, image: bytes) -> dict[str, Any]:
    result = await ingest_load(urls, requests=count, misses=count, tag=tag, image=image)
    result["images_per_s"] = round(count / result["wall_s"], 2)
    return result


async def runs_load(
    start_url: str,
    read_url: str,
    count: int,
    *,
    kill: Proc | None = None,
    store_url: str = "",
    captured_at: str | None = None,
) -> dict[str, Any]:
    """`count` runs at once on `start_url` over the sample (captured at `captured_at`, else
    when its metadata says); each followed on `read_url`."""
    headers = {"X-API-Key": KEY}
    async with httpx.AsyncClient(timeout=600.0, headers=headers) as http:
        upload = await http.post(
            f"{start_url}/v1/ingest",
            files={"file": (SAMPLE.name, SAMPLE.read_bytes())},
            data={"captured_at": captured_at} if captured_at else {},
        )
        sample_id = upload.json()["results"][0]["id"]
        started = time.perf_counter()
        answers = await asyncio.gather(
            *(
                http.post(f"{start_url}/v1/runs", json={"task": TASK, "ingest_ids": [sample_id]})
                for _ in range(count)
            )
        )
        ids = [a.json()["id"] for a in answers if a.status_code == 202]
        killed_at = None
        if kill is not None:
            await until(lambda: doing(store_url, "stockshot.run"))
            kill.kill()
            killed_at = round(time.perf_counter() - started, 2)
        records: dict[str, dict[str, Any]] = {}
        while len(records) < len(ids):
            for run_id in ids:
                if run_id in records:
                    continue
                record = (await http.get(f"{read_url}/v1/runs/{run_id}")).json()
                if record["status"] not in ("queued", "running"):
                    records[run_id] = record
            await asyncio.sleep(0.2)
        wall = time.perf_counter() - started
    statuses: dict[str, int] = {}
    finals: dict[str, int] = {}
    for record in records.values():
        statuses[record["status"]] = statuses.get(record["status"], 0) + 1
        final = str(record["final"])[:160]
        finals[final] = finals.get(final, 0) + 1
    return {
        "runs": count,
        "accepted": len(ids),
        "statuses": statuses,
        "finals": finals,
        "wall_s": round(wall, 2),
        "killed_after_s": killed_at,
    }


@contextlib.contextmanager
def processes() -> Iterator[list[Proc]]:
    running: list[Proc] = []
    try:
        yield running
    finally:
        for proc in running:
            proc.stop()


async def measure(cluster: Any, scratch: Path) -> dict[str, Any]:
    image = SAMPLE.read_bytes()
    report: dict[str, Any] = {"machine": {"cpus": os.cpu_count()}}

    # 1a. the embedded setup: one process, SQLite, jobs inside it
    sqlite_data = scratch / "sqlite"
    sqlite_data.mkdir()
    seed(str(sqlite_data / "stockshot.db"))
    with processes() as running:
        proc, url = serve(env_for(str(sqlite_data / "stockshot.db"), sqlite_data))
        running.append(proc)
        report["sqlite_ingest"] = await ingest_load(
            [url], requests=200, misses=20, tag=1, image=image
        )
        report["sqlite_ingest"]["rss_mib"] = round((rss_kib(proc.pid) or 0) / 1024)

    # 1b. 2 API processes, 3 workers, one PostgreSQL
    store_url = cluster.create_database()
    seed(store_url)
    data = scratch / "pg"
    data.mkdir()
    env = env_for(store_url, data)
    with processes() as running:
        apis = []
        for _ in range(2):
            proc, url = serve(env)
            running.append(proc)
            apis.append(url)
        workers = []
        for _ in range(3):
            proc, seconds = start_worker(env, store_url)
            running.append(proc)
            workers.append(proc)
        report["pg_ingest"] = await ingest_load(apis, requests=200, misses=20, tag=2, image=image)
        report["pg_ingest"]["cache_rows"] = sql_one(
            store_url, "SELECT count(*) FROM stockshot_ingest_cache"
        )

        # 2. 50 runs on the same SKUs, started on one API, read on the other
        runs = await runs_load(apis[0], apis[1], 50)
        orders = open_orders(store_url)
        runs["orders"] = len(orders)
        runs["distinct_sku_warehouse"] = len(set(orders))
        report["runs"] = runs

        # 3a. SIGKILL a worker while it holds OCR jobs (the only worker, so it holds them)
        for proc in workers[1:]:
            proc.stop()
        doomed = workers[0]
        uploads = asyncio.create_task(misses_only(apis, 12, tag=3, image=image))
        await until(lambda: doing(store_url, "stockshot.ingest"))
        doomed.kill()
        replacement, _ = await asyncio.to_thread(start_worker, env, store_url)
        running.append(replacement)
        report["kill_ocr"] = await uploads

        # 3b. SIGKILL the worker while it executes runs. Stock is made low again first, and
        # the screenshot is a later capture: an order the planner keys by SKU, warehouse and
        # capture time would otherwise come back as the (cancelled) order of phase 2.
        await asyncio.to_thread(cancel_open_orders, store_url)
        doomed = replacement
        killed_runs = asyncio.create_task(
            runs_load(
                apis[1],
                apis[0],
                30,
                kill=doomed,
                store_url=store_url,
                captured_at="2026-11-28T10:30:00+08:00",
            )
        )
        await until(lambda: doomed.process.poll() is not None)
        replacement, _ = await asyncio.to_thread(start_worker, env, store_url)
        running.append(replacement)
        kill_runs = await killed_runs
        orders = open_orders(store_url)
        kill_runs["orders"] = len(orders)
        kill_runs["distinct_sku_warehouse"] = len(set(orders))
        kill_runs["retried_runs"] = sql_one(
            store_url,
            "SELECT count(DISTINCT run_id) FROM stockshot_run_events "
            "WHERE event->>'type' = 'run_retried'",
        )
        report["kill_runs"] = kill_runs
        replacement.stop()

        # 4. throughput of 1 and of 2 workers on new images, and one worker's cost
        sizing: dict[str, Any] = {}
        tag = 10
        for threads in ("0", "1"):  # 0: ONNX Runtime threads = cores (the default); 1: one
            for count in (1, 2):
                tag += 1
                started = []
                threaded = env | {"STOCKSHOT_OCR_THREADS": threads}
                for _ in range(count):
                    proc, seconds = start_worker(threaded, store_url, concurrency=1)
                    running.append(proc)
                    started.append((proc, seconds))
                result = await misses_only(apis, 20, tag=tag, image=image)
                result["start_s"] = [round(s, 2) for _, s in started]
                result["worker_rss_mib"] = [round((rss_kib(p.pid) or 0) / 1024) for p, _ in started]
                sizing[f"{count}_workers_threads_{threads}"] = result
                for proc, _ in started:
                    proc.stop()
        report["sizing"] = sizing
        report["api_rss_mib"] = [round((rss_kib(p.pid) or 0) / 1024) for p in running[:2]]
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "reports"))
    args = parser.parse_args(argv)
    bin_dir = find_bin_dir()
    if bin_dir is None:
        print("no PostgreSQL server binaries (apt-get install postgresql-15)", file=sys.stderr)
        return 2
    started = time.perf_counter()
    with running_cluster(bin_dir) as cluster, tempfile.TemporaryDirectory() as scratch:
        report = asyncio.run(measure(cluster, Path(scratch)))
    report["took_s"] = round(time.perf_counter() - started, 1)
    report["when"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    failed = checks(report)
    report["failed"] = failed
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "scale.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    (out / "scale.md").write_text(markdown(report, failed), encoding="utf-8")
    print(markdown(report, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
