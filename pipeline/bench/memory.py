"""Peak memory of the API process: `stockshot serve` started, made ready, sent one image."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from pipeline.bench.batch import peak_rss_mb

__all__ = ["ApiMemory", "measure_api", "serve_address"]

_READY_TIMEOUT_S = 120.0
_ADDRESS = re.compile(r"http://(\S+?):(\d+)/")


@dataclass(frozen=True)
class ApiMemory:
    measured: bool
    note: str
    after_ready_mb: float | None = None
    after_ingest_mb: float | None = None
    ingest_ms: float | None = None


def _serve_exists() -> bool:
    probe = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "serve", "--help"],
        capture_output=True,
        check=False,
        timeout=120,
    )
    return probe.returncode == 0


def serve_address(stderr: Path, process: subprocess.Popen[bytes], deadline: float) -> str | None:
    """The address a `stockshot serve` started with `--port 0` says it listens on, read from
    its log; None when it exits or says none before `deadline`."""
    while time.monotonic() < deadline and process.poll() is None:
        found = _ADDRESS.search(stderr.read_text(encoding="utf-8", errors="replace"))
        if found:
            return f"http://{found.group(1)}:{found.group(2)}"
        time.sleep(0.2)
    return None


def measure_api(scratch: Path, image: Path) -> ApiMemory:
    """VmHWM of the serve process after /readyz answers 200 and after one /v1/ingest."""
    if not _serve_exists():
        return ApiMemory(False, "not measured: this build has no `stockshot serve` command")
    env = {k: v for k, v in os.environ.items() if k != "STOCKSHOT_API_KEYS"}
    env["STOCKSHOT_DATA_DIR"] = str(scratch / "api-data")
    log = scratch / "serve.log"
    command = [sys.executable, "-m", "pipeline.cli", "serve", "--host", "127.0.0.1", "--port", "0"]
    with log.open("wb") as err:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err, env=env)
    try:
        deadline = time.monotonic() + _READY_TIMEOUT_S
        base = serve_address(log, process, deadline)
        if base is None:
            tail = log.read_text(encoding="utf-8", errors="replace")[-300:]
            return ApiMemory(False, f"not measured: `stockshot serve` did not start ({tail!r})")
        with httpx.Client(base_url=base, timeout=120) as client:
            while time.monotonic() < deadline:
                try:
                    if client.get("/readyz").status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.3)
            else:
                return ApiMemory(False, "not measured: /readyz did not answer 200 in time")
            ready = peak_rss_mb(process.pid)
            started = time.perf_counter()
            with image.open("rb") as handle:
                response = client.post(
                    "/v1/ingest",
                    files={"file": (image.name, handle, "application/octet-stream")},
                    data={"strategy": "table_ocr"},
                )
            took = (time.perf_counter() - started) * 1000
            after = peak_rss_mb(process.pid)
        if response.status_code != 200:
            return ApiMemory(
                False,
                f"partly measured: /v1/ingest answered {response.status_code}",
                after_ready_mb=ready,
            )
        return ApiMemory(True, "measured", ready, after, took)
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
