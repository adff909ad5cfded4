"""Generic table reading side by side: this pipeline against what a user would pick instead.

On every image set (the browser corpus's renders and its photos, the samples, any `--tables`
folder of table pictures with a CSV beside each), per image and tool: cells exactly right, TEDS
(tree-edit-distance similarity of the table as HTML, merged cells included; `table-recognition-
metric`), inventory fields right (the tool's grid mapped onto the schema by the same code), and
warm milliseconds. The peers:

- `rapidocr+rows`: `RapidOCR()` on the whole image, lines grouped into rows and columns by
  `find_table` (the ten-line baseline of the ingest section); `rapidocr+rows@threads` the same
  engine with only our thread settings (intra-op threads, one inter-op, no spinning), so its
  time is compared on equal terms;
- `rapid_table`: RapidTable (SLANet-plus) on the whole image with the same RapidOCR's lines.
  It is a model for cropped tables, so it also runs on the region this pipeline cropped
  (`rapid_table@our-crop`, the page where it cropped none) and on the truth's table box
  (`rapid_table@truth-box`, renders only: a photo's truth box is in the render's pixels);
- `img2table`: img2table's OpenCV table finder (bordered and borderless, implicit rows) with the
  same RapidOCR engine.

Tools take turns on each image, their order rotating from round to round, after one untimed
warm-up read each. A peer that is not installed or fails is reported with its reason, never
left out silently; a tool that does not apply to an image (no truth box) is left out of that
image's figures and its totals count the images it read.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median
from typing import TYPE_CHECKING, get_args

import numpy as np
from PIL import Image

from pipeline.bench.accuracy import cell_matches, field_matches, grid_from_lines, teds
from pipeline.bench.context import BenchContext, quiet_info
from pipeline.bench.document import (
    Breakdown,
    ImageRead,
    Peer,
    PeerReads,
    RungCost,
    SetTotals,
    TablesDoc,
    TableSetDoc,
    ToolRead,
)
from pipeline.bench.images import BenchImage
from pipeline.bench.sets import TableSet
from pipeline.bench.speed import baseline_lines
from pipeline.ingest import Ingestor
from pipeline.models import IngestResult, Table, TextLine
from pipeline.ocr.rapid import plain_rapidocr, whole_page
from pipeline.ocr.structure import TableStructureModel, make_structure_model
from pipeline.table import table_from_html

if TYPE_CHECKING:
    from rapidocr import RapidOCR

__all__ = ["OURS", "PEERS", "breakdown", "measure_peers", "peers_read", "rung_costs"]

OURS: Peer = "stockshot"
PEERS: tuple[Peer, ...] = get_args(Peer)
"""Every tool of the table sets, this pipeline first, in the order the report lists them."""
Reader = Callable[[BenchImage], tuple[Table, IngestResult | None]]


class NotApplicable(Exception):
    """The tool has nothing to read on this image (a truth box where there is none)."""


def _rgb(image: BenchImage) -> np.ndarray:
    with Image.open(image.path) as opened:
        return np.asarray(opened.convert("RGB"), dtype=np.uint8)


def _cut(rgb: np.ndarray, box: Sequence[int] | None) -> np.ndarray:
    """The box of the image (clipped to it), or the whole image without a box."""
    if not box:
        return rgb
    height, width = rgb.shape[:2]
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(width, int(box[2])), min(height, int(box[3]))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return rgb
    return np.ascontiguousarray(rgb[y0:y1, x0:x1])


def _truth_box(image: BenchImage) -> Sequence[int]:
    truth = image.truth or {}
    box = truth.get("table_box")
    if truth.get("photo") or not box:
        raise NotApplicable("no truth table box in this image's pixels")
    return list(box)


def _readers(
    ctx: BenchContext, errors: dict[str, str], prepare: dict[Peer, Callable[[BenchImage], None]]
) -> dict[Peer, Reader]:
    """Each tool's reader by name; `prepare` gets the untimed step a reader needs first."""
    readers: dict[Peer, Reader] = {}
    engine = ctx.engine("rapidocr")
    if engine is None:
        errors[OURS] = ctx.skipped.get("rapidocr", "rapidocr unavailable")
        return readers
    structure: TableStructureModel | None = None
    try:
        structure = make_structure_model("rapid_table", ctx.engine_options())
    except Exception as exc:
        errors["rapid_table"] = f"{type(exc).__name__}: {exc}"
    ingestor = Ingestor(engine, config=ctx.config(), cache=None, structure=structure)
    crops: dict[Path, Sequence[int] | None] = {}

    def ours(image: BenchImage) -> tuple[Table, IngestResult | None]:
        result = ingestor.ingest_path(image.path, strategy="table_ocr")
        crops[image.path] = result.crop
        return result.table, result

    readers[OURS] = ours

    with quiet_info():
        default = plain_rapidocr()
        threaded = plain_rapidocr(ctx.settings.ocr_threads)

    def rows_with(peer: RapidOCR) -> Reader:
        def rows(image: BenchImage) -> tuple[Table, IngestResult | None]:
            return grid_from_lines(baseline_lines(whole_page(peer, str(image.path)))), None

        return rows

    readers["rapidocr+rows"] = rows_with(default)
    readers["rapidocr+rows@threads"] = rows_with(threaded)
    if structure is not None:
        model = structure

        def table_in(rgb: np.ndarray) -> Table:
            lines: list[TextLine] = engine.read(rgb)
            return table_from_html(model.structure(rgb, lines))

        def rapid_table(image: BenchImage) -> tuple[Table, IngestResult | None]:
            return table_in(_rgb(image)), None

        def our_crop(image: BenchImage) -> None:
            if image.path not in crops:
                ours(image)  # untimed, once per image, when this tool's turn comes first

        def on_our_crop(image: BenchImage) -> tuple[Table, IngestResult | None]:
            return table_in(_cut(_rgb(image), crops.get(image.path))), None

        prepare["rapid_table@our-crop"] = our_crop

        def on_truth_box(image: BenchImage) -> tuple[Table, IngestResult | None]:
            return table_in(_cut(_rgb(image), _truth_box(image))), None

        readers["rapid_table"] = rapid_table
        readers["rapid_table@our-crop"] = on_our_crop
        readers["rapid_table@truth-box"] = on_truth_box
    try:
        from img2table.document import Image as Document
        from img2table.ocr import RapidOCR as Img2TableRapid
    except ImportError as exc:
        errors["img2table"] = f"not installed ({exc}): pip install 'stockshot[peers]'"
    else:
        ocr = Img2TableRapid.__new__(Img2TableRapid)
        ocr.engine = getattr(engine, "_engine", default)

        def img2table(image: BenchImage) -> tuple[Table, IngestResult | None]:
            with quiet_info():
                found = Document(src=str(image.path)).extract_tables(
                    ocr=ocr, implicit_rows=True, borderless_tables=True, min_confidence=50
                )
            if not found:
                return Table(), None
            best = max(found, key=lambda t: sum(len(r) for r in t.content.values()))
            return table_from_html(best.html), None

        readers["img2table"] = img2table
    return readers


@dataclass
class PeerResult:
    samples_ms: list[float] = field(default_factory=list)
    cells: tuple[int, int] = (0, 0)
    fields: tuple[int, int] = (0, 0)
    teds: float | None = None
    text: bool | None = None


def measure_peers(ctx: BenchContext, sets: Sequence[TableSet], *, rounds: int) -> TablesDoc:
    """Per set, image and tool: accuracy of the last read, warm times of `rounds` reads after
    one warm-up read per tool."""
    errors: dict[str, str] = {}
    prepare: dict[Peer, Callable[[BenchImage], None]] = {}
    readers = _readers(ctx, errors, prepare)
    first = next((s.images[0] for s in sets if s.images), None)
    for key, reader in list(readers.items()):
        if first is None:
            break
        try:
            if key in prepare:
                prepare[key](first)
            reader(first)
        except NotApplicable:
            continue
        except Exception as exc:
            errors[key] = f"{type(exc).__name__}: {exc}"
            del readers[key]
    every = list(readers)
    out_sets: list[TableSetDoc] = []
    for table_set in sets:
        images: list[ImageRead] = []
        for k, image in enumerate(table_set.images):
            tools = every if peers_read(ctx.options.peer_images, table_set.key, k) else [OURS]
            read: dict[Peer, tuple[Table, IngestResult | None]] = {}
            timed: dict[Peer, list[float]] = {key: [] for key in tools}
            skipped: set[Peer] = set()
            for r in range(rounds):
                # The order rotates from round to round, so load from elsewhere on the
                # machine does not land on one tool.
                for key in tools[r % len(tools) :] + tools[: r % len(tools)]:
                    if key in skipped:
                        continue
                    try:
                        if key in prepare:
                            prepare[key](image)
                        started = time.perf_counter()
                        read[key] = readers[key](image)
                    except NotApplicable:
                        skipped.add(key)
                        continue
                    except Exception as exc:
                        # A failure is what the user gets: an empty table, scored as such.
                        errors[f"{key} on {image.name}"] = f"{type(exc).__name__}: {exc}"
                        read.setdefault(key, (Table(), None))
                        skipped.add(key)
                        continue
                    timed[key].append(round((time.perf_counter() - started) * 1000, 1))
            per: PeerReads = {}
            for key in tools:
                if key not in read:
                    continue
                found = PeerResult(samples_ms=timed[key])
                table, result = read[key]
                truth = image.truth or {}
                found.cells = cell_matches(table, truth) if truth else (0, 0)
                found.fields = (
                    field_matches(table, result.rows if result else None, truth)
                    if truth.get("rows")
                    else (0, 0)
                )
                found.teds = teds(table, truth) if truth else None
                if result is not None:
                    found.text = bool(result.text.strip())
                reading: ToolRead = {
                    "rows": len(result.rows) if result is not None else None,
                    "layout": result.layout if result is not None else None,
                    "samples_ms": found.samples_ms,
                    "median_ms": median(found.samples_ms) if found.samples_ms else None,
                    "cells": list(found.cells),
                    "fields": list(found.fields),
                    "teds": found.teds,
                    "text": found.text,
                }
                if result is not None:
                    reading["tokens"] = result.tokens.model_dump()
                    reading["strategy"] = result.strategy
                    reading["warnings"] = result.warnings
                    reading["timings_ms"] = result.timings_ms
                    reading["chosen"] = _chosen_rung(result)
                per[key] = reading
            truth = image.truth or {}
            images.append(
                {
                    "name": image.name,
                    "size": image.size,
                    "kit": truth.get("kit"),
                    "layout": truth.get("layout"),
                    "photo": truth.get("photo", False),
                    "truth_rows": len(truth.get("rows", [])),
                    "tools": per,
                }
            )
        ctx.note(f"tables: {table_set.label} done")
        out_sets.append(
            {
                "key": table_set.key,
                "label": table_set.label,
                "images": images,
                "totals": _totals(images, list(readers)),
            }
        )
    return {"tools": list(readers), "sets": out_sets, "errors": errors, "rounds": rounds}


def peers_read(limit: int | None, set_key: str, k: int) -> bool:
    """Whether the peers read a set's `k`th image too, when they read the first `limit` of
    each set (None: all, a full run): always on a table picture (their TEDS targets compare
    the peers on each). Our pipeline reads every image."""
    return limit is None or k < limit or set_key.startswith("tables:")


def _chosen_rung(result: IngestResult) -> str:
    """The rung whose reading was kept: the last one the ingest timed before its page text."""
    rungs = [
        k for k in result.timings_ms if k in ("lines", "cards", "structure", "detect", "image")
    ]
    return rungs[-1] if rungs else "cache"


def rung_costs(images: Sequence[ImageRead]) -> dict[str, RungCost]:
    """Per rung of our ladder: on how many images it ran, was kept, and its median ms."""
    costs: dict[str, list[float]] = {}
    kept: dict[str, int] = {}
    for image in images:
        found = image["tools"].get(OURS)
        if found is None:
            continue
        for rung, ms in found.get("timings_ms", {}).items():
            if rung in ("lines", "cards", "structure", "detect", "image", "page_text", "normalise"):
                costs.setdefault(rung, []).append(float(ms))
        chosen = found.get("chosen")
        if chosen:
            kept[chosen] = kept.get(chosen, 0) + 1
    return {
        rung: {"ran": len(ms), "kept": kept.get(rung, 0), "median_ms": median(ms)}
        for rung, ms in costs.items()
    }


def _totals(images: Sequence[ImageRead], tools: Sequence[Peer]) -> SetTotals:
    totals: SetTotals = {}
    for key in tools:
        rows = [i["tools"][key] for i in images if key in i["tools"]]
        cells = [sum(r["cells"][0] for r in rows), sum(r["cells"][1] for r in rows)]
        fields = [sum(r["fields"][0] for r in rows), sum(r["fields"][1] for r in rows)]
        scores = [r["teds"] for r in rows if r["teds"] is not None]
        times = [r["median_ms"] for r in rows if r["median_ms"] is not None]
        totals[key] = {
            "images": len(rows),
            "cells": cells,
            "fields": fields,
            "teds": sum(scores) / len(scores) if scores else None,
            "median_ms": median(times) if times else None,
            "max_ms": max(times) if times else None,
            "texts": [r["text"] for r in rows if r["text"] is not None],
        }
    totals["rungs"] = rung_costs(images)
    shares = [
        (i["name"], t["sent"] / t["full_page_image"])
        for i in images
        if (ours := i["tools"].get(OURS))
        and (t := ours.get("tokens"))
        and t["full_page_image"]
        and ours["fields"][1]
    ]
    totals["token_shares"] = shares
    return totals


def breakdown(table_set: TableSetDoc, tool: Peer = OURS) -> Breakdown:
    """A set's inventory fields for `tool` by kit and by layout (photos apart), and the
    screens it read no row from."""
    by_kit: dict[str, list[int]] = {}
    by_layout: dict[str, list[int]] = {}
    empty: list[str] = []
    for image in table_set["images"]:
        found = image["tools"].get(tool)
        if found is None or not image.get("truth_rows"):
            continue
        hits, total = found["fields"]
        for key, table in (
            (image.get("kit") or "-", by_kit),
            ("photo" if image.get("photo") else image.get("layout") or "table", by_layout),
        ):
            pair = table.setdefault(key, [0, 0])
            pair[0] += hits
            pair[1] += total
        if not found.get("rows"):
            empty.append(image["name"])
    return {"by_kit": by_kit, "by_layout": by_layout, "no_rows": empty}
