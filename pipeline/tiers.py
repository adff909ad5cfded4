"""Strategies for what a model gets from a screenshot, and when a cheap one is not good enough.

The ladder is data: each rung names a strategy and a method, and one loop in `pipeline.ingest`
(`ladder`) walks it until a rung's rule takes its reading; `judge` is the checks they share.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pipeline.models import NONE_MARKS, Row, Table

__all__ = [
    "LADDERS",
    "PATCH",
    "Rung",
    "Verdict",
    "image_tokens",
    "judge",
]

Method = Literal["lines", "cards", "structure", "detect", "image"]
"""How a rung reads the table: `lines` finds text with image processing and only recognises
it; `cards` reads records that are not table rows (cards, tiles, list items with labelled
values: `pipeline.table.cards`) from the page's text lines; `structure` gives the same text
boxes and the table's pixels to a table-structure model (merged cells, multi-row headers,
ruled grids); `detect` lets the OCR engine find the text lines itself; `image` sends the
picture."""

PATCH = 28
"""Qwen2-VL-class vision encoders: 14 px patches merged 2x2, one token per 28x28 pixels."""
_MIN_PIXELS = 56 * 56
_MAX_PIXELS = 16384 * PATCH * PATCH


@dataclass(frozen=True)
class Rung:
    strategy: Literal["table_ocr", "full_page", "ui_crop"]
    method: Method

    @property
    def reads(self) -> bool:
        """Whether the rung reads the page into text (every method but `image`, which sends
        the picture)."""
        return self.method != "image"


def _ladder(strategy: Literal["table_ocr", "ui_crop"], *methods: Method) -> tuple[Rung, ...]:
    return tuple(Rung(strategy, m) for m in methods)


LADDERS: dict[str, tuple[Rung, ...]] = {
    "auto": (
        *_ladder("table_ocr", "lines", "cards", "structure", "detect"),
        Rung("full_page", "image"),
    ),
    "auto_photo": (
        *_ladder("table_ocr", "lines", "detect", "cards", "structure"),
        Rung("full_page", "image"),
    ),
    "table_ocr": _ladder("table_ocr", "lines", "cards", "structure", "detect"),
    "table_ocr_photo": _ladder("table_ocr", "lines", "detect", "cards", "structure"),
    "ui_crop": _ladder("ui_crop", "lines", "cards", "structure", "detect"),
    "ui_crop_photo": _ladder("ui_crop", "lines", "detect", "cards", "structure"),
    "full_page": (Rung("full_page", "image"),),
}
"""Clean renders try the structure model before text detection (their text boxes are
already right; what a line finder misses there is structure); photos, rectified, try
detection first (their text boxes are the weak part). Cards come right after the first
reading that finds no table: a page of blocks has no columns for the structure model to
find."""


def image_tokens(width: int, height: int) -> int:
    """Tokens a Qwen2-VL-class model spends on an image: sides rounded to 28 px, pixel count
    kept within the processor's bounds, one token per 28x28 patch plus start and end markers."""
    h = max(PATCH, round(height / PATCH) * PATCH)
    w = max(PATCH, round(width / PATCH) * PATCH)
    if h * w > _MAX_PIXELS:
        beta = math.sqrt(height * width / _MAX_PIXELS)
        h = math.floor(height / beta / PATCH) * PATCH
        w = math.floor(width / beta / PATCH) * PATCH
    elif h * w < _MIN_PIXELS:
        beta = math.sqrt(_MIN_PIXELS / (height * width))
        h = math.ceil(height * beta / PATCH) * PATCH
        w = math.ceil(width * beta / PATCH) * PATCH
    return (h // PATCH) * (w // PATCH) + 2


@dataclass(frozen=True)
class Verdict:
    ok: bool
    reasons: tuple[str, ...]


_MIN_CONFIDENCE = 0.80


def judge(
    table: Table | None,
    confidences: Sequence[Sequence[float]],
    rows: Sequence[Row],
    layout_doubts: Sequence[str] = (),
    *,
    keyed_by_name: bool = False,
) -> Verdict:
    """Is this OCR result trustworthy enough to hand a model as text instead of the image?
    `layout_doubts` are signs the grid is not the table's structure (text beside the columns,
    a header cell missing over a filled column): a structure model may read it better.
    `keyed_by_name`: the rows' key is their name, from a column the page's own header names
    (a screen that shows no code): a row is keyed by its name as another is by its SKU, and
    only a row with neither is without its key."""
    if table is None or not table.cells:
        return Verdict(False, ("no table found",))
    reasons: list[str] = list(layout_doubts)
    # A lone dash is none whatever the recogniser's confidence in one stroke (it reads `-` as
    # `一` at 0.44): a column of them says nothing about how well the values were read.
    filled = [
        conf
        for row, confs in zip(table.cells, confidences, strict=True)
        for text, conf in zip(row, confs, strict=True)
        if text.strip() and text.strip() not in NONE_MARKS
    ]
    mean = sum(filled) / len(filled) if filled else 0.0
    if mean < _MIN_CONFIDENCE:
        reasons.append(f"mean OCR confidence {mean:.2f} < {_MIN_CONFIDENCE}")
    weak = sum(c < 0.5 for c in filled)
    if filled and weak > 0.1 * len(filled):
        reasons.append(f"{weak} of {len(filled)} cells read with confidence < 0.5")
    if rows:
        if keyed_by_name:
            unkeyed = sum(r.sku is None and not (r.name or "").strip() for r in rows)
            if unkeyed:
                reasons.append(f"{unkeyed} rows without a name (their key)")
        else:
            missing_sku = sum(r.sku is None for r in rows)
            if missing_sku:
                reasons.append(f"{missing_sku} rows without a SKU")
        for field in ("on_hand", "reorder_point"):
            present = [getattr(r, field) for r in rows]
            if any(v is not None for v in present) and any(v is None for v in present):
                bad = sum(v is None for v in present)
                reasons.append(f"{bad} rows where {field} is not a number")
    return Verdict(not reasons, tuple(reasons))
