"""Round-trip time of one read and one write tool call, in memory and over stdio.

    python -m servers.roundtrip [--calls 200] [--transport memory stdio] [--json]

Runs against a scratch store of synthetic low-stock SKUs, so every write really creates
an order. `measure()` is what a benchmark calls.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

from servers import domain
from servers.factory import build_server
from store.models import JsonObject, StockRecord
from store.stores import open_store

__all__ = ["READ_TOOL", "TRANSPORTS", "WRITE_TOOL", "RoundTrip", "measure"]

READ_TOOL = "inventory_query_stock"
WRITE_TOOL = "orders_create_replenishment"
TRANSPORTS = ("memory", "stdio")
_WAREHOUSE = "WH-01"
_WARMUP = 10


@dataclass(frozen=True)
class RoundTrip:
    transport: str
    tool: str
    calls: int
    median_ms: float
    p90_ms: float


async def measure(
    transports: Sequence[str] = TRANSPORTS, *, calls: int = 200, folder: Path | None = None
) -> list[RoundTrip]:
    """Median and 90th percentile of `calls` calls per tool and transport, after a warm-up."""
    with tempfile.TemporaryDirectory(prefix="stockshot-roundtrip-") as scratch:
        root = folder or Path(scratch)
        results: list[RoundTrip] = []
        for transport in transports:
            db = root / f"roundtrip-{transport}.db"
            _prepare(db, skus=calls + _WARMUP)
            if transport == "memory":
                with open_store(str(db)) as store:
                    async with Client(build_server("all", store)) as client:
                        results += await _time_tools(client, transport, calls)
            elif transport == "stdio":
                params = StdioServerParameters(
                    command=sys.executable,
                    args=["-m", "servers", "all", "--transport", "stdio"],
                    env={"STOCKSHOT_DATABASE_URL": str(db)},
                )
                async with Client(params) as client:
                    results += await _time_tools(client, transport, calls)
            else:
                raise ValueError(f"unknown transport {transport!r}; known: {TRANSPORTS}")
        return results


def _prepare(db: Path, *, skus: int) -> None:
    records = [
        StockRecord(
            sku=_sku(i),
            name=f"Round-trip item {i}",
            warehouse_id=_WAREHOUSE,
            on_hand=0,
            reorder_point=10,
            on_order=0,
        )
        for i in range(skus)
    ]
    with open_store(str(db)) as store:
        domain.import_records(store, records, now=datetime.now(UTC), source="roundtrip")


def _sku(i: int) -> str:
    return f"RT-{i:05d}"


async def _time_tools(client: Client, transport: str, calls: int) -> list[RoundTrip]:
    def read_args(i: int) -> JsonObject:
        return {"warehouse_id": _WAREHOUSE, "skus": [_sku(i)]}

    def write_args(i: int) -> JsonObject:
        return {"sku": _sku(i), "warehouse_id": _WAREHOUSE, "quantity": 10}

    results = []
    for tool, arguments in ((READ_TOOL, read_args), (WRITE_TOOL, write_args)):
        samples = []
        for i in range(_WARMUP + calls):
            started = time.perf_counter()
            result = await client.call_tool(tool, arguments(i))
            elapsed = time.perf_counter() - started
            if result.is_error:
                raise RuntimeError(f"{tool} failed during timing: {result.content}")
            if i >= _WARMUP:
                samples.append(elapsed * 1000)
        results.append(
            RoundTrip(
                transport=transport,
                tool=tool,
                calls=calls,
                median_ms=round(statistics.median(samples), 3),
                p90_ms=round(statistics.quantiles(samples, n=10)[-1], 3),
            )
        )
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m servers.roundtrip", description=__doc__)
    parser.add_argument("--calls", type=int, default=200, help="timed calls per tool (200)")
    parser.add_argument("--transport", nargs="+", choices=TRANSPORTS, default=list(TRANSPORTS))
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args(argv)
    if args.calls < 2:
        parser.error("--calls must be at least 2")
    results = anyio.run(lambda: measure(args.transport, calls=args.calls))
    for r in results:
        if args.json:
            print(json.dumps(asdict(r)))
        else:
            print(
                f"{r.transport:<7} {r.tool:<28} median {r.median_ms:8.3f} ms   "
                f"p90 {r.p90_ms:8.3f} ms   ({r.calls} calls)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
