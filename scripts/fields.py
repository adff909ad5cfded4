"""Inventory fields ingest reads right on one image set, by kit and by layout, with the bench's
own scoring (`pipeline.bench.accuracy.field_matches`): a quick look between full benches.

    .venv/bin/python scripts/fields.py uikits-tune          # one line per image
    .venv/bin/python scripts/fields.py uikits-sealed        # totals only, never per image
    .venv/bin/python scripts/fields.py samples corpus photos
    .venv/bin/python scripts/fields.py --folder DIR   # a folder with a corpus-style manifest
                                                      # (a drill: corpus/uikits_drill.py)

The held-out split (`uikits-sealed`) prints its totals per kit and per layout, as the bench
report does, and no line per image: nothing about it is tuned to.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

from pipeline.bench import sets
from pipeline.bench.accuracy import field_matches
from pipeline.bench.images import BenchImage, collect
from pipeline.bootstrap import build_ingestor
from pipeline.settings import Settings


def image_set(name: str) -> list[BenchImage]:
    if name == "samples":
        return [s for s in collect([], quick=False) if s.truth is not None]
    if name in ("corpus", "photos"):
        return sets.corpus_images(photos=name == "photos")
    if name.startswith("uikits-"):
        return sets.uikit_images(name.removeprefix("uikits-"))
    raise SystemExit(f"unknown set {name!r}: samples, corpus, photos, uikits-tune, uikits-sealed")


def folder_set(folder: Path) -> list[BenchImage]:
    """Images listed in `folder`/manifest.json (`file`, `truth`, `kit`, `photo_of`)."""
    entries = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["images"]
    found = []
    for entry in entries:
        truth = json.loads((folder / entry["truth"]).read_text(encoding="utf-8"))
        truth.setdefault("kit", entry.get("kit"))
        truth["photo"] = bool(entry.get("photo_of"))
        found.append(sets.bench_image(folder / entry["file"], truth))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "sets", nargs="*", help="samples, corpus, photos, uikits-tune, uikits-sealed"
    )
    parser.add_argument("--folder", type=Path, action="append", default=[])
    args = parser.parse_args()
    ingestor = build_ingestor(Settings(), engine="rapidocr", use_cache=False)
    named = [(n, image_set(n)) for n in args.sets] + [(str(f), folder_set(f)) for f in args.folder]
    for name, images in named:
        held_out = name in sets.HELD_OUT
        by: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        empty = 0
        times: list[float] = []
        for image in images:
            started = time.perf_counter()
            result = ingestor.ingest_path(image.path, strategy="table_ocr")
            times.append(time.perf_counter() - started)
            truth = image.truth or {}
            if not truth.get("rows"):
                continue
            hits, total = field_matches(result.table, result.rows, truth)
            empty += not result.rows
            layout = "photo" if truth.get("photo") else str(truth.get("layout", "table"))
            keys = ["all", f"layout {layout}"] + (
                [f"kit {truth['kit']}"] if truth.get("kit") else []
            )
            for key in keys:
                by[key][0] += hits
                by[key][1] += total
            if not held_out:
                print(f"{hits:4d}/{total:4d} {result.layout:6s} {layout:6s} {image.name}")
        times.sort()
        median = times[len(times) // 2] * 1000 if times else 0.0
        print(f"{name}: {len(images)} images, median {median:.0f} ms, {empty} with no row")
        for key, (hits, total) in sorted(by.items()):
            print(f"  {key:28s} {hits:5d}/{total:5d} {hits / max(total, 1):7.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
