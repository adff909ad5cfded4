"""Warm `table_ocr` ingest time per sample image, two or more versions of the code side by side
on one machine in one sitting. Each version runs in its own process, and the versions take
turns (in the reverse order every other turn), so a load that comes and goes on a shared
machine falls on all of them alike.

    git worktree add /tmp/then <commit>
    .venv/bin/python scripts/ingest_times.py --code /tmp/then --code . --turns 5 --rounds 2

Every version reads the same files: this checkout's samples (the bench's 18 images), or the
ones named with `--image` (a photo beside a clean page, a few real screens). Prints,
per image, each version's median over its turns and rounds and its ratio to the first
version; then the median of those ratios, and the totals with and without photos. A bench
report's figures come from one version at a time; these are the ones to compare versions by.

`--part rest` compares what is left of each reading once the OCR engine's calls (detection and
recognition), decoding and normalising are taken out: finding the table, typing its columns
and assembling the result. `--part all` (with `rest`, the default) is the whole ingest.
`--part finding` and `--part typing` (`finding+typing`: the two together) time the functions
by those names in whichever version runs (`FINDING`, `TYPING`; one a version lacks is not
timed), each call's own time: a call made inside another is its own part's, not its caller's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

A = TypeVar("A")
R = TypeVar("R")

FINDING = ("find_table", "split_merged", "read_cards")
"""Finding the table (or the blocks of a page of cards) among the text boxes."""
TYPING = ("to_rows", "split_fused")
"""Typing the columns (header and values) and reading rows from them."""


def _time_functions(parts: dict[str, tuple[str, ...]], spent: dict[str, float]) -> None:
    """Wrap every loaded `pipeline` module's function of these names, so that `spent[part]`
    adds up each call's own time (less the calls it makes to the other wrapped functions)."""
    stack: list[list[float]] = []
    wrappers: dict[int, Callable[..., object]] = {}

    def wrap(part: str, call: Callable[..., object]) -> Callable[..., object]:
        def wrapper(*args: object, **kwargs: object) -> object:
            stack.append([time.perf_counter(), 0.0])
            try:
                return call(*args, **kwargs)
            finally:
                start, inner = stack.pop()
                elapsed = time.perf_counter() - start
                spent[part] += elapsed - inner
                if stack:
                    stack[-1][1] += elapsed

        return wrapper

    for module in [m for n, m in sys.modules.items() if n.split(".")[0] == "pipeline"]:
        for part, names in parts.items():
            for name in names:
                call = getattr(module, name, None)
                if callable(call) and getattr(call, "__module__", "").startswith("pipeline"):
                    if id(call) not in wrappers:
                        wrappers[id(call)] = wrap(part, call)
                    setattr(module, name, wrappers[id(call)])


def _measure(images: list[str], rounds: int, out: Path) -> None:
    """In the version's own process: its `pipeline`, warm, each image `rounds` times. Each
    reading is split into the OCR engine's calls (detection and recognition), decoding and
    normalising (the ingest's own `load` and `normalise` timings), and the rest: finding the
    table, typing its columns and assembling the result."""
    from datetime import UTC

    from pipeline.ingest import IngestConfig, Ingestor
    from pipeline.ocr import EngineOptions, make_engine
    from pipeline.settings import Settings

    settings = Settings()
    engine = make_engine(
        "rapidocr",
        EngineOptions(threads=settings.ocr_threads, model_dir=settings.resolved_model_dir()),
    )
    in_engine = [0.0]

    def timed(call: Callable[[A], R]) -> Callable[[A], R]:
        def wrapper(arg: A) -> R:
            start = time.perf_counter()
            try:
                return call(arg)
            finally:
                in_engine[0] += time.perf_counter() - start

        return wrapper

    engine.recognize = timed(engine.recognize)  # type: ignore[method-assign,assignment]
    engine.read = timed(engine.read)  # type: ignore[method-assign,assignment]
    config = IngestConfig(
        max_bytes=settings.max_upload_bytes, max_pixels=settings.max_image_pixels, tz=UTC
    )
    ingestor = Ingestor(engine, config=config, cache=None)
    for image in images:
        ingestor.ingest_path(Path(image), strategy="table_ocr")
    spent = {"finding": 0.0, "typing": 0.0}
    _time_functions({"finding": FINDING, "typing": TYPING}, spent)  # every module loaded now
    times: dict[str, list[dict[str, float]]] = {image: [] for image in images}
    for _ in range(rounds):
        for image in images:
            in_engine[0] = 0.0
            spent.update(finding=0.0, typing=0.0)
            start = time.perf_counter()
            result = ingestor.ingest_path(Path(image), strategy="table_ocr")
            total = (time.perf_counter() - start) * 1000
            engine_ms = in_engine[0] * 1000
            prepare = sum(result.timings_ms.get(k, 0.0) for k in ("load", "normalise"))
            times[image].append(
                {
                    "all": total,
                    "engine": engine_ms,
                    "prepare": prepare,
                    "rest": total - engine_ms - prepare,
                    "finding": spent["finding"] * 1000,
                    "typing": spent["typing"] * 1000,
                    "finding+typing": (spent["finding"] + spent["typing"]) * 1000,
                }
            )
    out.write_text(json.dumps(times))


def _sample_images() -> list[str]:
    from pipeline.bench.images import collect

    return [str(image.path) for image in collect([], quick=False)]


PARTS = {
    "all": "The whole ingest",
    "rest": "Finding the table, typing its columns and assembling the result: the ingest less "
    "the OCR engine's calls, decoding and normalising",
    "engine": "The OCR engine's calls (detection and recognition)",
    "prepare": "Decoding and normalising",
    "finding": f"Finding the table: {', '.join(FINDING)}",
    "typing": f"Typing the columns: {', '.join(TYPING)}",
    "finding+typing": "Finding the table and typing its columns, together",
}


def _ratio(part: float, whole: float) -> float:
    return part / whole if whole else float("nan")


def _table(codes: list[Path], images: list[str], times: dict[Path, dict[str, list[float]]]) -> None:
    medians = {c: {i: statistics.median(t) for i, t in times[c].items()} for c in codes}
    first = codes[0]
    print(f"{'image':40}" + "".join(f"{c.name[:14]:>16}" for c in codes))
    for image in images:
        cells = [f"{medians[first][image]:9.1f} ms     "]
        cells += [
            f"{medians[c][image]:9.1f} ms {_ratio(medians[c][image], medians[first][image]):4.2f}x"
            for c in codes[1:]
        ]
        print(f"{Path(image).name[:40]:40}" + "".join(f"{cell:>16}" for cell in cells))
    for code in codes[1:]:
        ratios = [_ratio(medians[code][i], medians[first][i]) for i in images]
        renders = [i for i in images if "photo" not in Path(i).name]
        total = _ratio(sum(medians[code].values()), sum(medians[first].values()))
        rendered = _ratio(
            sum(medians[code][i] for i in renders), sum(medians[first][i] for i in renders)
        )
        print(
            f"{code}: median ratio {statistics.median(ratios):.3f}, "
            f"{sum(r > 1.1 for r in ratios)} of {len(ratios)} images over 1.10x; "
            f"total {total:.3f}x, renders only {rendered:.3f}x"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", action="append", type=Path, help="a checkout (repeat)")
    parser.add_argument("--turns", type=int, default=5, help="processes per version")
    parser.add_argument("--rounds", type=int, default=2, help="readings per image per turn")
    parser.add_argument(
        "--part",
        action="append",
        choices=sorted(PARTS),
        help="which part of each reading to compare (repeat; default: all and rest)",
    )
    parser.add_argument(
        "--image", action="append", type=Path, help="an image to time (repeat; default: samples)"
    )
    parser.add_argument("--measure", nargs=2, metavar=("IMAGES", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        _measure(json.loads(Path(args.measure[0]).read_text()), args.rounds, Path(args.measure[1]))
        return 0
    args.part = args.part or ["all", "rest"]
    codes: list[Path] = [c.resolve() for c in (args.code or [])]
    if len(codes) < 2:
        parser.error("name two or more checkouts with --code")
    images = [str(i.resolve()) for i in args.image] if args.image else _sample_images()
    times: dict[Path, dict[str, list[dict[str, float]]]] = {
        c: {i: [] for i in images} for c in codes
    }
    with tempfile.TemporaryDirectory() as tmp:
        listed = Path(tmp) / "images.json"
        listed.write_text(json.dumps(images))
        for turn in range(args.turns):
            # Every other turn in the reverse order: a machine that slows under a sustained
            # load (a burstable share of a host) would otherwise always favour the first.
            order = list(enumerate(codes))
            for k, code in order if turn % 2 == 0 else order[::-1]:
                out = Path(tmp) / f"{turn}-{k}.json"
                env = {**os.environ, "PYTHONPATH": str(code)}
                command = [sys.executable, __file__, "--rounds", str(args.rounds)]
                command += ["--measure", str(listed), str(out)]
                subprocess.run(command, cwd=code, env=env, check=True)
                for image, read in json.loads(out.read_text()).items():
                    times[code][image].extend(read)
    for part in args.part:
        print(f"\n{PARTS[part]}")
        _table(
            codes,
            images,
            {c: {i: [r[part] for r in t] for i, t in times[c].items()} for c in codes},
        )
        print(f"({args.turns} turns x {args.rounds} rounds per image, median per image)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
