"""The `stockshot` command line. Entry point: reads settings, builds I/O, dispatches."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TextIO

from pipeline import __version__
from pipeline.errors import InputError, StockshotError
from pipeline.host.attachments import MERGE_MODES, MERGED_NAME
from pipeline.host.record import RunRecord
from pipeline.ingest import REQUESTABLE
from pipeline.models import IngestResult
from pipeline.settings import Settings

if TYPE_CHECKING:
    from servers.store import Store

__all__ = ["ingest_all", "main", "print_result", "print_run", "utc_now"]

Handler = Callable[[argparse.Namespace, Settings], int]
SubParsers = "argparse._SubParsersAction[argparse.ArgumentParser]"


def _registrars() -> list[Callable[[Any], None]]:
    # Each command group registers its own subcommands; the servers keep theirs.
    from pipeline import approvals_cli, bench, demo, profiles_cli, watch
    from pipeline.api import cli as api_cli
    from pipeline.evals import cli as evals_cli
    from pipeline.jobs import cli as jobs_cli
    from pipeline.ocr import models_cli
    from servers import cli as servers_cli

    return [
        _register_ingest,
        _register_run,
        demo.register,
        models_cli.register,
        servers_cli.register,
        approvals_cli.register,
        profiles_cli.register,
        api_cli.register,
        jobs_cli.register,
        watch.register,
        evals_cli.register,
        bench.register,
    ]


def _iso_datetime(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an ISO 8601 time (like 2026-11-27T09:14:52+08:00)"
        ) from None


def _register_ingest(sub: Any) -> None:
    parser = sub.add_parser(
        "ingest",
        help="read inventory screenshots into structured rows",
        description="Normalise, crop and OCR screenshots; print their tables (or JSON Lines).",
    )
    parser.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    parser.add_argument(
        "--strategy",
        choices=(*REQUESTABLE, "multi_image"),
        default=None,
        help="default: auto; multi_image reads each image alone and prints one merged view "
        "(one row per SKU and warehouse from its newest capture, with what changed)",
    )
    parser.add_argument("--engine", default=None, help="OCR engine (default: rapidocr)")
    parser.add_argument("--json", action="store_true", help="one JSON object per image per line")
    parser.add_argument(
        "--captured-at", type=_iso_datetime, default=None, help="capture time to use (ISO 8601)"
    )
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    parser.add_argument(
        "--columns",
        default=None,
        metavar="FIELD=HEADER,...",
        help="the column mapping to use, like 'on_hand=Free stock,reorder_point=Reorder level' "
        "(fields: sku, name, on_hand, reorder_point, warehouse_id); unmentioned columns keep "
        "their typed roles",
    )
    parser.add_argument(
        "--save-profile",
        nargs="?",
        const="",
        default=None,
        metavar="NAME",
        help="keep the --columns mapping for this screen's table (its header signature): the "
        "next screenshot of the same screen maps the same way (stockshot profiles list)",
    )
    parser.set_defaults(handler=_ingest)


def _ingest(args: argparse.Namespace, settings: Settings) -> int:
    from pipeline.bootstrap import build_ingestor, open_store, utc_now
    from pipeline.profiles import StoreProfiles
    from pipeline.table.profiles import parse_columns

    columns = parse_columns(args.columns) if args.columns else None
    if args.save_profile is not None and columns is None:
        raise InputError("--save-profile keeps a --columns mapping: give --columns too")
    store = open_store(settings)
    profiles = StoreProfiles(store, clock=utc_now)
    ingestor = build_ingestor(
        settings, engine=args.engine, use_cache=not args.no_cache, profiles=profiles
    )
    failed = 0
    merging = args.strategy == "multi_image"
    results: list[IngestResult] = []
    try:
        for path in args.images:
            try:
                result = ingestor.ingest_path(
                    path,
                    caller_time=args.captured_at,
                    strategy=None if merging else args.strategy,
                    columns=columns,
                )
                if args.save_profile is not None and columns is not None:
                    profile = profiles.save(
                        result.table.header, columns, name=args.save_profile, by="cli"
                    )
                    print(f"saved profile {profile.signature} for {path.name}", file=sys.stderr)
            except InputError as exc:
                failed += 1
                print(f"stockshot: error: {exc}", file=sys.stderr)
                continue
            if merging:
                results.append(result)
            elif args.json:
                print(result_json(result), flush=True)
            else:
                print_result(result, sys.stdout)
    finally:
        if ingestor.cache is not None:
            ingestor.cache.close()
        store.close()
    if merging and results:
        from pipeline.table.merge import merge_results

        view = merge_results(results)
        if args.json:
            print(view.model_dump_json(), flush=True)
        else:
            print(view.text)
    return 1 if failed else 0


def result_json(result: IngestResult) -> str:
    data = result.model_dump(mode="json")
    if data.get("image") is None:
        data.pop("image", None)
    return json.dumps(data, ensure_ascii=False)


def print_result(result: IngestResult, out: TextIO) -> None:
    out.write(
        f"{result.file}\n  captured {result.captured_at.isoformat(timespec='seconds')} "
        f"({result.captured_at_source}, {result.age_s / 3600:.1f} h ago) · {result.strategy} · "
        f"{result.engine} · cache {result.cache} · {result.timings_ms.get('total', 0):.0f} ms · "
        f"tokens {result.tokens.sent} sent vs {result.tokens.full_page_image} for the image\n"
    )
    for warning in result.warnings:
        out.write(f"  ! {warning}\n")
    header: tuple[str, ...]
    table: list[tuple[str, ...]]
    if result.rows:
        header = ("sku", "name", "on_hand", "reorder_point", "warehouse_id", "low")
        table = [
            (
                r.sku or "",
                (r.name or "")[:40],
                "" if r.on_hand is None else str(r.on_hand),
                "" if r.reorder_point is None else str(r.reorder_point),
                r.warehouse_id or "",
                "LOW" if r.is_low else "",
            )
            for r in result.rows
        ]
    else:
        header = tuple(result.table.header)
        table = [tuple(row) for row in result.table.cells]
    widths = [max(len(str(v)) for v in col) for col in zip(header, *table, strict=False)]
    for values in (header, *table):
        cells = (str(v).ljust(w) for v, w in zip(values, widths, strict=False))
        out.write("  " + "  ".join(cells).rstrip() + "\n")
    out.write("\n")


def _guard_switch(text: str) -> tuple[str, bool]:
    name, _, value = text.partition("=")
    value = value.strip().lower()
    if value not in ("on", "off", "true", "false"):
        raise argparse.ArgumentTypeError(f"{text!r}: write NAME=off or NAME=on")
    return name.strip(), value in ("on", "true")


def _register_run(sub: Any) -> None:
    parser = sub.add_parser(
        "run",
        help="run the agent on a task over screenshots",
        description="Ingest the screenshots, then let the model act through the tool servers.",
    )
    parser.add_argument("--task", required=True, help='e.g. "raise orders for low SKUs"')
    parser.add_argument("--image", nargs="*", type=Path, default=[], metavar="IMG")
    parser.add_argument("--model", default=None, help="rules | openai:NAME | scripted:PATH")
    parser.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint")
    parser.add_argument("--strategy", choices=REQUESTABLE, default=None)
    parser.add_argument(
        "--merge",
        choices=MERGE_MODES,
        default="auto",
        help="several inventory screenshots as one merged table, newest capture per SKU and "
        "warehouse (auto: when every row names its warehouse)",
    )
    parser.add_argument("--dry-run", action="store_true", help="record write calls, run none")
    approval = parser.add_mutually_exclusive_group()
    approval.add_argument(
        "--approve",
        action="store_true",
        help="queue the writes as proposals for `stockshot approvals` (or the dashboard)",
    )
    approval.add_argument(
        "--ask", action="store_true", help="ask y/N at this terminal for each write, after the run"
    )
    parser.add_argument(
        "--guard", action="append", type=_guard_switch, default=[], metavar="NAME=off"
    )
    parser.add_argument("--json", action="store_true", help="print the run record as JSON")
    parser.set_defaults(handler=_run)


def ingest_all(
    settings: Settings, paths: Sequence[Path], strategy: str | None
) -> list[IngestResult]:
    from pipeline.bootstrap import build_ingestor

    if not paths:
        return []
    ingestor = build_ingestor(settings)
    try:
        return [ingestor.ingest_path(p, strategy=strategy) for p in paths]
    finally:
        if ingestor.cache is not None:
            ingestor.cache.close()


def utc_now() -> datetime:
    from pipeline.bootstrap import utc_now as now

    return now()


def _run(args: argparse.Namespace, settings: Settings) -> int:
    import asyncio

    from pipeline.bootstrap import approval_policy, open_store, proposal_queue, run_agent

    if args.ask and not sys.stdin.isatty():
        raise InputError(
            "--ask needs a terminal to ask at; use --approve and `stockshot approvals` instead"
        )
    flag: Literal["manual"] | None = "manual" if args.approve or args.ask else None
    manual = approval_policy("run", settings, flag) == "manual" and not args.dry_run
    results = ingest_all(settings, args.image, args.strategy)
    store = open_store(settings) if manual else None
    try:
        record = asyncio.run(
            run_agent(
                settings,
                task=args.task,
                results=results,
                model_spec=args.model,
                base_url=args.base_url,
                dry_run=args.dry_run,
                guard_overrides=dict(args.guard),
                proposals=proposal_queue(settings, store) if store is not None else None,
                merge=args.merge,
            )
        )
        if args.json:
            print(record.model_dump_json())
        else:
            print_run(record, results, sys.stdout)
            print(f"(run {record.id} appended to {settings.resolved_run_log()})")
        if store is not None and record.proposals:
            _after_proposals(args, settings, store, record)
    finally:
        if store is not None:
            store.close()
    return 0 if record.status == "done" else 1


def _after_proposals(
    args: argparse.Namespace, settings: Settings, store: Store, record: RunRecord
) -> None:
    import asyncio

    from pipeline.approvals import ApprovalDesk
    from pipeline.approvals_cli import ask_each
    from pipeline.bootstrap import server_targets, utc_now

    ids = [p.id for p in record.proposals]
    if not args.ask:
        if not args.json:
            print(
                f"{len(ids)} write(s) wait for approval: stockshot approvals approve "
                f"{' '.join(ids)}  (or deny, or the dashboard's approvals inbox)"
            )
        return
    desk = ApprovalDesk(store, server_targets(settings, ["orders"]), clock=utc_now)
    asyncio.run(ask_each(desk, ids, read=sys.stdin, out=sys.stdout))


def print_run(record: RunRecord, results: Sequence[IngestResult], out: TextIO) -> None:
    for result in results:
        low = sum(r.is_low for r in result.rows)
        out.write(
            f"screenshot {Path(result.file).name}: {len(result.rows)} rows, {low} low on screen, "
            f"captured {result.captured_at.isoformat(timespec='seconds')} "
            f"({result.captured_at_source}), {result.strategy}, cache {result.cache}\n"
        )
    for attachment in record.attachments:
        if attachment.name == MERGED_NAME:
            out.write(f"the model reads {attachment.description}\n")
    if record.task_contract is not None:
        out.write(f"task contract: {record.task_contract.summary()}\n")
        for note in record.task_contract.notes:
            out.write(f"  note: {note}\n")
    for reading in record.contract_readings:
        if reading.source == "model":
            said = reading.contract.summary() if reading.contract is not None else "none"
            out.write(
                f"  the model's reading: {said}{f' ({reading.note})' if reading.note else ''}\n"
            )
        elif reading.source == "final" and reading.note and reading.note != "given by the caller":
            out.write(f"  {reading.note}\n")
    mode = " · dry run" if record.dry_run else ""
    if record.approval == "manual":
        mode += " · writes wait for approval"
    out.write(f"model {record.model} · groups {', '.join(record.groups)}{mode}\n")
    events = {(e.hop, e.guard): e for e in record.guard_events}
    for event in events.values():
        out.write(f"  [hop {event.hop}] guard {event.guard}: {event.action}: {event.message}\n")
    for call in record.tool_calls:
        arguments = json.dumps(call.arguments, ensure_ascii=False)
        mark = "✗" if call.is_error else "·" if call.dry_run else "✓" if call.executed else "⏸"
        said = call.result if len(call.result) <= 160 else call.result[:157] + "..."
        out.write(f"  [hop {call.hop}] {mark} {call.name} {arguments}\n      -> {said}\n")
    by = " (written by the host, not the model)" if record.final_by == "host" else ""
    out.write(f"{record.status}{by}: {record.final}\n")
    if record.ledger_summary is not None:
        out.write(record.ledger_summary.text + "\n")
    for proposal in record.proposals:
        shown = json.dumps(proposal.arguments, ensure_ascii=False)
        out.write(f"  proposed {proposal.id}: {proposal.tool} {shown}\n")
    timings = record.timings_ms
    spent = ", ".join(f"{k} {timings.get(k, 0):.0f}" for k in ("model", "tools", "host"))
    out.write(f"({record.hops} hops, {timings.get('total', 0):.0f} ms: {spent})\n")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stockshot",
        description="Inventory screenshots in, verified and audited tool actions out.",
    )
    parser.add_argument("--version", action="version", version=f"stockshot {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for register in _registrars():
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args, Settings())
    except StockshotError as exc:
        print(f"stockshot: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
