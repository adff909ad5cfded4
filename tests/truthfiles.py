"""Checks of the truth file every screen generator writes beside its images (`X.truth.json`),
shared by the samples' and the browser corpus's tests."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
SEED_CSV = ROOT / "servers" / "data" / "seed.csv"
TRUTH_KEYS = {
    "file",
    "kind",
    "size",
    "captured_at",
    "captured_at_source",
    "table_box",
    "header",
    "header_fields",
    "cells",
    "rows",
    "page_warehouse",
    "screen_differs_from_live",
    "notes",
}
SCHEMA_FIELDS = {"sku", "name", "on_hand", "reorder_point", "warehouse_id"}
SAMPLE_KINDS = {
    "light",
    "dark",
    "hidpi",
    "jpeg",
    "small-text",
    "chinese",
    "transparent-white",
    "transparent-black",
    "photo",
    "no-schema",
    "page-warehouse",
    "compare-am",
    "compare-pm",
}
"""The kinds of screen the committed samples promise, one sample each at least."""
EXIF_IFD, DATETIME_ORIGINAL, OFFSET_TIME_ORIGINAL = 0x8769, 36867, 36881

Seed = dict[tuple[str, str], dict[str, str]]


def read_seed() -> Seed:
    """The live stock the screens are past views of, by (SKU, warehouse)."""
    with SEED_CSV.open(encoding="utf-8", newline="") as handle:
        return {(row["sku"], row["warehouse_id"]): row for row in csv.DictReader(handle)}


def assert_box_inside(truth: dict[str, Any]) -> None:
    x0, y0, x1, y1 = truth["table_box"]
    w, h = truth["size"]
    assert 0 <= x0 < x1 <= w
    assert 0 <= y0 < y1 <= h


def assert_rows_show_the_cells(truth: dict[str, Any]) -> None:
    """Each schema row is what its cells display; a field the screen lacks is None."""
    fields = truth["header_fields"]
    for cells, row in zip(truth["cells"], truth["rows"], strict=False):
        for field, text in zip(fields, cells, strict=True):
            if field in ("on_hand", "reorder_point"):
                assert int(text.replace(",", "")) == row[field]
            elif field:
                assert text == row[field]
        for field in SCHEMA_FIELDS - set(fields):
            assert row[field] is None


def warehouse_of(row: dict[str, Any], truth: dict[str, Any]) -> str:
    warehouse = row["warehouse_id"] or truth["page_warehouse"]
    assert warehouse, f"{truth['file']}: {row['sku']} has no warehouse from column or page"
    return str(warehouse)


def assert_only_listed_rows_differ(truth: dict[str, Any], seed: Seed) -> None:
    """Shown values equal the seed's, except the quantities the truth lists as differing."""
    listed = {(d["sku"], d["warehouse_id"]): d for d in truth["screen_differs_from_live"]}
    differing = {}
    for row in truth["rows"]:
        key = (row["sku"], warehouse_of(row, truth))
        live = seed[key]
        if row["name"] is not None:
            assert row["name"] == live["name"]
        if row["reorder_point"] is not None:
            assert row["reorder_point"] == int(live["reorder_point"])
        if row["on_hand"] is not None and row["on_hand"] != int(live["on_hand"]):
            differing[key] = {
                "sku": key[0],
                "warehouse_id": key[1],
                "shown_on_hand": row["on_hand"],
                "live_on_hand": int(live["on_hand"]),
            }
    assert differing == listed


def capture_metadata(path: Path) -> tuple[dict[int, Any], str | None]:
    """An image's EXIF sub-IFD and its PNG `Creation Time` text, where it has them."""
    with Image.open(path) as image:
        exif = dict(image.getexif().get_ifd(EXIF_IFD))
        text = getattr(image, "text", {}).get("Creation Time")
    return exif, text
