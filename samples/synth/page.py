"""Page layouts around the table: a web admin with sidebar, a classic desktop ERP window, and a
bare table exported as an overlay. Each draws the page and returns the table box (CSS px)."""

from __future__ import annotations

from collections.abc import Callable

from .data import TableData
from .draw import Painter
from .model import Box, Spec
from .table import draw_table, layout

# --- web admin page with a sidebar -----------------------------------------------------------


def _initials(name: str) -> str:
    parts = name.split()
    return "".join(part[0] for part in parts[:2]).upper() if len(parts) > 1 else name[:1]


def _sidebar(p: Painter, spec: Spec) -> None:
    t, c, text = spec.theme, spec.chrome, spec.page
    k = c.size / 14
    h = spec.view[1]
    p.rect((0, 0, c.sidebar_w, h), fill=t.sidebar_bg)
    p.rect(
        (20 * k, c.topbar_h / 2 - 12 * k, 44 * k, c.topbar_h / 2 + 12 * k),
        fill=t.accent,
        radius=6 * k,
    )
    p.text(32 * k, c.topbar_h / 2, text.brand[:1], c.bold, c.size, t.accent_text, anchor="mm")
    p.text(54 * k, c.topbar_h / 2, text.brand, c.bold, c.size + 3, t.sidebar_text)
    y = c.topbar_h + 20 * k
    for i, label in enumerate(text.nav):
        cy = y + i * 40 * k + 20 * k
        color = t.sidebar_active_text if i == text.active else t.sidebar_text
        if i == text.active:
            p.rect(
                (10 * k, cy - 17 * k, c.sidebar_w - 10 * k, cy + 17 * k),
                fill=t.sidebar_active_bg,
                radius=6 * k,
            )
        p.rect((24 * k, cy - 8 * k, 40 * k, cy + 8 * k), outline=color, width=1.5, radius=4 * k)
        p.text(54 * k, cy, label, c.regular, c.size, color)
    p.text(24 * k, h - 24 * k, "v4.12.0", c.regular, c.size - 2, t.muted)
    p.vline(c.sidebar_w - 1, 0, h, t.border)


def _search_icon(p: Painter, x: float, cy: float, k: float, color: tuple[int, int, int]) -> None:
    p.circle(x, cy - 1 * k, 5 * k, None, outline=color)
    p.draw.line(
        [(p.px(x + 3.5 * k), p.px(cy + 2.5 * k)), (p.px(x + 7 * k), p.px(cy + 6 * k))],
        fill=color,
        width=max(1, p.px(1.5)),
    )


def _topbar(p: Painter, spec: Spec) -> None:
    t, c, text = spec.theme, spec.chrome, spec.page
    k = c.size / 14
    w, _ = spec.view
    cy = c.topbar_h / 2
    p.rect((c.sidebar_w, 0, w, c.topbar_h), fill=t.topbar_bg)
    p.hline(c.sidebar_w, w, c.topbar_h - 1, t.border)
    x = c.sidebar_w + c.margin
    p.rect(
        (x, cy - 17 * k, x + 360 * k, cy + 17 * k), fill=t.input_bg, outline=t.border, radius=6 * k
    )
    _search_icon(p, x + 16 * k, cy, k, t.muted)
    p.text(x + 34 * k, cy, text.search, c.regular, c.size, t.muted)
    right = w - c.margin
    name_w = p.measure(text.user, c.regular, c.size)
    p.caret(right - 4 * k, cy, t.muted, 4 * k)
    p.text(right - 16 * k - name_w, cy, text.user, c.regular, c.size, t.text)
    avatar_x = right - 36 * k - name_w
    p.circle(avatar_x, cy, 16 * k, t.accent)
    p.text(avatar_x, cy, _initials(text.user), c.bold, c.size - 2, t.accent_text, anchor="mm")
    p.circle(avatar_x - 44 * k, cy - 1 * k, 8 * k, None, outline=t.muted)
    p.circle(avatar_x - 37 * k, cy - 8 * k, 4 * k, t.bad[1])


def _button(p: Painter, spec: Spec, right: float, cy: float, label: str, primary: bool) -> float:
    """Draw a button that ends at `right`; returns its left edge."""
    t, c = spec.theme, spec.chrome
    k = c.size / 14
    width = p.measure(label, c.bold, c.size) + 32 * k
    box = (right - width, cy - 18 * k, right, cy + 18 * k)
    if primary:
        p.rect(box, fill=t.accent, radius=6 * k)
    else:
        p.rect(box, fill=t.card_bg, outline=t.border, radius=6 * k)
    color = t.accent_text if primary else t.text
    p.text(right - width / 2, cy, label, c.bold, c.size, color, anchor="mm")
    return right - width


def _heading(p: Painter, spec: Spec, x0: float, x1: float, top: float) -> None:
    t, c, text = spec.theme, spec.chrome, spec.page
    k = c.size / 14
    p.text(x0, top + 22 * k, "  /  ".join(text.breadcrumb), c.regular, c.size - 1, t.muted)
    p.text(x0, top + 54 * k, text.title, c.bold, c.title_size, t.text)
    p.text(x0, top + 84 * k, text.subtitle, c.regular, c.size, t.muted)
    right = x1
    for i, label in enumerate(reversed(text.actions)):
        right = _button(p, spec, right, top + 54 * k, label, primary=i == 0) - 12 * k


def _chips(p: Painter, spec: Spec, x: float, cy: float) -> None:
    t, c = spec.theme, spec.chrome
    k = c.size / 14
    for label in spec.page.chips:
        width = p.measure(label, c.regular, c.size - 1) + 28 * k
        p.rect(
            (x, cy - 15 * k, x + width, cy + 15 * k),
            fill=t.input_bg,
            outline=t.border,
            radius=15 * k,
        )
        p.text(x + 14 * k, cy, label, c.regular, c.size - 1, t.text)
        x += width + 8 * k


def _pager(
    p: Painter, spec: Spec, x0: float, x1: float, top: float, height: float, n_rows: int
) -> None:
    t, c, text = spec.theme, spec.chrome, spec.page
    k = c.size / 14
    cy = top + height / 2
    footer = text.footer.format(n=n_rows)
    p.text(x0 + 16 * k, cy, footer, c.regular, c.size - 1, t.muted)
    right = x1 - 16 * k
    for i, label in enumerate(reversed(text.pager)):
        is_page = i == len(text.pager) - 2
        box = (right - 30 * k, cy - 15 * k, right, cy + 15 * k)
        p.rect(box, fill=t.accent if is_page else t.card_bg, outline=t.border, radius=6 * k)
        color = t.accent_text if is_page else t.text
        p.text(right - 15 * k, cy, label, c.regular, c.size - 1, color, anchor="mm")
        right -= 36 * k


def sidebar_page(p: Painter, spec: Spec, table: TableData) -> Box:
    t, c = spec.theme, spec.chrome
    k = c.size / 14
    w, h = spec.view
    _sidebar(p, spec)
    _topbar(p, spec)
    x0, x1 = c.sidebar_w + c.margin, w - c.margin
    _heading(p, spec, x0, x1, c.topbar_h)
    card_top = c.topbar_h + 104 * k
    toolbar_h, footer_h = 56 * k, 52 * k
    geo = layout(p, table, spec.table, x0 + 1, card_top + toolbar_h, x1 - x0 - 2)
    bottom = geo.bottom(len(table.cells))
    card = (x0, card_top, x1, bottom + footer_h)
    if card[3] > h - 8:
        raise ValueError(f"{spec.file}: page content ends at {card[3]:.0f}, view is {h}")
    p.rect(card, fill=t.card_bg, outline=t.border, radius=8 * k)
    _chips(p, spec, x0 + 16 * k, card_top + toolbar_h / 2)
    columns = spec.page.toolbar[0] if spec.page.toolbar else "Columns"
    _button(p, spec, x1 - 16 * k, card_top + toolbar_h / 2, columns, primary=False)
    p.hline(x0, x1, card_top + toolbar_h - 1, t.border)
    box = draw_table(p, table, t, geo, spec.table)
    _pager(p, spec, x0, x1, bottom, footer_h, len(table.cells))
    return box


# --- classic desktop ERP window --------------------------------------------------------------

_CLASSIC_BAR = (240, 240, 240)
_CLASSIC_EDGE = (160, 160, 160)


def _title_bar(p: Painter, spec: Spec) -> float:
    c, w = spec.chrome, spec.view[0]
    p.rect((0, 0, w, 30), fill=spec.theme.accent)
    p.rect((8, 8, 22, 22), fill=spec.theme.accent_text)
    p.text(30, 15, spec.page.title, c.regular, c.size, spec.theme.accent_text)
    for i in range(3):
        x = w - 46 * (i + 1) + 23
        p.text(
            x, 15, ("×", "□", "–")[i], c.regular, c.size + 2, spec.theme.accent_text, anchor="mm"
        )
    return 30


def _menu_and_toolbar(p: Painter, spec: Spec, top: float) -> float:
    c, w, text = spec.chrome, spec.view[0], spec.page
    p.rect((0, top, w, top + 22), fill=_CLASSIC_BAR)
    x = 8.0
    for label in text.menu:
        x += p.text(x, top + 11, label, c.regular, c.size, spec.theme.text) + 18
    top += 22
    p.rect((0, top, w, top + 40), fill=(248, 248, 248))
    p.hline(0, w, top, (225, 225, 225))
    p.hline(0, w, top + 39, _CLASSIC_EDGE)
    x = 8.0
    for i, label in enumerate(text.toolbar):
        width = p.measure(label, c.regular, c.size) + 34
        p.rect(
            (x, top + 5, x + width, top + 35), fill=_CLASSIC_BAR, outline=(200, 200, 200), radius=2
        )
        p.rect(
            (x + 6, top + 12, x + 22, top + 28),
            fill=((60, 120, 200), (70, 150, 90), (200, 120, 40))[i % 3],
        )
        p.text(x + 28, top + 20, label, c.regular, c.size, spec.theme.text)
        x += width + 6
    return top + 40


def _selection(p: Painter, spec: Spec, top: float) -> float:
    c, w, t = spec.chrome, spec.view[0], spec.theme
    p.rect((8, top + 10, w - 8, top + 70), outline=_CLASSIC_EDGE)
    legend = spec.page.subtitle
    p.rect((16, top + 2, 24 + p.measure(legend, c.regular, c.size), top + 18), fill=t.page_bg)
    p.text(20, top + 10, legend, c.regular, c.size, t.text)
    x = 20.0
    for label, value in spec.page.fields:
        x += p.text(x, top + 40, label, c.regular, c.size, t.text) + 8
        width = max(140, p.measure(value, c.regular, c.size) + 36)
        p.rect((x, top + 29, x + width, top + 51), fill=(255, 255, 255), outline=(122, 122, 122))
        p.text(x + 5, top + 40, value, c.regular, c.size, t.text)
        p.caret(x + width - 10, top + 40, t.text, 3.5)
        x += width + 28
    return top + 78


def _status_bar(p: Painter, spec: Spec, n_rows: int) -> None:
    c, (w, h) = spec.chrome, spec.view
    p.rect((0, h - 24, w, h), fill=_CLASSIC_BAR)
    p.hline(0, w, h - 24, _CLASSIC_EDGE)
    x = 8.0
    for part in spec.page.status:
        x += p.text(x, h - 12, part.format(n=n_rows), c.regular, c.size, spec.theme.text) + 14
        p.vline(x, h - 20, h - 4, _CLASSIC_EDGE)
        x += 14


def classic_page(p: Painter, spec: Spec, table: TableData) -> Box:
    w, h = spec.view
    top = _title_bar(p, spec)
    top = _menu_and_toolbar(p, spec, top)
    top = _selection(p, spec, top + 4)
    panel = (8, top, w - 8, h - 32)
    p.rect(panel, fill=spec.theme.card_bg, outline=_CLASSIC_EDGE)
    geo = layout(p, table, spec.table, 9, top + 1, w - 18)
    if geo.bottom(len(table.cells)) > panel[3]:
        raise ValueError(f"{spec.file}: grid does not fit the window")
    box = draw_table(p, table, spec.theme, geo, spec.table)
    _status_bar(p, spec, len(table.cells))
    return box


# --- a bare table, exported as an overlay ----------------------------------------------------


def overlay_page(p: Painter, spec: Spec, table: TableData) -> Box:
    margin = spec.chrome.margin
    geo = layout(p, table, spec.table, margin, margin, None)
    w, h = spec.view
    if geo.x1 > w - margin or geo.bottom(len(table.cells)) > h - margin:
        raise ValueError(f"{spec.file}: table does not fit {w}x{h}")
    return draw_table(p, table, spec.theme, geo, spec.table)


LAYOUTS: dict[str, Callable[[Painter, Spec, TableData], Box]] = {
    "sidebar": sidebar_page,
    "classic": classic_page,
    "overlay": overlay_page,
}
