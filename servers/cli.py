"""The `store`, `orders` and `servers` subcommands of `stockshot`.

Each handler reads `servers.settings` and opens the store itself. A `ServersError` (bad input,
a refused rule) or a `StoreError` (a store that cannot be used) becomes one line on stderr and
exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from datetime import timedelta
from pathlib import Path

from servers import catalog, domain
from servers.errors import InputError, ServersError
from servers.factory import ALL, GROUPS, ServerOptions, build_server, group_names
from servers.models import ImportSummary
from servers.settings import ServerSettings, load_settings
from servers.terminal import print_table
from servers.toolkit import utc_now
from store.errors import StoreError
from store.models import Order, OrderQuery
from store.protocol import OpenStore
from store.stores import StoreOptions, open_store

__all__ = ["add_serve_arguments", "register", "run", "serve"]

logger = logging.getLogger(__name__)

Handler = Callable[[argparse.Namespace, ServerSettings], int]


STORE_HELP = "import, export or seed the inventory store"
STORE_DESCRIPTION = (
    "The inventory store (STOCKSHOT_DATABASE_URL: a SQLite path or a "
    "postgresql:// URL; else STOCKSHOT_DB, default under the user data folder)."
)

IMPORT_HELP = "upsert stock rows from a CSV file"
IMPORT_DESCRIPTION = (
    "Upsert stock by SKU and warehouse from a CSV with the columns "
    f"{','.join(catalog.STOCK_COLUMNS)}, and optionally {', '.join(catalog.CODE_COLUMNS)} "
    "(the item's other codes, several separated by |, added to the item as written); "
    "unknown warehouses are created. A bad row is "
    "reported with its line number and nothing is written. on_order is what is on "
    "order outside stockshot; open orders created here add to it live."
)

EXPORT_HELP = "write the stock rows as CSV to standard output"
EXPORT_DESCRIPTION = "Write every stock row as CSV (the import columns) to standard output."

SEED_HELP = "load the demo catalogue (resets its rows)"
SEED_DESCRIPTION = (
    "Load the demo warehouses and stock that the sample screenshots show. "
    "Re-seeding resets those rows to the seed values and cancels their open orders."
)

SERVERS_HELP = "run the MCP tool servers"
SERVERS_DESCRIPTION = (
    "Run the MCP server of one tool group, or of all groups. Over HTTP, "
    "STOCKSHOT_MCP_TOKEN (when set) is required as a bearer token."
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `store`, `orders` and `servers` to the `stockshot` command line."""
    store = sub.add_parser("store", help=STORE_HELP, description=STORE_DESCRIPTION)
    actions = store.add_subparsers(dest="store_action", metavar="ACTION", required=True)
    importer = actions.add_parser("import", help=IMPORT_HELP, description=IMPORT_DESCRIPTION)
    importer.add_argument("file", help="CSV file, or - for standard input")
    importer.set_defaults(handler=_entry(_import))
    exporter = actions.add_parser("export", help=EXPORT_HELP, description=EXPORT_DESCRIPTION)
    exporter.set_defaults(handler=_entry(_export))
    seeder = actions.add_parser("seed", help=SEED_HELP, description=SEED_DESCRIPTION)
    seeder.set_defaults(handler=_entry(_seed))
    audit = actions.add_parser("audit", help="show the latest audited write attempts")
    audit.add_argument("--limit", type=int, default=20, help="entries to show (default 20)")
    audit.add_argument("--json", action="store_true", help="one JSON object per line")
    audit.set_defaults(handler=_entry(_audit))

    orders = sub.add_parser("orders", help="list replenishment orders")
    orders.add_argument("--json", action="store_true", help="one JSON object per line")
    orders.add_argument("--status", choices=["open", "cancelled"], help="only this status")
    orders.add_argument("--limit", type=int, default=1000, help="at most this many (newest)")
    orders.set_defaults(handler=_entry(_orders))

    servers = sub.add_parser("servers", help=SERVERS_HELP, description=SERVERS_DESCRIPTION)
    add_serve_arguments(servers)
    servers.set_defaults(handler=_entry(serve))


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "group",
        choices=[*GROUPS, ALL],
        help="tool group; 'all' serves every group (stdio: one server; HTTP: /<group>/mcp)",
    )
    parser.add_argument(
        "--transport",
        choices=["stdio", "http"],
        default="stdio",
        help="stdio (default) or streamable HTTP",
    )
    parser.add_argument("--host", default="127.0.0.1", help="HTTP bind address (127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (8000; 0 = any free)")


def run(handler: Handler, args: argparse.Namespace) -> int:
    """Run a handler with fresh settings, mapping our errors to a message and exit code."""
    try:
        return handler(args, load_settings())
    except (ServersError, StoreError) as exc:
        print(f"stockshot: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`stockshot store export | head`): not an error worth a trace.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def serve(args: argparse.Namespace, settings: ServerSettings) -> int:
    names = group_names(args.group)
    if args.transport == "http" and not 0 <= args.port <= 65535:
        raise InputError(f"--port must be from 0 to 65535, got {args.port}")
    _configure_logging()
    options = ServerOptions(
        max_order_quantity=settings.max_order_quantity,
        approval=settings.approval,
        approval_ttl=timedelta(seconds=settings.approval_ttl_s),
    )
    approval = "writes wait for approval" if settings.approval == "manual" else "writes run at once"
    with _open_store(settings) as store:
        if args.transport == "stdio":
            server = build_server(args.group, store, **options)
            _say(f"serving {', '.join(names)} over stdio; store {store.where}; {approval}")
            server.run("stdio")
            return 0

        # Imported here so that a stdio server does not pay for uvicorn at start-up.
        from servers.http_app import bind, build_http_app, serve_http

        servers = {name: build_server(name, store, **options) for name in names}
        token = settings.token()
        app = build_http_app(servers, token=token, host=args.host)
        try:
            sock = bind(args.host, args.port)
        except OSError as exc:
            reason = exc.strerror or exc
            raise InputError(f"cannot listen on {args.host} port {args.port}: {reason}") from None
        with sock:
            host = f"[{args.host}]" if ":" in args.host else args.host
            base = f"http://{host}:{sock.getsockname()[1]}"
            paths = ["/mcp"] if len(names) == 1 else [f"/{name}/mcp" for name in names]
            auth = "bearer token required" if token else "no token (STOCKSHOT_MCP_TOKEN unset)"
            _say(
                f"serving {', '.join(names)} over streamable HTTP at "
                f"{', '.join(base + path for path in paths)}; {auth}; store {store.where}; "
                f"{approval}"
            )
            serve_http(app, sock)
        return 0


def _entry(handler: Handler) -> Callable[[argparse.Namespace, object], int]:
    """Adapt a handler to the `stockshot` dispatcher, which passes its own settings."""

    def entry(args: argparse.Namespace, _settings: object) -> int:
        return run(handler, args)

    return entry


def _import(args: argparse.Namespace, settings: ServerSettings) -> int:
    source = "<stdin>" if args.file == "-" else args.file
    try:
        data = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {source}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{source} is not UTF-8 text (byte {exc.start})") from None
    try:
        records = catalog.parse_stock_csv(io.StringIO(text, newline=""))
    except InputError as exc:
        raise InputError(f"{source}: {exc}; nothing was imported") from None
    with _open_store(settings) as store:
        summary = domain.import_records(store, records, now=utc_now(), source=source)
        print(f"imported {source} into {store.where}: {_summary_text(summary)}")
    return 0


def _export(args: argparse.Namespace, settings: ServerSettings) -> int:
    with _open_store(settings) as store, store.reading() as tx:
        records = tx.stock_records()
    catalog.write_stock_csv(records, sys.stdout)
    return 0


def _seed(args: argparse.Namespace, settings: ServerSettings) -> int:
    warehouses, records = catalog.seed_data()
    with _open_store(settings) as store:
        summary = domain.seed(store, warehouses, records, now=utc_now())
        print(
            f"seeded {store.where} with the demo catalogue: {len(warehouses)} warehouses; "
            f"stock {_summary_text(summary)}"
        )
    return 0


def _audit(args: argparse.Namespace, settings: ServerSettings) -> int:
    with _open_store(settings) as store:
        entries = domain.audit_log(store, limit=max(args.limit, 1))
    for entry in reversed(entries):
        if args.json:
            print(entry.model_dump_json())
        else:
            run_id = f" run {entry.run_id}" if entry.run_id else ""
            print(
                f"{entry.at.isoformat()} {entry.outcome:<8} {entry.action}{run_id}: "
                f"{entry.reason}  {json.dumps(entry.arguments, ensure_ascii=False)}"
            )
    return 0


def _orders(args: argparse.Namespace, settings: ServerSettings) -> int:
    query = OrderQuery(status=args.status, limit=max(args.limit, 1))
    with _open_store(settings) as store:
        found = domain.list_orders(store, query).orders
    if args.json:
        for order in found:
            print(order.model_dump_json())
    elif not found:
        print("no orders")
    else:
        _print_orders(found)
    return 0


def _print_orders(found: Sequence[Order]) -> None:
    header = ("id", "sku", "warehouse_id", "quantity", "status", "created_at")
    rows = (
        (o.id, o.sku, o.warehouse_id, str(o.quantity), o.status, o.created_at.isoformat())
        for o in found
    )
    print_table(header, rows, sys.stdout)


def _summary_text(summary: ImportSummary) -> str:
    text = f"{summary.rows} rows ({summary.new_rows} new, {summary.updated_rows} updated)"
    if summary.new_items:
        text += f"; {len(summary.new_items)} new items"
    if summary.new_warehouses:
        text += f"; created warehouses {', '.join(summary.new_warehouses)}"
    if summary.cancelled_orders:
        text += f"; cancelled open orders {', '.join(summary.cancelled_orders)}"
    return text


def _open_store(settings: ServerSettings) -> OpenStore:
    return open_store(settings.store_url(), StoreOptions(busy_timeout_s=settings.busy_timeout_s))


def _configure_logging() -> None:
    logging.basicConfig(
        level=logging.WARNING,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("servers").setLevel(logging.INFO)


def _say(message: str) -> None:
    print(f"stockshot: {message}", file=sys.stderr, flush=True)
