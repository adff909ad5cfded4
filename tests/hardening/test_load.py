"""Load (long run only): 200 concurrent `POST /v1/ingest` against a real server on 127.0.0.1,
hits and misses mixed, twice: no errors, p95 reported, memory flat from one round to the next."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.conftest import ROOT
from tests.hardening.conftest import FIGURES, SAMPLE
from tests.hardening.serve import KEY, serving

REQUESTS = 200
MISSES = 20
FLAT = 64 * 1024  # KiB: what a second round may add on top of the first


@pytest.mark.harden_long
def test_two_hundred_concurrent_ingests_hold_without_errors_and_memory_stays_flat(
    tmp_path: Path,
) -> None:
    with serving(tmp_path / "data", api_workers="2") as server:
        # Warm up: the first analysis allocates the OCR engine's buffers.
        files = {"file": (SAMPLE.name, SAMPLE.read_bytes(), "image/png")}
        warm = httpx.post(
            f"{server.url}/v1/ingest", files=files, headers={"X-API-Key": KEY}, timeout=120
        )
        assert warm.status_code == 200
        done = subprocess.run(
            [
                sys.executable,
                str(ROOT / "scripts" / "load_ingest.py"),
                server.url,
                "--key",
                KEY,
                "--requests",
                str(REQUESTS),
                "--concurrency",
                str(REQUESTS),
                "--misses",
                str(MISSES),
                "--rounds",
                "2",
                "--pid",
                str(server.process.pid),
            ],
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=900,
            check=False,
        )
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    first, second = report["rounds"]
    for round_ in (first, second):
        assert round_["errors"] == 0, round_["first_errors"]
        assert round_["statuses"] == {"200": REQUESTS}
    if report["rss_kib_before"] is not None:
        assert second["rss_kib_after"] - first["rss_kib_after"] < FLAT, report
    FIGURES["load: POST /v1/ingest"] = {
        "requests": f"2 rounds x {REQUESTS}, {REQUESTS} at once, {MISSES} misses each",
        "errors": first["errors"] + second["errors"],
        "p50 ms": [first["p50_ms"], second["p50_ms"]],
        "p95 ms": [first["p95_ms"], second["p95_ms"]],
        "max ms": [first["max_ms"], second["max_ms"]],
        "cache": [first["cache"], second["cache"]],
        "RSS MiB before/after 1/after 2": [
            round((report["rss_kib_before"] or 0) / 1024),
            round((first["rss_kib_after"] or 0) / 1024),
            round((second["rss_kib_after"] or 0) / 1024),
        ],
    }
