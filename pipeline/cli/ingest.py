"""`stockshot ingest`: read inventory screenshots into structured rows.

Normalise, crop and OCR screenshots; print their tables (or JSON Lines).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from pipeline.cli import Commands, command
from pipeline.cli.output import print_error, print_result, result_json
from pipeline.errors import InputError
from pipeline.ingest import REQUESTABLE
from pipeline.models import IngestResult
from pipeline.settings import Settings

__all__ = ["ingest_all", "register"]


def _iso_datetime(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an ISO 8601 time (like 2026-11-27T09:14:52+08:00)"
        ) from None


def register(commands: Commands) -> None:
    parser = command(commands, "ingest", __doc__)
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
    from pipeline.table import parse_columns

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
                print_error(exc)
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
        from pipeline.table import merge_results

        view = merge_results(results)
        if args.json:
            print(view.model_dump_json(), flush=True)
        else:
            print(view.text)
    return 1 if failed else 0


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
