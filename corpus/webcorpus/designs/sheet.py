"""A spreadsheet: menu and toolbar, formula bar, column letters, row numbers, gridlines and a
frozen header row above rows scrolled further down (row numbers jump past the hidden ones)."""

from __future__ import annotations

from html import escape

from ..data import TableData
from ..markup import Cell, Row, TableMarkup, render_table
from ..model import Spec
from .common import Page, icon, styled_page

MENUS = ("File", "Edit", "View", "Insert", "Format", "Data", "Tools", "Extensions", "Help")
TABS = ("Stock", "Incoming", "Suppliers", "Notes")
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_FILLER_COLUMNS = 10
_FILLER_ROWS = 40

CSS = """
body{background:#f9fbfd;color:#000;font-size:13px;height:100vh;display:flex;
  flex-direction:column}
.top{display:flex;align-items:center;gap:12px;padding:8px 14px 2px}
.doc-icon{width:26px;height:34px;background:#0f9d58;border-radius:3px;position:relative}
.doc-icon::after{content:"";position:absolute;left:6px;right:6px;top:11px;bottom:8px;
  border:2px solid #fff;border-radius:1px}
.doc-title{font-size:18px;color:#1f1f1f}
.menus{display:flex;gap:14px;font-size:14px;color:#1f1f1f;margin-top:2px}
.share{margin-left:auto;background:#c2e7ff;border-radius:18px;padding:8px 18px;font-size:14px;
  font-weight:700;color:#001d35}
.toolbar{display:flex;align-items:center;gap:14px;margin:6px 10px;padding:5px 14px;
  background:#edf2fa;border-radius:20px;color:#444746;font-size:13px}
.toolbar .sep{width:1px;height:18px;background:#c7c7c7}
.formula{display:flex;align-items:center;border-top:1px solid #e1e3e1;
  border-bottom:1px solid #e1e3e1;background:#fff;height:26px}
.namebox{width:88px;padding:0 8px;border-right:1px solid #e1e3e1;color:#444}
.fx{padding:0 10px;color:#777;font-style:italic;border-right:1px solid #e1e3e1}
.fval{padding:0 8px}
.grid{background:#fff;flex:1 1 auto;min-height:0;overflow:hidden}
table.sheet{table-layout:fixed}
.sheet td,.sheet th{border:1px solid #e2e3e3;height:21px;padding:0 4px;white-space:nowrap;
  overflow:hidden;font-weight:400;text-align:left;vertical-align:bottom}
.sheet .num{text-align:right}
.sheet thead tr.letters th{background:#f8f9fa;color:#444746;text-align:center;
  border-color:#c4c7c5;font-size:11px;height:20px;vertical-align:middle}
.sheet .gutter{background:#f8f9fa;color:#444746;text-align:center;border-color:#c4c7c5;
  font-size:11px;width:46px;vertical-align:middle}
.sheet tr.head th{font-weight:700;border-bottom:4px solid #c4c7c5;background:#fff}
.sheet tr.head th.gutter{border-bottom:4px solid #c4c7c5}
.sheet th.sel{outline:2px solid #1a73e8;outline-offset:-2px}
.tabs{flex:none;height:38px;background:#f9fbfd;
  border-top:1px solid #e1e3e1;display:flex;align-items:center;gap:4px;padding:0 12px;
  color:#444746;font-size:13px}
.tabs span{padding:6px 14px;border-radius:4px}
.tabs span.on{background:#e1e9f7;color:#0b57d0;font-weight:700}
"""


def _width(table: TableData, c: int) -> int:
    longest = max(len(t) for t in (table.header[c], *(row[c] for row in table.cells)))
    return max(70, 8 * longest + 16)


def _markup(spec: Spec, table: TableData) -> TableMarkup:
    n = len(table.header)
    letters = Row(
        (
            Cell("", tag="th", classes="gutter", boxed=False),
            *(Cell(LETTERS[c], tag="th", boxed=False) for c in range(n + _FILLER_COLUMNS)),
        ),
        classes="letters",
    )
    header = Row(
        (
            Cell("1", tag="th", classes="gutter", boxed=False),
            *(
                Cell(t, tag="th", classes="sel" if c == 0 else "", at=(0, c))
                for c, t in enumerate(table.header)
            ),
            *(Cell("", tag="th", boxed=False) for _ in range(_FILLER_COLUMNS)),
        ),
        classes="head",
    )
    body = [
        Row(
            (
                Cell(str(spec.first_row + r), classes="gutter", boxed=False),
                *(
                    Cell(text, classes="num" if table.numeric(c) else "", at=(r + 1, c))
                    for c, text in enumerate(row)
                ),
                *(Cell("", boxed=False) for _ in range(_FILLER_COLUMNS)),
            )
        )
        for r, row in enumerate(table.cells)
    ]
    first_empty = spec.first_row + len(table.cells)
    body += [
        Row(
            (
                Cell(str(first_empty + k), classes="gutter", boxed=False),
                *(Cell("", boxed=False) for _ in range(n + _FILLER_COLUMNS)),
            )
        )
        for k in range(_FILLER_ROWS)
    ]
    return TableMarkup(head=(letters, header), body=tuple(body), classes="sheet")


def _colgroup(table: TableData) -> str:
    widths = [46, *(_width(table, c) for c in range(len(table.header)))]
    widths += [100] * _FILLER_COLUMNS
    return "<colgroup>" + "".join(f'<col style="width:{w}px">' for w in widths) + "</colgroup>"


def page(spec: Spec, table: TableData) -> Page:
    fonts = (spec.font or "liberation-sans",)
    markup = _markup(spec, table)
    grid = render_table(markup).replace("<thead>", _colgroup(table) + "<thead>", 1)
    tools = "".join(
        icon(name, 16) for name in ("search", "undo", "refresh", "doc", "bold", "grid", "filter")
    )
    tabs = "".join(f'<span class="{"on" if t == "Stock" else ""}">{t}</span>' for t in TABS)
    menus = "".join(f"<span>{m}</span>" for m in MENUS)
    body = (
        '<div class="top"><span class="doc-icon"></span><div><div class="doc-title">'
        f'{escape(spec.title)}</div><div class="menus">{menus}'
        '</div></div><span class="share">Share</span></div>'
        f'<div class="toolbar">{tools}<span class="sep"></span>100%<span class="sep"></span>'
        f'Arial{icon("chevron-down", 10)}<span class="sep"></span>10</div>'
        f'<div class="formula"><span class="namebox">A1</span><span class="fx">fx</span>'
        f'<span class="fval">{escape(table.header[0])}</span></div>'
        f'<div class="grid">{grid}</div>'
        f'<div class="tabs">{icon("plus", 16)}{icon("list", 16)}{tabs}</div>'
    )
    return styled_page(spec, "en", fonts, CSS, body, markup)
