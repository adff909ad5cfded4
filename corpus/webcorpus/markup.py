"""Table markup: one cell model rendered two ways, styled for the page and plain for the truth.

Cells that hold a truth text carry `data-r` (0 for the header, then the body rows) and `data-c`
(the column in the truth's `header`); a merged body cell also carries `data-rows`. Every cell
of the table region carries `data-box`: the truth's `table_box` is the union of their boxes.
The plain form (tags, `colspan`, `rowspan` and texts only) is the structure a table-structure
metric such as TEDS compares against.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Literal

Tag = Literal["th", "td"]


@dataclass(frozen=True)
class Cell:
    text: str
    tag: Tag = "td"
    html: str | None = None
    """Display markup; the escaped text when None."""
    classes: str = ""
    colspan: int = 1
    rowspan: int = 1
    at: tuple[int, int] | None = None
    """(row, column) in the truth grid, header row 0; a merged body cell covers `rowspan` rows."""
    boxed: bool = True
    """Part of the table region (a checkbox column is not)."""


@dataclass(frozen=True)
class Row:
    cells: tuple[Cell, ...]
    classes: str = ""


@dataclass(frozen=True)
class TableMarkup:
    head: tuple[Row, ...]
    body: tuple[Row, ...]
    classes: str = ""


def _attrs(cell: Cell, styled: bool) -> str:
    out = []
    if cell.colspan > 1:
        out.append(f' colspan="{cell.colspan}"')
    if cell.rowspan > 1:
        out.append(f' rowspan="{cell.rowspan}"')
    if not styled:
        return "".join(out)
    if cell.classes:
        out.append(f' class="{cell.classes}"')
    if cell.at is not None:
        r, c = cell.at
        out.append(f' data-r="{r}" data-c="{c}"')
        if cell.rowspan > 1 and cell.tag == "td":
            out.append(f' data-rows="{cell.rowspan}"')
    if cell.boxed:
        out.append(" data-box")
    return "".join(out)


def _cell(cell: Cell, styled: bool) -> str:
    inner = cell.html if styled and cell.html is not None else escape(cell.text)
    return f"<{cell.tag}{_attrs(cell, styled)}>{inner}</{cell.tag}>"


def _row(row: Row, styled: bool) -> str:
    cls = f' class="{row.classes}"' if styled and row.classes else ""
    return f"<tr{cls}>" + "".join(_cell(c, styled) for c in row.cells) + "</tr>"


def _table(table: TableMarkup, styled: bool, attrs: str) -> str:
    head = "".join(_row(r, styled) for r in table.head)
    body = "".join(_row(r, styled) for r in table.body)
    return f"<table{attrs}><thead>{head}</thead><tbody>{body}</tbody></table>"


def render_table(table: TableMarkup) -> str:
    """The table as the page shows it: classes, display markup and truth attributes."""
    cls = f' class="{table.classes}"' if table.classes else ""
    return _table(table, True, cls + " data-truth")


def plain_table(table: TableMarkup) -> str:
    """The table's structure and texts only, for a table-structure metric."""
    plain = TableMarkup(
        head=tuple(_boxed_only(r) for r in table.head),
        body=tuple(_boxed_only(r) for r in table.body),
    )
    return _table(plain, False, "")


def _boxed_only(row: Row) -> Row:
    return Row(tuple(c for c in row.cells if c.boxed))


def document(title: str, lang: str, css: str, body: str) -> str:
    """A whole page: no scripts, no external resources, nothing that moves."""
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{BASE_CSS}{css}</style></head>"
        f"<body>{body}</body></html>\n"
    )


BASE_CSS = (
    "*,*::before,*::after{box-sizing:border-box;animation:none!important;"
    "transition:none!important;caret-color:transparent!important}"
    "html,body{margin:0;padding:0;overflow:hidden}"
    "body{text-rendering:geometricPrecision}"
    "table{border-collapse:collapse;border-spacing:0}"
    "svg{display:inline-block;vertical-align:middle}"
)
