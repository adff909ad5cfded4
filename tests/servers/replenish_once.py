"""One process asking for one replenishment, for the tests of concurrent writers.

    python -m tests.servers.replenish_once STORE_URL [IDEMPOTENCY_KEY]

Opens the store, prints `ready`, waits for a line on stdin (so that every process starts
its write at the same moment), asks for 100 of SKU-10232 in WH-01, and prints the outcome
as one JSON line: `{"created": …, "order_id": …}` or `{"refused": code}`.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime

from servers import domain
from servers.errors import Refused
from servers.models import ReplenishmentRequest
from store.stores import open_store


def main(argv: list[str]) -> int:
    url, key = argv[0], (argv[1] if len(argv) > 1 else None)
    request = ReplenishmentRequest(
        sku="SKU-10232", warehouse_id="WH-01", quantity=100, idempotency_key=key
    )
    with open_store(url) as store:
        print("ready", flush=True)
        sys.stdin.readline()
        try:
            result = domain.create_replenishment(
                store, request, max_quantity=1000, now=datetime.now(UTC)
            )
        except Refused as exc:
            outcome: dict[str, object] = {"refused": exc.code}
        else:
            outcome = {"created": result.created, "order_id": result.order.id}
    print(json.dumps(outcome), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
