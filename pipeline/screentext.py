"""What a model reads about a screenshot: one typed value, rendered and parsed in this module.

Ingest renders a `ScreenText` for the tier it chose; the embedded planner and the fault replay
parse it back out of the conversation. Changing the format means changing this module and its
round-trip test, nothing else. The text, line by line (bracketed parts are optional; the
first line may end with " The screen is attached as an image."):

    Screenshot captured at 2026-11-27T09:14:52+08:00 (a past view).
    [Page: Stock list · WH-01 · Page 1]
    [OCR of the same screen, unsure (check against the image):]
    [Other columns on screen (left out): Status, Last updated]
    | sku | name | on_hand | reorder_point | warehouse_id | low |
    |---|---|---|---|---|---|
    | SKU-10232 | Shipping carton 40x30 | 38 | 120 | WH-01 | yes |
    [Text boxes on the screen (x0,y0,x1,y1 in screenshot pixels):]
    [[612,184,702,204] SKU-10232]
    [Text on the screen (OCR lines, top to bottom):]
    [> Stock levels  Home / Inventory]

A table whose columns map onto the inventory schema is written with its schema columns and a
`low` column (on_hand < reorder_point on the screen); any other table is written as the generic
grid it is, header first. A screen without a table (or sent as an image) carries the page's
OCR lines instead, each after `> `. A message may hold several screens; each starts at its
capture line.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from datetime import datetime
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from pipeline.fields import FIELDS
from pipeline.models import Box, InventoryRow, Message

__all__ = [
    "INVENTORY_COLUMNS",
    "MERGED_COLUMNS",
    "ScreenRow",
    "ScreenText",
    "TextBox",
    "parse_screens",
    "placement_problem",
    "render_screen",
    "screens_in",
]

INVENTORY_COLUMNS = FIELDS
"""The schema columns, in the order they are written; `low` follows them."""
MERGED_COLUMNS = ("seen_at", "change")
"""After `low` in a merged view: each row's own capture time and what changed since the
capture before it."""

_CAPTURED = re.compile(
    r"^Screenshot captured at (\S+) \(a past view\)\.( The screen is attached as an image\.)?$"
)
_PAGE = "Page: "
_MERGED = re.compile(
    r"^Merged view of \d+ screenshots \(([^)]*)\): one row per SKU and warehouse, "
    r"from its newest capture\.$"
)
_UNSURE = "OCR of the same screen, unsure (check against the image):"
_OMITTED = "Other columns on screen (left out): "
_BOXES = "Text boxes on the screen (x0,y0,x1,y1 in screenshot pixels):"
_BOX_LINE = re.compile(r"^\[(-?\d+),(-?\d+),(-?\d+),(-?\d+)\] (.*)$")
_LINES = "Text on the screen (OCR lines, top to bottom):"
_LINE = "> "
_WAREHOUSE = re.compile(r"\b(WH-\d{1,3})\b")
_SEPARATOR = " · "


class InventoryFields(Protocol):
    """A row with the inventory fields: a mapped screen row or a merged view's row."""

    @property
    def sku(self) -> str | None: ...
    @property
    def name(self) -> str | None: ...
    @property
    def on_hand(self) -> int | None: ...
    @property
    def reorder_point(self) -> int | None: ...
    @property
    def warehouse_id(self) -> str | None: ...
    @property
    def is_low(self) -> bool: ...


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ScreenRow(_Frozen, InventoryRow):
    """One inventory row as the screen showed it; a field the screen lacks is None."""

    low: bool = False
    seen_at: datetime | None = None
    """In a merged view: the capture this row comes from."""
    change: str | None = None
    """In a merged view: what differs from the capture before (`on_hand 60 -> 310`)."""

    @property
    def key(self) -> str | None:
        """What the screen identifies the row's item by: its SKU, else its name."""
        return self.sku or self.name

    @property
    def key_kind(self) -> str:
        """The column the key comes from (`sku`, `name`)."""
        return "sku" if self.sku else "name"

    @classmethod
    def of(
        cls, row: InventoryFields, seen_at: datetime | None = None, change: str | None = None
    ) -> ScreenRow:
        """`row`'s inventory fields as the screen showed them."""
        fields = {name: getattr(row, name) for name in InventoryRow.model_fields}
        return cls(**fields, low=row.is_low, seen_at=seen_at, change=change)


class TextBox(_Frozen):
    box: Box
    text: str


class ScreenText(_Frozen):
    """A screenshot as a model reads it."""

    captured_at: datetime
    context: tuple[str, ...] = ()
    """Page title, filters and other text around the table, in reading order."""
    image_attached: bool = False
    unsure: bool = False
    """The table is OCR the pipeline does not trust; the image is the reference."""
    omitted: tuple[str, ...] = ()
    """Headers of columns on the screen that are left out of `rows`."""
    columns: tuple[str, ...] = ()
    """The schema columns shown (with `rows`), or the generic grid's header (with `grid`)."""
    rows: tuple[ScreenRow, ...] = ()
    grid: tuple[tuple[str, ...], ...] = ()
    boxes: tuple[TextBox, ...] = ()
    lines: tuple[str, ...] = ()
    """The page's OCR text lines in reading order (a screen without a table, or an image)."""
    merged: tuple[datetime, ...] = ()
    """A merged view of several screenshots: their capture times, oldest first (the view is
    stamped with the newest; each row carries its own)."""

    def captured_at_of(self, row: ScreenRow) -> datetime:
        """When the row was on screen: its own capture in a merged view, else the screen's."""
        return row.seen_at or self.captured_at

    @property
    def page_warehouse(self) -> str | None:
        """The one warehouse id the page's context names, if exactly one."""
        found = {m for text in self.context for m in _WAREHOUSE.findall(text)}
        return found.pop() if len(found) == 1 else None

    def warehouse_of(self, row: ScreenRow) -> str | None:
        """The row's own warehouse, else the page's."""
        return row.warehouse_id or self.page_warehouse


def _cell(value: object) -> str:
    return "" if value is None else str(value).replace("|", "/").replace("\n", " ")


def _table_lines(header: Sequence[str], body: Iterable[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(_cell(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in body]
    return lines


def render_screen(screen: ScreenText) -> str:
    """The text a model reads for `screen`."""
    first = (
        f"Screenshot captured at {screen.captured_at.isoformat(timespec='seconds')} (a past view)."
    )
    if screen.image_attached:
        first += " The screen is attached as an image."
    lines = [first]
    if screen.merged:
        stamps = ", ".join(m.isoformat(timespec="seconds") for m in screen.merged)
        lines.append(
            f"Merged view of {len(screen.merged)} screenshots ({stamps}): one row per SKU and "
            "warehouse, from its newest capture."
        )
    if screen.context:
        lines.append(_PAGE + _SEPARATOR.join(_cell(c) for c in screen.context))
    has_table = bool(screen.rows or screen.grid or screen.columns)
    if screen.unsure and has_table:
        lines.append(_UNSURE)
    if screen.rows:
        if screen.omitted:
            lines.append(_OMITTED + ", ".join(_cell(o) for o in screen.omitted))
        merged = any(row.seen_at is not None for row in screen.rows)
        header = [*screen.columns, "low", *(MERGED_COLUMNS if merged else ())]
        body = [
            [
                *(getattr(row, column) for column in screen.columns),
                "yes" if row.low else "no",
                *(
                    (
                        row.seen_at.isoformat(timespec="seconds") if row.seen_at else "",
                        row.change or "",
                    )
                    if merged
                    else ()
                ),
            ]
            for row in screen.rows
        ]
        lines += _table_lines(header, body)
    elif screen.columns:
        lines += _table_lines(screen.columns, screen.grid)
    if screen.boxes:
        lines.append(_BOXES)
        lines += [f"[{','.join(map(str, b.box))}] {_cell(b.text)}" for b in screen.boxes]
    texts = [t.replace("\n", " ").strip() for t in screen.lines]
    if any(texts):
        lines.append(_LINES)
        lines += [_LINE + t for t in texts if t]
    return "\n".join(lines)


def _split(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _int(text: str) -> int | None:
    digits = text.replace(",", "").strip()
    return int(digits) if digits.lstrip("-").isdigit() else None


def _schema_part(header: Sequence[str]) -> list[str]:
    """The header without the merged view's columns after `low`."""
    if tuple(header[-len(MERGED_COLUMNS) :]) == MERGED_COLUMNS:
        return list(header[: -len(MERGED_COLUMNS)])
    return list(header)


def _inventory_header(header: Sequence[str]) -> bool:
    schema = _schema_part(header)
    return (
        len(schema) >= 2
        and schema[-1] == "low"
        and all(h in INVENTORY_COLUMNS for h in schema[:-1])
        and "sku" in schema
    )


def _time(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text) if text else None
    except ValueError:
        return None


def _row(header: Sequence[str], cells: Sequence[str]) -> ScreenRow:
    values = dict(zip(header, cells, strict=False))
    return ScreenRow(
        sku=values.get("sku") or None,
        name=values.get("name") or None,
        on_hand=_int(values.get("on_hand", "")),
        reorder_point=_int(values.get("reorder_point", "")),
        warehouse_id=values.get("warehouse_id") or None,
        low=values.get("low", "").lower() == "yes",
        seen_at=_time(values.get("seen_at", "")),
        change=values.get("change") or None,
    )


class _Builder:
    def __init__(self, captured_at: datetime, image_attached: bool) -> None:
        self.fields: dict[str, object] = {
            "captured_at": captured_at,
            "image_attached": image_attached,
        }
        self.header: list[str] | None = None
        self.rows: list[ScreenRow] = []
        self.grid: list[tuple[str, ...]] = []
        self.boxes: list[TextBox] = []
        self.texts: list[str] = []
        self.in_boxes = False
        self.in_lines = False

    @property
    def in_block(self) -> bool:
        return self.in_boxes or self.in_lines

    def take(self, line: str) -> None:
        if line == _LINES:
            self.in_boxes, self.in_lines = False, True
            return
        if self.in_lines:
            if line.startswith(_LINE):
                self.texts.append(line[len(_LINE) :])
            return
        if self.in_boxes:
            if match := _BOX_LINE.match(line):
                x0, y0, x1, y1 = (int(match[i]) for i in range(1, 5))
                self.boxes.append(TextBox(box=(x0, y0, x1, y1), text=match[5]))
            return
        if line.startswith("|"):
            cells = _split(line)
            if self.header is None:
                self.header = cells
            elif not set("".join(cells)) <= set("-: "):
                if _inventory_header(self.header):
                    self.rows.append(_row(self.header, cells))
                else:
                    self.grid.append(tuple(cells))
            return
        if line.startswith(_PAGE) and "context" not in self.fields:
            self.fields["context"] = tuple(line[len(_PAGE) :].split(_SEPARATOR))
        elif line == _UNSURE:
            self.fields["unsure"] = True
        elif match := _MERGED.match(line):
            stamps = [_time(t.strip()) for t in match[1].split(",")]
            self.fields["merged"] = tuple(t for t in stamps if t is not None)
        elif line.startswith(_OMITTED):
            self.fields["omitted"] = tuple(line[len(_OMITTED) :].split(", "))
        elif line == _BOXES:
            self.in_boxes = True

    def build(self) -> ScreenText:
        header = self.header or []
        extra = {"boxes": tuple(self.boxes), "lines": tuple(self.texts)}
        if _inventory_header(header):
            columns = tuple(_schema_part(header)[:-1])
            return ScreenText.model_validate(
                {**self.fields, "columns": columns, "rows": tuple(self.rows)} | extra
            )
        return ScreenText.model_validate(
            {**self.fields, "columns": tuple(header), "grid": tuple(self.grid)} | extra
        )


def screens_in(messages: Sequence[Message]) -> list[ScreenText]:
    """Every inventory table the user's messages carry, in order (grids without inventory rows
    are left out)."""
    return [
        screen
        for message in messages
        if message.role == "user"
        for screen in parse_screens(message.content)
        if screen.rows
    ]


def placement_problem(
    sku: str,
    warehouse: str,
    screens: Sequence[ScreenText],
    named: Sequence[str] = (),
    screen_only: bool = True,
    shown_as: Collection[str] = (),
) -> str | None:
    """Why an order for `sku` in `warehouse` is not where the screenshots put it, or None.

    The warehouse of a SKU the screens show comes from the screens (the row's own, else the
    page's) or from the task (`named`, its warehouses: exactly one places a row without one).
    A row that neither places is a question for the user, not a guess: the same SKU is often
    stocked in several warehouses. A task about more than the screen (`screen_only` false) may
    order a SKU the screen shows elsewhere; a SKU no screen shows is not judged here. The
    rows of `sku` are those that show it, and those whose key (a barcode, a name) the store
    resolved to it (`shown_as`)."""
    shown = [
        screen.warehouse_of(row)
        for screen in screens
        for row in screen.rows
        if row.sku == sku or row.key in shown_as
    ]
    placed = sorted({w for w in shown if w is not None})
    if not shown or warehouse in placed:
        return None
    if None in shown:
        if list(named) == [warehouse] or (named and warehouse not in named):
            return None  # the task's one warehouse places it; another one is the contract's
        if named:
            return (
                f"the screenshot shows {sku} without a warehouse and the task names "
                f"{', '.join(named)}: ask the user which one it is for; do not pick one."
            )
        return (
            f"the screenshot does not say which warehouse {sku} belongs to, and the task does "
            f"not either: ask the user which warehouse (a question); do not pick one."
        )
    if not screen_only:
        return None
    return f"the screenshot shows {sku} in {', '.join(placed)}, not in {warehouse}."


def parse_screens(text: str) -> list[ScreenText]:
    """Every screen written in `text` by `render_screen`, in order; other text is ignored."""
    screens: list[ScreenText] = []
    current: _Builder | None = None
    for line in text.splitlines():
        if match := _CAPTURED.match(line.strip()):
            if current is not None:
                screens.append(current.build())
            try:
                captured = datetime.fromisoformat(match[1])
            except ValueError:
                current = None
                continue
            current = _Builder(captured, bool(match[2]))
            continue
        if current is None:
            continue
        if not line.strip():
            if current.header is not None or current.in_block:
                screens.append(current.build())
                current = None
            continue
        current.take(line)
    if current is not None:
        screens.append(current.build())
    return screens
