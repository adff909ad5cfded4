"""What one rung of the reading ladder works on (a page, each finding computed once), what it
produced (an attempt), and how the readings of one page compare and complete each other."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from pipeline.imaging import Normalised, TextBoxes, find_text_boxes
from pipeline.models import (
    Box,
    Layout,
    Table,
    TextLine,
)
from pipeline.table import MappedRows, page_warehouse, well_formed
from pipeline.tiers import Rung


@dataclass
class Page:
    """One analysis's working image and what the rungs found on it, each computed once."""

    norm: Normalised
    memo: dict[bytes, tuple[str, float]] = field(default_factory=dict)
    found: TextBoxes | None = None
    detected: list[TextLine] | None = None
    """Text lines the engine detected, boxes in working pixels."""
    detected_whole: list[TextLine] | None = None
    """The same over the whole page (blocks of cards are not one table region)."""

    def boxes(self) -> TextBoxes:
        if self.found is None:
            norm = self.norm
            colour = norm.rgb if norm.dark else None
            self.found = find_text_boxes(norm.gray, photo=norm.photographed, light_on_dark=colour)
        return self.found


@dataclass
class Attempt:
    """What one rung of the ladder produced."""

    rung: Rung
    table: Table | None = None
    confidences: list[list[float]] = field(default_factory=list)
    mapped: MappedRows = field(default_factory=MappedRows)
    context: list[str] = field(default_factory=list)
    crop: Box | None = None
    annotations: list[TextLine] = field(default_factory=list)
    reasons: tuple[str, ...] = ()
    doubts: tuple[str, ...] = ()
    """Signs from the layout that the grid is not the table's structure."""
    region: Box | None = None
    """The table's box in working pixels (what `ui_crop` cuts out)."""
    layout: Layout = "table"

    @property
    def score(self) -> float:
        filled = [c for row in self.confidences for c in row]
        return (len(self.mapped.rows) + 1) * (sum(filled) / len(filled) if filled else 0.0)


def rowless_after_rows(attempt: Attempt, attempts: Sequence[Attempt]) -> bool:
    """A grid that names no inventory column, where an earlier reading of the page found the
    inventory rows it was unsure of (a sidebar and a pager taken for the table): not a better
    reading of the page, however sure of its cells."""
    return not attempt.mapped.rows and any(a.mapped.rows for a in attempts if a is not attempt)


def boxes_if_fuller(chosen: Attempt, attempts: Sequence[Attempt]) -> Attempt:
    """A photo's detection reading, or its own text boxes' reading that came before it, unsure
    (a quantity or two misread), when that reads more fields as values of their kind: the
    engine's lines can take two close columns for one (`1,204 boxes Flat washer`), losing a
    field in every row."""
    boxes = next((a for a in attempts if a.rung.method == "lines" and a.mapped.rows), None)
    if boxes is not None and formed(boxes, attempts) > formed(chosen, attempts):
        return boxes
    return chosen


CLEARLY_MORE = 1.25
"""How much more one reading must read than another to count as clearly more."""


def detection_if_better(
    chosen: Attempt, detection: Attempt, attempts: Sequence[Attempt], *, passed: bool
) -> Attempt:
    """A photo's reading by its own text boxes, or the engine's detection when that reads
    more fields as values of their kind, or as many more surely. A detection that did not pass
    its checks (a header name it joined to its neighbour's) must read clearly more (a quarter
    more): the boxes may have cut a column through its words (`SKU-` | `10231`)."""
    ours, theirs = kind_and_sureness(chosen, attempts), kind_and_sureness(detection, attempts)
    if not passed:
        return detection if theirs[0] >= CLEARLY_MORE * ours[0] > 0 else chosen
    return detection if theirs > ours else chosen


def clearly_fuller(chosen: Attempt, attempts: Sequence[Attempt]) -> Attempt:
    """A photo's reading that passed its checks, or another reading of it that did not, when
    that reads clearly more fields (a quarter more) as values of their kind: a structure
    model's rows can stop halfway down a photographed table, and the checks pass on the half
    it read."""
    others = [a for a in attempts if a is not chosen and a.mapped.rows]
    best = max(others, key=lambda a: kind_and_sureness(a, attempts), default=None)
    if best is None:
        return chosen
    theirs = formed(best, attempts)
    return best if theirs > 0 and theirs >= CLEARLY_MORE * formed(chosen, attempts) else chosen


def formed(attempt: Attempt, attempts: Sequence[Attempt]) -> int:
    """`well_formed` over an attempt's rows as the page completes them: the warehouse a title
    names is the page's, whichever reading of it found the title (see `warehouse_of_others`),
    so it does not weigh for one reading over another."""
    return well_formed(warehouse_of_others(attempt, attempts).mapped.rows)


def mapped_confidence(attempt: Attempt) -> float:
    """The mean recognition confidence of the cells an attempt's rows were read from."""
    cells = [
        attempt.confidences[r][c]
        for r in attempt.mapped.sources
        for c in attempt.mapped.mapping.values()
        if r < len(attempt.confidences) and c < len(attempt.confidences[r])
    ]
    return sum(cells) / len(cells) if cells else 0.0


def kind_and_sureness(
    attempt: Attempt, attempts: Sequence[Attempt] = ()
) -> tuple[int, float, float]:
    """How two readings of one photo compare: the fields read as values of their kind (with
    the page's warehouse that any of `attempts` found), then the confidence in the cells they
    came from, then (a table of no inventory, where neither says anything) how much text its
    cells read, weighed by the confidence in each."""
    return formed(attempt, attempts), mapped_confidence(attempt), _cells_read(attempt)


def _cells_read(attempt: Attempt) -> float:
    if attempt.table is None:
        return 0.0
    return sum(
        conf
        for row, confs in zip(attempt.table.cells, attempt.confidences, strict=False)
        for text, conf in zip(row, confs, strict=False)
        if text.strip()
    )


def warehouse_of_others(chosen: Attempt, attempts: Sequence[Attempt]) -> Attempt:
    """Rows without a warehouse whose reading found none above its table, when the page's
    other readings name one, and only one: each rung takes its own span of the page as
    context (a structure model's region, the detection's lines), so one may miss a title
    another read (`现存量查询·WH-03`). The rows take it, and the line it was read from joins
    the context."""
    mapped = chosen.mapped
    if (
        not mapped.rows
        or "warehouse_id" in mapped.mapping
        or page_warehouse(chosen.context) is not None
    ):
        return chosen
    found = {
        warehouse: attempt
        for attempt in attempts
        if attempt is not chosen and (warehouse := page_warehouse(attempt.context)) is not None
    }
    if len(found) != 1:
        return chosen
    (warehouse, other), *_ = found.items()
    line = next((t for t in other.context if page_warehouse([t]) == warehouse), None)
    context = [line, *chosen.context] if line is not None else chosen.context
    if page_warehouse(context) != warehouse:
        return chosen
    rows = [
        r if r.warehouse_id else r.model_copy(update={"warehouse_id": warehouse})
        for r in mapped.rows
    ]
    return replace(chosen, context=context, mapped=replace(mapped, rows=rows))
