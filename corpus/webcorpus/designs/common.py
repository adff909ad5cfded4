"""What the designs share: the stock table's flat markup, badges, a few line icons, and the
page around a design's body."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from ..data import TableData
from ..fonts import font_face_css, stack
from ..markup import Cell, Row, TableMarkup, document
from ..model import Spec


@dataclass(frozen=True)
class Page:
    """A design's output: the HTML and the font families it declares."""

    html: str
    fonts: tuple[str, ...]
    table: TableMarkup


Design = Callable[[Spec, TableData], Page]


def styled_page(
    spec: Spec, lang: str, fonts: tuple[str, ...], css: str, body: str, table: TableMarkup
) -> Page:
    """A design's page: `body` in the faces of `fonts` (the text set in their stack), then the
    design's own `css`."""
    css = font_face_css(fonts) + f"body{{font-family:{stack(*fonts)}}}" + css
    return Page(document(spec.title, lang, css, body), fonts, table)


CellFor = Callable[[TableData, int, int], Cell]
"""The body cell for (row, column) of the table."""


def plain_cell(table: TableData, r: int, c: int) -> Cell:
    cls = "num" if table.numeric(c) else ""
    return Cell(table.cells[r][c], classes=cls, at=(r + 1, c))


def header_cells(table: TableData, extra: Callable[[int], str] = lambda c: "") -> tuple[Cell, ...]:
    return tuple(
        Cell(
            text,
            tag="th",
            classes=" ".join(x for x in ("num" if table.numeric(c) else "", extra(c)) if x),
            html=escape(text),
            at=(0, c),
        )
        for c, text in enumerate(table.header)
    )


def stock_markup(
    table: TableData,
    cell: CellFor = plain_cell,
    *,
    head: tuple[Cell, ...] | None = None,
    lead: Callable[[int], tuple[Cell, ...]] | None = None,
    head_lead: tuple[Cell, ...] = (),
    row_class: Callable[[int], str] = lambda r: "",
    classes: str = "",
) -> TableMarkup:
    """One header row and one body row per stock row; `lead` cells go before the truth cells."""
    header = Row((*head_lead, *(head if head is not None else header_cells(table))))
    body = tuple(
        Row(
            (
                *(lead(r) if lead else ()),
                *(cell(table, r, c) for c in range(len(table.header))),
            ),
            classes=row_class(r),
        )
        for r in range(len(table.cells))
    )
    return TableMarkup(head=(header,), body=body, classes=classes)


def status_of(table: TableData, c: int) -> bool:
    return table.fields[c] == "status"


def badge(text: str, low: bool, prefix: str = "badge") -> str:
    kind = "bad" if low else "good"
    return f'<span class="{prefix} {prefix}-{kind}">{escape(text)}</span>'


def icon(name: str, size: int = 16, stroke: str = "currentColor", width: float = 1.8) -> str:
    """An inline line icon drawn on a 24x24 grid."""
    return (
        f'<svg width="{size}" height="{size}" viewBox="0 0 24 24" fill="none" '
        f'stroke="{stroke}" stroke-width="{width}" stroke-linecap="round" '
        f'stroke-linejoin="round" aria-hidden="true">{ICONS[name]}</svg>'
    )


ICONS = {
    "menu": '<path d="M4 6h16M4 12h16M4 18h16"/>',
    "search": '<circle cx="11" cy="11" r="6.5"/><path d="M16 16l4.5 4.5"/>',
    "bell": '<path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4z"/><path d="M10 20a2 2 0 0 0 4 0"/>',
    "user": '<circle cx="12" cy="8" r="4"/><path d="M4 21c1-4.5 4-6.5 8-6.5s7 2 8 6.5"/>',
    "box": '<path d="M3 7.5 12 3l9 4.5v9L12 21l-9-4.5z"/><path d="M3 7.5 12 12l9-4.5M12 12v9"/>',
    "chart": '<path d="M4 20V10M10 20V4M16 20v-7M22 20H2"/>',
    "truck": '<path d="M2 6h12v10H2zM14 10h4l3 3v3h-7z"/><circle cx="6" cy="18" r="2"/>'
    '<circle cx="17" cy="18" r="2"/>',
    "list": '<path d="M8 6h13M8 12h13M8 18h13M3 6h1M3 12h1M3 18h1"/>',
    "gear": '<circle cx="12" cy="12" r="3"/><path d="M12 2v3M12 19v3M2 12h3M19 12h3'
    'M4.9 4.9 7 7M17 17l2.1 2.1M4.9 19.1 7 17M17 7l2.1-2.1"/>',
    "home": '<path d="M3 11 12 3l9 8"/><path d="M5 10v10h14V10"/>',
    "edit": '<path d="M4 20h4L19 9l-4-4L4 16z"/><path d="M13.5 6.5l4 4"/>',
    "more": '<circle cx="12" cy="5" r="1.2"/><circle cx="12" cy="12" r="1.2"/>'
    '<circle cx="12" cy="19" r="1.2"/>',
    "filter": '<path d="M3 5h18l-7 8v6l-4 2v-8z"/>',
    "download": '<path d="M12 3v12M7 10l5 5 5-5M4 20h16"/>',
    "plus": '<path d="M12 5v14M5 12h14"/>',
    "chevron-down": '<path d="M6 9l6 6 6-6"/>',
    "chevron-left": '<path d="M15 6l-6 6 6 6"/>',
    "chevron-right": '<path d="M9 6l6 6-6 6"/>',
    "sort": '<path d="M8 10l4-4 4 4M8 14l4 4 4-4"/>',
    "refresh": '<path d="M20 11a8 8 0 1 0-2.3 5.7"/><path d="M20 4v7h-7"/>',
    "grid": '<path d="M3 3h18v18H3zM3 9h18M3 15h18M9 3v18M15 3v18"/>',
    "bold": '<path d="M7 4h6a4 4 0 0 1 0 8H7zM7 12h7a4 4 0 0 1 0 8H7z"/>',
    "undo": '<path d="M9 14 4 9l5-5"/><path d="M4 9h10a6 6 0 0 1 0 12h-3"/>',
    "doc": '<path d="M6 2h9l5 5v15H6z"/><path d="M15 2v5h5"/>',
}
