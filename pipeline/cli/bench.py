"""`stockshot bench`: measure ingest, cache, tokens, batch and host side by side.

Measure every stage beside its alternative in one run (full-page OCR vs the table pipeline,
engine vs engine, cold vs warm, cache hit vs miss, tokens per tier, a process pool vs one
process, host overhead), judge the targets, and write OUT/bench.md and OUT/bench.json. A
standard run reads every image once and the peers on a subset (about ten minutes on two
cores); --full is the long run; --quick a smoke run. The report says which it is.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pipeline.bench.document import MODES, BenchMode
from pipeline.cli import Commands, command, positive
from pipeline.settings import Settings

__all__ = ["register"]


def register(sub: Commands) -> None:
    parser = command(sub, "bench", __doc__)
    parser.add_argument(
        "--images",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="also measure the images in DIR (ground truth from <file>.truth.json if present)",
    )
    parser.add_argument(
        "--tables",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="also read the table pictures in DIR (truth: NAME.csv beside NAME.jpg, header "
        "first) with the pipeline and its peers",
    )
    parser.add_argument(
        "--real-screens",
        type=Path,
        default=None,
        metavar="DIR",
        help="also read the real products' screenshots in DIR (truth.json and score.py beside "
        "them; the tuning and sealed split from corpus/real-screens/split.json)",
    )
    parser.add_argument(
        "--real-products",
        type=Path,
        default=None,
        metavar="DIR",
        help="also read real products' own screens rendered here (truth.json and split.json "
        "in DIR, e.g. corpus/real-products), scored by the scorer beside --real-screens",
    )
    parser.add_argument(
        "--repeat",
        type=positive,
        default=None,
        help="timed rounds on every image, of the batch and of the stdio runs (default 1, "
        "--full 2; the headline image, cache and host get at least 3, --full 5)",
    )
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument("--quick", action="store_true", help=MODES["quick"])
    kind.add_argument("--full", action="store_true", help=MODES["full"])
    parser.add_argument("--out", type=Path, default=Path("reports"), help="default: reports/")
    parser.set_defaults(handler=_bench)


def _bench(args: argparse.Namespace, settings: Settings) -> int:
    from pipeline.bench.context import BenchOptions
    from pipeline.bench.images import collect, headline
    from pipeline.bench.report import write_reports
    from pipeline.bench.run import run_bench

    mode: BenchMode = "quick" if args.quick else "full" if args.full else "standard"
    images = collect(args.images, quick=args.quick)
    repeat = args.repeat or (2 if mode == "full" else 1)
    options = BenchOptions(
        images=images,
        headline=headline(images),
        repeat=repeat,
        mode=mode,
        out=args.out,
        settings=settings,
        tables=args.tables,
        real_screens=args.real_screens,
        real_products=args.real_products,
    )
    argv = [
        *(f"--images {d}" for d in args.images),
        *(f"--tables {d}" for d in args.tables),
        *([f"--real-screens {args.real_screens}"] if args.real_screens else []),
        *([f"--real-products {args.real_products}"] if args.real_products else []),
        f"--repeat {repeat}",
    ]
    if mode != "standard":
        argv.append(f"--{mode}")
    doc = run_bench(options, argv=argv)
    md, js = write_reports(doc, args.out)
    print(md.read_text(encoding="utf-8"))
    print(f"\nwrote {md} and {js}")
    return 0
