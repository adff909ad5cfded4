"""Real products' screenshots with truth written by hand: ingest read as a new user would use
it, scored on the fields each screen shows.

The images, their `truth.json` and the scorer (`score.py`) live in the shared data folder
(`--real-screens DIR`); which images are tuned on and which are kept sealed is the corpus's
`real-screens/split.json`. Rows are matched by the scorer's own rules (its identifier fields,
its text and number normalising), loaded from its file so that the bench and the scorer a
person runs by hand never disagree. Each image is ingested once, the way `stockshot ingest`
does (the auto strategy, no cache). The sealed split is reported by product and layout only,
never image by image, so that no one tunes on it.
"""

from __future__ import annotations

import importlib.util
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from statistics import median
from types import ModuleType
from typing import Any, cast

from pipeline.bench.context import BenchContext, quiet_info
from pipeline.bench.document import (
    NotMeasured,
    RealScreenGroup,
    RealScreensDoc,
    RealScreensSpeed,
)
from pipeline.bench.sets import CORPUS_DIR
from pipeline.errors import InputError, StockshotError
from pipeline.ingest import Ingestor
from pipeline.ocr.rapid import plain_rapidocr, whole_page
from pipeline.ocr.structure import make_structure_model

__all__ = [
    "SPLIT_FILE",
    "RealScreen",
    "load_real_screens",
    "measure_real_products",
    "measure_real_screens",
    "real_screens_ingestor",
    "score_rows",
]

SPLIT_FILE = CORPUS_DIR / "real-screens" / "split.json"
SPLITS = ("tuning", "sealed")
FIELDS_SCORED = ("sku", "name", "on_hand", "reorder_point", "warehouse_id")
"""The fields the scorer scores (`unit` is shown on some screens but not scored)."""


@dataclass(frozen=True)
class RealScreen:
    path: Path
    split: str
    product: str
    layout: str
    truth: Mapping[str, Any]


@dataclass(frozen=True)
class Score:
    rows_found: int
    rows: int
    fields_right: int
    fields: int


def load_real_screens(folder: Path, split_file: Path = SPLIT_FILE) -> list[RealScreen]:
    """The folder's screens in the split file's order, tuning first; a screen the split does
    not name is an error (a new screen is given a side before it is read)."""
    truth_file = folder / "truth.json"
    if not truth_file.is_file():
        raise InputError(f"{folder}: no truth.json (the real screens' hand-written truth)")
    cases = {c["file"]: c for c in json.loads(truth_file.read_text(encoding="utf-8"))}
    split = json.loads(split_file.read_text(encoding="utf-8"))
    sides = {name: side for side in SPLITS for name in split[side]}
    unsplit = sorted(set(cases) - set(sides))
    if unsplit:
        raise InputError(f"{split_file}: names no split for {', '.join(unsplit)}")
    return [
        RealScreen(folder / name, side, str(cases[name]["product"]), str(cases[name]["layout"]),
                   cases[name])
        for side in SPLITS
        for name in split[side]
        if name in cases
    ]  # fmt: skip


def _scorer(folder: Path) -> ModuleType:
    """The data folder's own scorer, loaded from its file."""
    spec = importlib.util.spec_from_file_location("real_screens_score", folder / "score.py")
    if spec is None or spec.loader is None:
        raise InputError(f"{folder}: no score.py beside the truth")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def score_rows(
    scorer: ModuleType, truth: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]
) -> Score:
    """The screen's truth rows found among `rows` and their shown fields right, matched the
    way the scorer matches them (by identifier, each output row used once, the one agreeing
    on most fields first)."""
    shown = [f for f in FIELDS_SCORED if f in truth["shown"]]
    by_name = "name" not in shown
    ids = cast(Callable[..., set[str]], scorer.ids)
    same = cast(Callable[[str, object, object], bool], scorer.same)
    value = cast(Callable[..., object], scorer.value)
    norm_text = cast(Callable[[object], str | None], scorer.norm_text)
    unused = list(range(len(rows)))
    found = right = 0

    def agreeing(want: Mapping[str, Any], i: int) -> int:
        return sum(same(f, value(rows[i], f, want[f], by_name), want[f]) for f in shown)

    for want in truth["rows"]:
        key = norm_text(want["sku"])
        candidates = [i for i in unused if key in ids(rows[i], by_name)]
        if not candidates:
            continue
        best = max(candidates, key=partial(_ranked, agreeing, want))
        unused.remove(best)
        found += 1
        right += agreeing(want, best)
    n = len(truth["rows"])
    return Score(found, n, right, n * len(shown))


def real_screens_ingestor(ctx: BenchContext) -> Ingestor | None:
    """An ingestor as `stockshot ingest` builds one from the settings (their engine, strategy
    and the structure model), without a cache; None where the engine cannot be built."""
    engine = ctx.engine(ctx.settings.ocr_engine)
    if engine is None:
        return None
    try:
        structure = make_structure_model("rapid_table", ctx.engine_options())
    except StockshotError:
        structure = None
    config = replace(ctx.config(), strategy=ctx.settings.strategy)
    return Ingestor(engine, config=config, cache=None, structure=structure)


def _plain_speed(
    ctx: BenchContext, scored: Sequence[tuple[RealScreen, Score, float]]
) -> RealScreensSpeed:
    """A plain `RapidOCR()` reading the same screens whole, warm (a full run: every screen; a
    standard one: the tuning split's), beside our ingest of them."""
    every = ctx.options.peer_images is None
    timed = [(s, t) for s, _, t in scored if every or s.split == "tuning"]
    with quiet_info():
        plain = plain_rapidocr()
        if timed:
            whole_page(plain, str(timed[0][0].path))  # untimed: the models load
    plain_s: list[float] = []
    for screen, _ in timed:
        started = time.perf_counter()
        whole_page(plain, str(screen.path))
        plain_s.append(time.perf_counter() - started)
    ours = median(t for _, t in timed) if timed else 0.0
    peer = median(plain_s) if plain_s else 0.0
    return {
        "screens": "every screen" if every else "the tuning split",
        "images": len(timed),
        "ours_median_s": round(ours, 2),
        "plain_median_s": round(peer, 2),
        "ours_vs_plain": round(ours / peer, 3) if peer else None,
    }


def measure_real_screens(
    ctx: BenchContext,
    folder: Path,
    *,
    split_file: Path = SPLIT_FILE,
    scorer_folder: Path | None = None,
    speed: bool = True,
) -> RealScreensDoc | NotMeasured:
    """Each screen ingested once and scored; totals per split, product and layout; the tuning
    split's images one by one; with `speed`, the time beside a plain RapidOCR reading of the
    same screens. The scorer is the one beside the truth, or in `scorer_folder` (the rendered
    products' corpus is scored by the real screens' own scorer)."""
    ingestor = real_screens_ingestor(ctx)
    if ingestor is None:
        return {"error": ctx.skipped.get(ctx.settings.ocr_engine, "no OCR engine")}
    screens = load_real_screens(folder, split_file)
    scorer = _scorer(scorer_folder or folder)
    scored: list[tuple[RealScreen, Score, float]] = []
    for screen in screens:
        started = time.perf_counter()
        try:
            rows = [r.model_dump() for r in ingestor.ingest_path(screen.path).rows]
        except StockshotError as exc:  # counted as the scorer counts a failed command
            ctx.note(f"real screens: {screen.path.name}: {exc}")
            rows = []
        seconds = time.perf_counter() - started
        scored.append((screen, score_rows(scorer, screen.truth, rows), seconds))
        ctx.note(f"real screens: {screen.split} {len(scored)}/{len(screens)}")
    doc: RealScreensDoc = {
        "folder": str(folder),
        "split_file": _shown(split_file),
        "splits": {
            side: {
                "total": _group(side, [s for s in scored if s[0].split == side]),
                "products": _groups([s for s in scored if s[0].split == side], lambda s: s.product),
                "layouts": _groups([s for s in scored if s[0].split == side], lambda s: s.layout),
                "images": (
                    [_group(s.path.name, [(s, sc, t)]) for s, sc, t in scored if s.split == side]
                    if side == "tuning"
                    else []
                ),
            }
            for side in SPLITS
        },
    }
    if speed:
        doc["speed"] = _plain_speed(ctx, scored)
    return doc


def measure_real_products(
    ctx: BenchContext, folder: Path, scorer_folder: Path | None
) -> RealScreensDoc | NotMeasured:
    """Real products' own screens rendered here (`corpus/real-products`, its split beside it),
    scored by the shared real screens' scorer; not timed against a peer."""
    if scorer_folder is None:
        return {"error": "the scorer lives beside the real screens: give --real-screens too"}
    return measure_real_screens(
        ctx, folder, split_file=folder / "split.json", scorer_folder=scorer_folder, speed=False
    )


def _shown(path: Path) -> str:
    """A split file as the report names it: from the checkout's root where it lies in it."""
    root = CORPUS_DIR.parent
    return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)


def _ranked(
    agreeing: Callable[[Mapping[str, Any], int], int], want: Mapping[str, Any], i: int
) -> tuple[int, int]:
    """The output row that agrees on most fields, the first of equals."""
    return agreeing(want, i), -i


def _groups(
    scored: Sequence[tuple[RealScreen, Score, float]], key: Callable[[RealScreen], str]
) -> list[RealScreenGroup]:
    names = list(dict.fromkeys(key(s) for s, _, _ in scored))
    return [_group(name, [s for s in scored if key(s[0]) == name]) for name in names]


def _group(name: str, scored: Sequence[tuple[RealScreen, Score, float]]) -> RealScreenGroup:
    fields = sum(s.fields for _, s, _ in scored)
    rows = sum(s.rows for _, s, _ in scored)
    return {
        "name": name,
        "images": len(scored),
        "fields_right": sum(s.fields_right for _, s, _ in scored),
        "fields": fields,
        "rows_found": sum(s.rows_found for _, s, _ in scored),
        "rows": rows,
        "images_with_no_rows": sum(s.rows_found == 0 for _, s, _ in scored),
        "median_s": round(median(t for _, _, t in scored), 2) if scored else 0.0,
    }
