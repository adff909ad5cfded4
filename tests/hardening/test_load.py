"""Load (long run only): 200 concurrent `POST /v1/ingest` against a real server on 127.0.0.1,
hits and misses mixed, three rounds: no errors, p95 reported, memory flat once warm (the last
round adds next to nothing to the one before)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.serve import KEY, serving
from tests.conftest import ROOT
from tests.hardening.conftest import FIGURES, SAMPLE

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
                "3",
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
    rounds = report["rounds"]
    for round_ in rounds:
        assert round_["errors"] == 0, round_["first_errors"]
        assert round_["statuses"] == {"200": REQUESTS}
    if report["rss_kib_before"] is not None:
        assert rounds[-1]["rss_kib_after"] - rounds[-2]["rss_kib_after"] < FLAT, report

    def each(key: str) -> list[Any]:
        return [r[key] for r in rounds]

    FIGURES["load: POST /v1/ingest"] = {
        "requests": f"{len(rounds)} rounds x {REQUESTS}, all at once, {MISSES} misses each",
        "errors": sum(r["errors"] for r in rounds),
        "p50 ms": each("p50_ms"),
        "p95 ms": each("p95_ms"),
        "p95 ms hits / misses": list(zip(each("p95_hit_ms"), each("p95_miss_ms"), strict=True)),
        "max ms": each("max_ms"),
        "cache": each("cache"),
        "RSS MiB before, after each round": [
            round(kib / 1024) for kib in [report["rss_kib_before"] or 0, *each("rss_kib_after")]
        ],
    }
