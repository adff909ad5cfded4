"""Draw a data table: column widths from content, header, rows, rules or stripes, badges."""

from __future__ import annotations

from dataclasses import dataclass

from .data import TableData
from .draw import Painter
from .model import RGB, Box, TableStyle, Theme

BAD_WORDS = frozenset({"Low", "库存不足", "Delayed", "Overdue"})
GOOD_WORDS = frozenset({"OK", "正常", "Delivered", "Received"})
_BADGE_PAD = 10


@dataclass(frozen=True)
class TableGeometry:
    x0: float
    y0: float
    widths: tuple[float, ...]
    style: TableStyle

    @property
    def x1(self) -> float:
        return self.x0 + sum(self.widths)

    def rows_top(self) -> float:
        return self.y0 + self.style.header_h

    def bottom(self, n_rows: int) -> float:
        return self.rows_top() + n_rows * self.style.row_h

    def box(self, n_rows: int) -> Box:
        return (self.x0, self.y0, self.x1, self.bottom(n_rows))


def _header_font(style: TableStyle) -> str:
    return style.bold if style.header_bold else style.regular


def natural_widths(p: Painter, table: TableData, style: TableStyle) -> list[float]:
    header_size = style.header_size or style.size
    widths = []
    for col, title in enumerate(table.header):
        extra = 2 * _BADGE_PAD if col == table.badge and style.badges else 0
        body = [p.measure(row[col], style.regular, style.size) + extra for row in table.cells]
        head = p.measure(title, _header_font(style), header_size)
        widths.append(max([head, *body]) + 2 * style.pad_x)
    return widths


def layout(
    p: Painter, table: TableData, style: TableStyle, x0: float, y0: float, width: float | None
) -> TableGeometry:
    """Fit the columns into `width` (extra space goes mostly to the widest text column)."""
    widths = natural_widths(p, table, style)
    if width is not None:
        spare = width - sum(widths)
        if spare < 0:
            raise ValueError(f"table needs {sum(widths):.0f} px, has {width:.0f}")
        flex = max(range(len(widths)), key=lambda i: 0 if i in table.right else widths[i])
        weights = [3.0 if i == flex else 1.0 for i in range(len(widths))]
        total = sum(weights)
        widths = [w + spare * k / total for w, k in zip(widths, weights, strict=True)]
    return TableGeometry(x0, y0, tuple(widths), style)


def _badge_colors(text: str, theme: Theme) -> tuple[RGB, RGB]:
    if text in BAD_WORDS:
        return theme.bad
    if text in GOOD_WORDS:
        return theme.good
    return theme.info


def _draw_badge(
    p: Painter, x: float, cy: float, text: str, style: TableStyle, theme: Theme
) -> None:
    bg, fg = _badge_colors(text, theme)
    size = style.size - 1
    width = p.measure(text, style.bold, size) + 2 * _BADGE_PAD
    height = min(style.row_h - 8, size + 10)
    p.rect((x, cy - height / 2, x + width, cy + height / 2), fill=bg, radius=height / 2)
    p.text(x + _BADGE_PAD, cy, text, style.bold, size, fg)


def _draw_cell(
    p: Painter,
    geo: TableGeometry,
    col: int,
    cy: float,
    text: str,
    color: RGB,
    font: str,
    size: float,
    right: bool,
) -> None:
    left = geo.x0 + sum(geo.widths[:col])
    pad = geo.style.pad_x
    if right:
        p.text(left + geo.widths[col] - pad, cy, text, font, size, color, anchor="rm")
    else:
        p.text(left + pad, cy, text, font, size, color)


def _draw_grid(p: Painter, geo: TableGeometry, n_rows: int, theme: Theme) -> None:
    style = geo.style
    x0, y0, x1, y1 = geo.box(n_rows)
    top = geo.rows_top()
    if style.header_shaded:
        p.rect((x0, y0, x1, top), fill=theme.header_bg)
    for r in range(n_rows):
        ry = top + r * style.row_h
        if style.grid == "striped" and r % 2 == 1:
            p.rect((x0, ry, x1, ry + style.row_h), fill=theme.stripe)
        if style.grid in ("ruled", "boxed"):
            p.hline(x0, x1, ry + style.row_h - 1, theme.rule)
    p.hline(x0, x1, top - 1, theme.rule, width=2 if style.grid == "borderless" else 1)
    if style.grid == "boxed":
        p.rect((x0, y0, x1, y1), outline=theme.rule)
        x = x0
        for w in geo.widths[:-1]:
            x += w
            p.vline(x, y0, y1, theme.rule)


def draw_table(
    p: Painter, table: TableData, theme: Theme, geo: TableGeometry, style: TableStyle
) -> Box:
    """Draw the table at `geo`; returns its box (header and rows) in CSS pixels."""
    n_rows = len(table.cells)
    _draw_grid(p, geo, n_rows, theme)
    header_size = style.header_size or style.size
    head_cy = geo.y0 + style.header_h / 2
    for col, title in enumerate(table.header):
        right = col in table.right and style.numbers_right
        font = _header_font(style)
        _draw_cell(p, geo, col, head_cy, title, theme.header_text, font, header_size, right)
    for r, row in enumerate(table.cells):
        cy = geo.rows_top() + r * style.row_h + style.row_h / 2
        for col, text in enumerate(row):
            if col == table.badge and style.badges:
                left = geo.x0 + sum(geo.widths[:col]) + style.pad_x
                _draw_badge(p, left, cy, text, style, theme)
                continue
            low = style.highlight_low and (r, col) in table.low
            color = theme.low_text if low else theme.text
            right = col in table.right and style.numbers_right
            _draw_cell(p, geo, col, cy, text, color, style.regular, style.size, right)
    return geo.box(n_rows)
