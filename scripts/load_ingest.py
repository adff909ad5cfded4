"""Load on `POST /v1/ingest` of a running `stockshot serve`: N requests, C at once, a mix of
cache hits and misses; latencies, errors and the server's resident memory, as JSON.

    python scripts/load_ingest.py http://127.0.0.1:8000 --key KEY --requests 200 \\
        --concurrency 200 --misses 20 --pid $(pgrep -f 'stockshot serve') [--rounds 2]

A hit sends the bytes of IMAGE (the first request of a round makes them cached); a miss sends
the same picture with a text chunk that makes new bytes (a full analysis). The misses are
spread evenly through the requests. `--pid` reads the server's VmRSS from /proc before the
load and after each round (Linux). Exit status 1 when a request failed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import struct
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import httpx

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "erp-light-wh01.png"


def variant(png: bytes, n: int) -> bytes:
    """The same PNG picture with other bytes: a tEXt chunk after the header."""
    data = b"Comment\x00load " + str(n).encode("ascii")
    chunk = struct.pack(">I", len(data)) + b"tEXt" + data
    chunk += struct.pack(">I", zlib.crc32(b"tEXt" + data))
    return png[:33] + chunk + png[33:]


def rss_kib(pid: int | None) -> int | None:
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text(encoding="ascii").splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


async def one_round(
    urls: list[str],
    key: str | None,
    image: bytes,
    requests: int,
    concurrency: int,
    misses: int,
    tag: int,
) -> dict[str, Any]:
    """`requests` uploads, `concurrency` at a time, over `urls` in turn."""
    every = max(1, requests // misses) if misses else 0
    gate = asyncio.Semaphore(concurrency)
    by_kind: dict[bool, list[float]] = {True: [], False: []}
    statuses: dict[str, int] = {}
    caches: dict[str, int] = {}
    errors: list[str] = []
    headers = {"X-API-Key": key} if key else {}
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    timeout = httpx.Timeout(600.0, connect=60.0)

    async with httpx.AsyncClient(limits=limits, timeout=timeout, headers=headers) as http:

        async def send(n: int) -> None:
            miss = bool(every) and n % every == every // 2
            body = variant(image, tag * 1_000_000 + n) if miss else image
            async with gate:
                started = time.perf_counter()
                try:
                    response = await http.post(
                        f"{urls[n % len(urls)]}/v1/ingest",
                        files={"file": (f"load-{n}.png", body, "image/png")},
                    )
                except httpx.HTTPError as exc:
                    errors.append(f"{type(exc).__name__}: {exc}")
                    return
                by_kind[miss].append(time.perf_counter() - started)
            statuses[str(response.status_code)] = statuses.get(str(response.status_code), 0) + 1
            if response.status_code != 200:
                errors.append(f"HTTP {response.status_code}: {response.text[:200]}")
                return
            cache = response.json()["results"][0]["cache"]
            caches[cache] = caches.get(cache, 0) + 1

        started = time.perf_counter()
        await asyncio.gather(*(send(n) for n in range(requests)))
        wall = time.perf_counter() - started
    latencies = by_kind[False] + by_kind[True]
    return {
        "requests": requests,
        "concurrency": concurrency,
        "statuses": statuses,
        "cache": caches,
        "errors": len(errors),
        "first_errors": errors[:5],
        "wall_s": round(wall, 2),
        "throughput_rps": round(requests / wall, 1) if wall else None,
        "p50_ms": round(percentile(latencies, 0.50) * 1000, 1),
        "p95_ms": round(percentile(latencies, 0.95) * 1000, 1),
        "max_ms": round(max(latencies, default=0.0) * 1000, 1),
        "p95_hit_ms": round(percentile(by_kind[False], 0.95) * 1000, 1),
        "p95_miss_ms": round(percentile(by_kind[True], 0.95) * 1000, 1),
    }


async def run(args: argparse.Namespace, image: bytes) -> dict[str, Any]:
    report: dict[str, Any] = {"rss_kib_before": rss_kib(args.pid), "rounds": []}
    for tag in range(args.rounds):
        result = await one_round(
            [args.url.rstrip("/")],
            args.key,
            image,
            args.requests,
            args.concurrency,
            args.misses,
            tag + 1,
        )
        result["rss_kib_after"] = rss_kib(args.pid)
        report["rounds"].append(result)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url", help="the server's base URL, like http://127.0.0.1:8000")
    parser.add_argument("--key", default=None, help="an API key, when the server wants one")
    parser.add_argument("--image", default=str(SAMPLE))
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=200)
    parser.add_argument("--misses", type=int, default=20, help="requests with new bytes")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--pid", type=int, default=None, help="the server's pid, for its RSS")
    args = parser.parse_args(argv)
    report = asyncio.run(run(args, Path(args.image).read_bytes()))
    json.dump(report, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 1 if any(r["errors"] for r in report["rounds"]) else 0


if __name__ == "__main__":
    sys.exit(main())
