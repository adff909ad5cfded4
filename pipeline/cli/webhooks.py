"""`stockshot webhooks list`: the log of what was sent to each webhook receiver.

The latest deliveries, newest first: the event, the receiver, whether it arrived, how many
attempts it took and the last error. Events and their log are kept for
STOCKSHOT_WEBHOOK_RETENTION_DAYS.
"""

from __future__ import annotations

import argparse
import json
import sys

from pipeline.cli import Commands, command, positive
from pipeline.settings import Settings

__all__ = ["register"]


def register(sub: Commands) -> None:
    parser = command(sub, "webhooks", __doc__)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="the latest deliveries, newest first")
    listing.add_argument("--limit", type=positive, default=50)
    listing.add_argument("--json", action="store_true", help="one delivery per line, as JSON")
    listing.set_defaults(handler=_list)


def _list(args: argparse.Namespace, settings: Settings) -> int:
    from pipeline.bootstrap import open_store
    from pipeline.webhooks import delivery_log
    from servers.terminal import print_table

    with open_store(settings) as store:
        logged = delivery_log(store, limit=args.limit)
    if args.json:
        for one in logged:
            row = one.delivery.model_dump(mode="json")
            row["tries"] = [
                {"at": at.isoformat(), "status_code": code, "error": error}
                for at, code, error in one.tries
            ]
            print(json.dumps(row, ensure_ascii=False))
        return 0
    if not logged:
        print(
            "no webhook deliveries"
            + ("" if settings.webhook_urls else " (STOCKSHOT_WEBHOOK_URLS is not set)")
        )
        return 0
    header = ["delivery", "event", "receiver", "status", "attempts", "last error"]
    rows = (
        [
            str(d.number),
            f"{d.event} #{d.event_number}",
            d.url,
            d.status,
            str(d.attempts),
            d.last_error or "",
        ]
        for d in (one.delivery for one in logged)
    )
    print_table(header, rows, sys.stdout)
    return 0
