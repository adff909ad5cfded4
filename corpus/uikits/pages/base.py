"""What the kit pages share: `Ctx`, the spec and its grid, which writes the truth attributes and
what every page builds from them (a table with hooks for each kit's markup, the menu, labels and
cards, a status `Badge`), and a phone's status bar and tabs.

Truth attributes: every element that shows a truth text carries `data-r` (0 for a table's
header, then 1.. for the items in order) and `data-c` (the column, or the field slot of a card);
each table cell and each card or list item carries `data-box` (with `data-rb`, its item, where it
has no `data-r`): the truth's `table_box` is the union of the boxes of the visible ones.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import NamedTuple

from webcorpus.designs.common import icon

from ..data import Grid
from ..model import NUMERIC, Cue, UiSpec

NAV_EN = (
    ("home", "Dashboard"),
    ("box", "Inventory"),
    ("refresh", "Transfers"),
    ("truck", "Purchase orders"),
    ("user", "Suppliers"),
    ("chart", "Reports"),
    ("gear", "Settings"),
)
NAV_ZH = (
    ("home", "首页"),
    ("box", "库存查询"),
    ("refresh", "调拨单"),
    ("truck", "采购订单"),
    ("user", "供应商"),
    ("chart", "报表中心"),
    ("gear", "系统设置"),
)
ACTIVE = {"Inventory", "库存查询"}
STOCK_TRAIL = ("Home", "Inventory", "Stock")
"""The breadcrumb labels of an English admin page's stock table."""
PAGE_ROWS = 20
"""Rows a page of a paginated table holds."""

NavItem = tuple[str, str]
"""A menu item: its icon and its label."""


class Badge(NamedTuple):
    """A kit's status badge: its markup (`{kind}`, `{attrs}`, `{text}`) and its kind for an item
    whose stock is low and for one whose stock is not."""

    template: str
    low: str
    ok: str


class Menu(NamedTuple):
    """An ERP sidebar: its first item, then an open group (its label and its items), then the
    other items."""

    first: NavItem
    group: str
    grouped: tuple[NavItem, ...]
    rest: tuple[NavItem, ...]


class Card(NamedTuple):
    """An item as a card or list row shows it: its index and box attributes, its name and its
    code (attributes, escaped text), its status badge ("" where the screen shows no status) and
    its other fields (`meta_parts`)."""

    r: int
    box: str
    title_attrs: str
    title: str
    code_attrs: str
    code: str
    badge: str
    meta: list[str]

    @property
    def meta_line(self) -> str:
        """The other fields on one line, `·` between them."""
        return " · ".join(self.meta)


@dataclass(frozen=True)
class Body:
    """A design's page: the body markup, its own CSS (after the kit's) and root attributes."""

    html: str
    css: str = ""
    html_attrs: str = ""
    body_attrs: str = ""


@dataclass
class Ctx:
    """The spec and its grid, and every truth text the page writes (checked against the DOM)."""

    spec: UiSpec
    grid: Grid
    expected: dict[tuple[int, int], str] = field(default_factory=dict)

    @property
    def zh(self) -> bool:
        return self.spec.formats.language == "zh"

    @property
    def n(self) -> int:
        return len(self.grid.items)

    @property
    def dark(self) -> bool:
        return self.spec.theme in ("dark", "darkly", "superhero", "cyborg")

    def has(self, option: str) -> bool:
        return option in self.spec.options

    def numeric(self, c: int) -> bool:
        return self.grid.columns[c].field in NUMERIC

    def field(self, c: int) -> str:
        return self.grid.columns[c].field

    def low(self, r: int) -> bool:
        return self.grid.items[r].low

    def head(self, c: int) -> str:
        """Attributes of header cell `c`."""
        self.expected[(0, c)] = self.grid.header[c]
        return f' data-r="0" data-c="{c}" data-box'

    def cell(self, r: int, c: int) -> str:
        """Attributes of body cell (`r`, `c`), `r` counting items from 0."""
        self.expected[(r + 1, c)] = self.grid.texts[r][c]
        return f' data-r="{r + 1}" data-c="{c}" data-box'

    def slot(self, r: int, c: int, text: str) -> str:
        """Attributes of an element of item `r` showing `text` (a card's or list item's field)."""
        self.expected[(r + 1, c)] = text
        return f' data-r="{r + 1}" data-c="{c}"'

    def item_box(self, r: int) -> str:
        return f' data-rb="{r + 1}" data-box'

    def text(self, r: int, c: int) -> str:
        return escape(self.grid.texts[r][c])

    # What a kit's page builds from the spec: its table, menu, labels and cards.

    def table(
        self,
        *,
        classes: str,
        numeric: str = "",
        th_class: Callable[[int], str] | None = None,
        td_class: Callable[[int, int], str] | None = None,
        th_inner: Callable[[int], str] | None = None,
        td_inner: Callable[[int, int], str] | None = None,
        tr_class: Callable[[int], str] = lambda r: "",
        head_tr_class: str = "",
        thead_class: str = "",
        tbody_class: str = "",
        lead_head: str = "",
        lead_cell: Callable[[int], str] = lambda r: "",
        colgroup: str = "",
        attrs: str = "",
    ) -> str:
        """A stock table in a kit's markup: its classes on the table, rows and cells (by default
        `numeric` on the header and body cells of number columns), and hooks for what goes inside
        a header or body cell (a kit's `<div class="cell">`, a badge)."""

        def cls(text: str) -> str:
            return f' class="{text}"' if text else ""

        def by_kind(c: int) -> str:
            return numeric if self.numeric(c) else ""

        head_class = th_class or by_kind
        cell_class = td_class or (lambda r, c: by_kind(c))

        heads = self.head_cells(lambda c: cls(head_class(c)), th_inner)
        rows = [
            f"<tr{cls(tr_class(r))}>{lead_cell(r)}"
            f"{self.body_cells(r, lambda r, c: cls(cell_class(r, c)), td_inner)}</tr>"
            for r in range(self.n)
        ]
        return (
            f"<table{cls(classes)}{attrs}>{colgroup}<thead{cls(thead_class)}>"
            f"<tr{cls(head_tr_class)}>{lead_head}{heads}</tr></thead>"
            f"<tbody{cls(tbody_class)}>{''.join(rows)}</tbody></table>"
        )

    def head_cells(
        self, attrs: Callable[[int], str], inner: Callable[[int], str] | None = None
    ) -> str:
        """The header row's cells: each `<th>` with the kit's `attrs(c)` and the truth
        attributes, around `inner(c)` (by default the header's text)."""
        return "".join(
            f"<th{attrs(c)}{self.head(c)}>{inner(c) if inner else escape(self.grid.header[c])}</th>"
            for c in range(len(self.grid.columns))
        )

    def body_cells(
        self,
        r: int,
        attrs: Callable[[int, int], str],
        inner: Callable[[int, int], str] | None = None,
    ) -> str:
        """Item `r`'s cells: each `<td>` with the kit's `attrs(r, c)` and the truth attributes,
        around `inner(r, c)` (by default the cell's text)."""
        return "".join(
            f"<td{attrs(r, c)}{self.cell(r, c)}>{inner(r, c) if inner else self.text(r, c)}</td>"
            for c in range(len(self.grid.columns))
        )

    def switched(self, classes: str, *, striped: str = "", small: str = "") -> str:
        """A table's `classes` with the kit's classes for the spec's switches: `striped` rows, and
        `small` for a narrow or compact table."""
        if self.has("striped"):
            classes += striped
        if self.has("narrow") or self.has("compact"):
            classes += small
        return classes

    def nav(self) -> tuple[NavItem, ...]:
        return NAV_ZH if self.zh else NAV_EN

    def menu(self) -> Menu:
        """The menu as an ERP's sidebar groups it: the stock pages in an open group."""
        items = self.nav()
        return Menu(items[0], "库存管理" if self.zh else "Inventory", items[1:4], items[4:])

    @property
    def page(self) -> int:
        """The page of the table the first row is on."""
        return (self.spec.first_index - 1) // PAGE_ROWS + 1

    def crumbs(self, labels: Sequence[str]) -> list[str]:
        """A breadcrumb trail of `labels` as markup (each label escaped), the warehouse before
        the last one where the page states it in its breadcrumb."""
        trail = [escape(label) for label in labels]
        if self.spec.cue == "breadcrumb":
            trail.insert(-1, self.cue_text())
        return trail

    def trail(self, link: str, current: str, labels: Sequence[str] = STOCK_TRAIL) -> str:
        """The breadcrumb trail of `labels` (as `crumbs` gives it) in a kit's markup: each crumb
        but the last in `link`, the last (the page itself) in `current` (`{text}` in each)."""
        *path, page = self.crumbs(labels)
        return "".join(link.format(text=c) for c in path) + current.format(text=page)

    def warehouse_label(self) -> str:
        return "仓库" if self.zh else "Warehouse"

    def chip_text(self, colon: str = ": ") -> str:
        """A filter chip's text: the label and the page's warehouse (`Warehouse: WH-02`)."""
        return f"{self.warehouse_label()}{colon}{self.cue_text()}"

    def count_text(self, total: int) -> str:
        first = self.spec.first_index
        if self.zh:
            return f"共 {total} 条"
        return f"Showing {first}–{first + self.n - 1} of {total}"

    def card_title(self, r: int) -> tuple[str, str]:
        """(attributes, escaped text) of item `r`'s name."""
        c = self.grid.find("name")
        assert c is not None
        text = self.grid.texts[r][c]
        return self.slot(r, c, text), escape(text)

    def card_code(self, r: int) -> tuple[str, str]:
        c = self.grid.find("sku")
        assert c is not None
        text = self.grid.texts[r][c]
        return self.slot(r, c, text), escape(text)

    def meta_parts(self, r: int, skip: tuple[str, ...] = ("name", "sku", "status")) -> list[str]:
        """Item `r`'s other fields as labelled spans (`On hand 12`, `Min 40`, `WH-02`)."""
        out = []
        for c, col in enumerate(self.grid.columns):
            if col.field in skip:
                continue
            value = self.grid.texts[r][c]
            text = f"{col.header} {value}" if col.header else value
            out.append(f"<span{self.slot(r, c, text)}>{escape(text)}</span>")
        return out

    def cards(self, badge: Badge) -> Iterator[Card]:
        """Each item as a card or list row shows it, its status in the kit's `badge`."""
        for r in range(self.n):
            (title_attrs, title), (code_attrs, code) = self.card_title(r), self.card_code(r)
            status = self.status_badge(r, self.status_text(r), badge)
            yield Card(
                r,
                self.item_box(r),
                title_attrs,
                title,
                code_attrs,
                code,
                status,
                self.meta_parts(r),
            )

    def status_badge(self, r: int, status: tuple[str, str] | None, badge: Badge) -> str:
        """Item `r`'s status (attributes, escaped text) in the kit's `badge`; "" where the screen
        shows no status."""
        if status is None:
            return ""
        kind = badge.low if self.low(r) else badge.ok
        return badge.template.format(kind=kind, attrs=status[0], text=status[1])

    def marked(
        self, r: int, c: int, badge: Badge | None = None, wraps: Mapping[str, str] | None = None
    ) -> str:
        """Body cell (`r`, `c`)'s text in the kit's markup: a status in its `badge`, a field that
        `wraps` names in its wrapper (`{text}`), anything else as it is."""
        field, text = self.field(c), self.text(r, c)
        if field == "status" and badge is not None:
            return self.status_badge(r, ("", text), badge)
        if wraps and field in wraps:
            return wraps[field].format(text=text)
        return text

    def status_text(self, r: int) -> tuple[str, str] | None:
        c = self.grid.find("status")
        if c is None:
            return None
        text = self.grid.texts[r][c]
        return self.slot(r, c, text), escape(text)

    def heading(self, sep: str) -> str:
        """The page's title, the warehouse after `sep` where the page states it in its heading."""
        return esc(self.spec.title) + self.if_cue("heading", f"{sep}{self.cue_text()}")

    def cue_text(self) -> str:
        """The page's warehouse where the page states it (a heading, chip, breadcrumb or tab),
        marked `data-cue`: the renderer checks that it is visible and readable."""
        return f"<span data-cue>{escape(self.spec.page_warehouse or '')}</span>"

    def if_cue(self, cue: Cue, markup: str, other: str = "") -> str:
        """`markup` (a filter chip, a breadcrumb item) on a page that states its warehouse
        there, else `other` ("" unless given)."""
        return markup if self.spec.cue == cue else other


def on(label: str, active: str, other: str = "") -> str:
    """A menu item's markup: `active` on the page's own item (`Inventory`), else `other`."""
    return active if label in ACTIVE else other


PHONE_CSS = """
.phone-status{height:47px;display:flex;align-items:center;justify-content:space-between;
  padding:0 26px 0 34px;font-size:16px;font-weight:600;flex:none}
.phone-status .icons{display:flex;gap:6px;align-items:center}
.phone-home{position:fixed;left:50%;bottom:8px;width:134px;height:5px;border-radius:3px;
  margin-left:-67px;z-index:50}
"""


def phone_status_bar(time: str, color: str, background: str) -> str:
    signal = (
        '<svg width="18" height="12" viewBox="0 0 18 12" aria-hidden="true">'
        f'<rect x="0" y="8" width="3" height="4" rx="1" fill="{color}"/>'
        f'<rect x="5" y="5" width="3" height="7" rx="1" fill="{color}"/>'
        f'<rect x="10" y="2.5" width="3" height="9.5" rx="1" fill="{color}"/>'
        f'<rect x="15" y="0" width="3" height="12" rx="1" fill="{color}"/></svg>'
    )
    wifi = (
        '<svg width="17" height="12" viewBox="0 0 17 12" aria-hidden="true">'
        f'<path d="M8.5 11.6l2.4-2.6a3.4 3.4 0 0 0-4.8 0z" fill="{color}"/>'
        f'<path d="M3.5 6.2a7.1 7.1 0 0 1 10 0l-1.6 1.7a4.8 4.8 0 0 0-6.8 0z" fill="{color}"/>'
        f'<path d="M.6 3.3a11.2 11.2 0 0 1 15.8 0l-1.6 1.7a8.9 8.9 0 0 0-12.6 0z" '
        f'fill="{color}"/></svg>'
    )
    battery = (
        '<svg width="27" height="13" viewBox="0 0 27 13" aria-hidden="true">'
        f'<rect x="0.5" y="0.5" width="23" height="12" rx="3.5" fill="none" stroke="{color}" '
        f'stroke-opacity=".4"/><rect x="2" y="2" width="17" height="9" rx="2" fill="{color}"/>'
        f'<rect x="24.5" y="4" width="1.5" height="5" rx=".75" fill="{color}" '
        'fill-opacity=".4"/></svg>'
    )
    return (
        f'<div class="phone-status" style="color:{color};background:{background}">'
        f'<span>{time}</span><span class="icons">{signal}'
        f"{wifi}{battery}</span></div>"
    )


def phone_home(color: str) -> str:
    return f'<div class="phone-home" style="background:{color}"></div>'


def phone_tabs(icons: tuple[str, ...], labels: tuple[str, ...]) -> str:
    """A phone page's bottom tabs: an icon above each label, the second tab (stock) on."""
    return "".join(
        f'<span class="{"on" if i == 1 else ""}">{icon(n, 22)}<br>{t}</span>'
        for i, (n, t) in enumerate(zip(icons, labels, strict=True))
    )


def esc(text: str) -> str:
    return escape(text)


__all__ = [
    "ACTIVE",
    "PHONE_CSS",
    "Badge",
    "Body",
    "Card",
    "Ctx",
    "Menu",
    "esc",
    "icon",
    "on",
    "phone_home",
    "phone_status_bar",
    "phone_tabs",
]
