"""The image sets the bench reads tables on: the browser corpus's renders and photos, the UI-kit
corpus's tune and held-out splits, the samples with truth, and any folder of table pictures with
a CSV beside each."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from pipeline.bench.images import SAMPLES_DIR, BenchImage
from pipeline.truth import Truth

__all__ = [
    "CORPUS_DIR",
    "HELD_OUT",
    "UIKITS_DIR",
    "TableSet",
    "bench_image",
    "collect_sets",
    "corpus_images",
    "uikit_images",
]

CORPUS_DIR = SAMPLES_DIR.parent / "corpus"
UIKITS_DIR = CORPUS_DIR / "uikits"
HELD_OUT = frozenset({"uikits-sealed"})
"""Sets whose images are never listed one by one (only totals and per-kit shares), so that no
one tunes on them."""


@dataclass(frozen=True)
class TableSet:
    key: str
    label: str
    images: list[BenchImage]


def _csv_truth(path: Path) -> Truth | None:
    beside = path.with_suffix(".csv")
    if not beside.is_file():
        return None
    with beside.open(encoding="utf-8", newline="") as handle:
        rows = [list(r) for r in csv.reader(handle)]
    if not rows:
        return None
    return {"header": rows[0], "cells": rows[1:], "rows": [], "page_warehouse": None}


def bench_image(path: Path, truth: Truth | None) -> BenchImage:
    with Image.open(path) as opened:
        width, height = opened.size
    return BenchImage(path, width, height, truth)


def corpus_images(photos: bool) -> list[BenchImage]:
    manifest = CORPUS_DIR / "manifest.json"
    if not manifest.is_file():
        return []
    entries = json.loads(manifest.read_text(encoding="utf-8"))["images"]
    found = []
    for entry in entries:
        if bool(entry.get("photo_of")) != photos:
            continue
        truth = json.loads((CORPUS_DIR / entry["truth"]).read_text(encoding="utf-8"))
        truth["photo"] = photos
        found.append(bench_image(CORPUS_DIR / entry["file"], truth))
    return found


def uikit_images(split: str) -> list[BenchImage]:
    """The UI-kit corpus's `split` (tune or sealed), each image's truth carrying its kit and
    layout."""
    manifest = UIKITS_DIR / split / "manifest.json"
    if not manifest.is_file():
        return []
    entries = json.loads(manifest.read_text(encoding="utf-8"))["images"]
    found = []
    for entry in entries:
        truth = json.loads((UIKITS_DIR / split / entry["truth"]).read_text(encoding="utf-8"))
        truth.setdefault("kit", entry.get("kit"))
        truth["photo"] = bool(entry.get("photo_of"))
        found.append(bench_image(UIKITS_DIR / split / entry["file"], truth))
    return found


def collect_sets(
    samples: Sequence[BenchImage], tables: Sequence[Path], *, quick: bool
) -> list[TableSet]:
    """The corpus renders, the corpus photos, the UI-kit corpus's tune and sealed splits, the
    samples with truth, and each tables folder."""
    sets = [
        TableSet("corpus", "browser corpus, renders", corpus_images(photos=False)),
        TableSet("photos", "browser corpus, photos", corpus_images(photos=True)),
        TableSet("uikits-tune", "UI-kit corpus, tune split", uikit_images("tune")),
        TableSet("uikits-sealed", "UI-kit corpus, held-out split", uikit_images("sealed")),
        TableSet("samples", "samples", [s for s in samples if s.truth is not None]),
    ]
    for folder in tables:
        images = [
            bench_image(p, _csv_truth(p))
            for p in sorted(folder.iterdir())
            if p.suffix.lower() in {".png", ".jpg", ".jpeg", ".webp"} and _csv_truth(p)
        ]
        sets.append(TableSet(f"tables:{folder.name}", f"{folder} (CSV truth)", images))
    if quick:
        sets = [TableSet(s.key, s.label, s.images[:1]) for s in sets]
    return [s for s in sets if s.images]
