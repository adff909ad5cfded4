"""Several screenshots of the same kind of page, read alone, merged into one view.

Yesterday's and today's stock page, or page 1 and page 2 of a list: each image is ingested on
its own, then the rows are keyed by SKU and warehouse. The newest capture of a key wins; what
an older capture showed differently is kept as the row's changes; every row keeps its own
capture time and file, so freshness is judged per row. A model reads one table, not N.

    view = merge_results([yesterday, today])   # IngestResults, any order
    view.text                                   # what the model reads (pipeline.screentext)
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pydantic import BaseModel, Field

from pipeline.fields import FIELDS
from pipeline.models import IngestResult, Row, is_low
from pipeline.screentext import ScreenRow, ScreenText, render_screen
from pipeline.table.rows import estimate_text_tokens

__all__ = ["Capture", "Change", "MergedRow", "MergedView", "merge_results"]

_COMPARED = ("name", "on_hand", "reorder_point")


class Change(BaseModel):
    field: str
    before: int | str | None
    after: int | str | None
    before_at: datetime = Field(description="capture time of the older value")


class MergedRow(BaseModel):
    sku: str
    name: str | None = None
    on_hand: int | None = None
    reorder_point: int | None = None
    warehouse_id: str | None = None
    captured_at: datetime = Field(description="capture time of the screenshot this row is from")
    file: str
    seen: int = Field(description="how many of the merged screenshots show this SKU and warehouse")
    changes: list[Change] = Field(default_factory=list)

    @property
    def is_low(self) -> bool:
        return is_low(self.on_hand, self.reorder_point)


class Capture(BaseModel):
    file: str
    captured_at: datetime
    rows: int


class MergedView(BaseModel):
    """What `stockshot ingest --strategy multi_image --json` prints."""

    strategy: str = "multi_image"
    captures: list[Capture]
    """Oldest first."""
    rows: list[MergedRow]
    context: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    text: str = ""
    tokens_sent: int = 0
    tokens_separate: int = Field(
        default=0, description="tokens of the images' own texts, sent one by one"
    )


def _key(row: Row) -> tuple[str, str | None] | None:
    """SKU and warehouse (the row's own, or the one its page named, filled in by ingest)."""
    return (row.sku, row.warehouse_id) if row.sku else None


def merge_results(results: Sequence[IngestResult]) -> MergedView:
    """One row per SKU and warehouse across `results`, from the newest capture that shows it,
    with the differences from the capture before it."""
    ordered = sorted(results, key=lambda r: r.captured_at)
    seen: dict[tuple[str, str | None], list[tuple[IngestResult, Row]]] = {}
    warnings: list[str] = []
    for result in ordered:
        if not result.rows:
            warnings.append(f"{result.file}: no inventory rows to merge")
        for row in result.rows:
            key = _key(row)
            if key is None:
                continue
            seen.setdefault(key, []).append((result, row))
    merged: list[MergedRow] = []
    for (sku, warehouse), sightings in seen.items():
        newest_result, newest = sightings[-1]
        changes: list[Change] = []
        if len(sightings) > 1:
            older_result, older = sightings[-2]
            for field in _COMPARED:
                before, after = getattr(older, field), getattr(newest, field)
                if before != after and after is not None:
                    changes.append(
                        Change(
                            field=field,
                            before=before,
                            after=after,
                            before_at=older_result.captured_at,
                        )
                    )
        merged.append(
            MergedRow(
                sku=sku,
                name=newest.name,
                on_hand=newest.on_hand,
                reorder_point=newest.reorder_point,
                warehouse_id=warehouse,
                captured_at=newest_result.captured_at,
                file=newest_result.file,
                seen=len(sightings),
                changes=changes,
            )
        )
    order = {key: n for n, key in enumerate(seen)}
    merged.sort(key=lambda r: order[(r.sku, r.warehouse_id)])
    view = MergedView(
        captures=[
            Capture(file=r.file, captured_at=r.captured_at, rows=len(r.rows)) for r in ordered
        ],
        rows=merged,
        warnings=warnings,
    )
    text = render_screen(merged_screen(view)) if ordered else ""
    return view.model_copy(
        update={
            "text": text,
            "tokens_sent": estimate_text_tokens(text),
            "tokens_separate": sum(r.tokens.sent for r in ordered),
        }
    )


def _change_text(row: MergedRow) -> str:
    return "; ".join(
        f"{c.field} {'' if c.before is None else c.before} -> {c.after}" for c in row.changes
    )


def merged_screen(view: MergedView) -> ScreenText:
    """The merged view as the screen a model reads: stamped with the newest capture, the
    merged captures listed, each row with its own capture time and what changed."""
    newest = max(c.captured_at for c in view.captures)
    return ScreenText(
        captured_at=newest,
        merged=tuple(c.captured_at for c in view.captures),
        columns=FIELDS,
        rows=tuple(
            ScreenRow.of(r, seen_at=r.captured_at, change=_change_text(r) or None)
            for r in view.rows
        ),
    )
