"""A screenshot's ground truth: the file the screen generators write beside each image
(`X.truth.json`) and the bench, the evaluation cases and the field counts read."""

from __future__ import annotations

from typing import TypedDict

__all__ = ["Truth", "TruthRow"]


class TruthRow(TypedDict):
    """An inventory row as the screen shows it; None for a field it does not show."""

    sku: str
    name: str | None
    on_hand: int | None
    reorder_point: int | None
    warehouse_id: str | None


class Truth(TypedDict, total=False):
    """A screenshot's ground truth as the generators write it beside the image
    (`X.truth.json`) or a tables folder's CSV gives it: the table's header and cells, its
    inventory rows, the warehouse only the page names, the table's box and HTML; and what the
    bench adds (a photo or not, the UI kit and layout)."""

    header: list[str]
    cells: list[list[str]]
    rows: list[TruthRow]
    page_warehouse: str | None
    table_box: list[int]
    table_html: str
    photo: bool
    kit: str | None
    layout: str | None
