"""What a UI-kit corpus entry is made of: the kit and theme, the page design, the columns or card
fields it shows, the items, where the page states its warehouse, and the screen."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from screengen import seed
from webcorpus.model import Capture, Screen

Field = Literal[
    "index",
    seed.StockField,
    "available",
    "on_order",
    "allocated",
    "unit",
    "price",
    "last_count",
    "status",
    "category",
    "supplier",
    "bin",
    "updated",
    "action",
]
Layout = Literal["table", "cards", "list"]
Cue = Literal["column", "heading", "chip", "breadcrumb", "tab", "card", "mixed"]
"""Where the page gives the warehouse: a column, only its heading, a filter chip, a breadcrumb,
a selected tab, each card's own text, or nowhere as one (rows of several warehouses)."""
Split = Literal["tune", "sealed"]

QUANTITY: frozenset[Field] = frozenset({"on_hand", "available", "reorder", "on_order", "allocated"})
NUMERIC: frozenset[Field] = QUANTITY | {"index", "price"}


@dataclass(frozen=True)
class Col:
    """A table column, or a labelled field of a card or list item: its header (or label), the
    field it shows and the unit written after its quantities."""

    header: str
    field: Field
    unit: str | None = None


@dataclass(frozen=True)
class Ref:
    """An item on screen: a SKU (or other item code) in a warehouse."""

    code: str
    warehouse: str


@dataclass(frozen=True)
class Formats(seed.Formats):
    """A UI-kit page's formats: dates without the time of day, an `Edit` action, and how
    zero quantities and units are written."""

    date: str = "%Y-%m-%d"
    action: str = "Edit"
    zero: str = "0"
    """How a zero on-order or allocated quantity is written ("0", "—", "-")."""
    unit_space: bool = True


@dataclass(frozen=True)
class UiSpec:
    """One browser render of an inventory page drawn with a UI kit's own CSS and markup."""

    file: str
    kit: str
    theme: str
    design: str
    layout: Layout
    description: str
    notes: str
    screen: Screen
    capture: Capture
    columns: tuple[Col, ...]
    rows: tuple[Ref, ...]
    title: str
    cue: Cue
    page_warehouse: str | None = None
    formats: Formats = field(default_factory=Formats)
    font: str = "roboto"
    """The latin text family (a key of `webcorpus.fonts.FAMILIES`) standing in for the kit's."""
    cjk: str | None = None
    """The Chinese family after it, for pages with Chinese text."""
    scroll: int = 0
    """CSS pixels the page (or its `data-scroll` region) is scrolled down before the shot; the
    renderer scrolls on by up to `SCROLL_SLACK` pixels until no row is cut in half."""
    first_index: int = 1
    """The running number (序号) of the first row."""
    options: tuple[str, ...] = ()
    """Design switches: `narrow` quantity columns, `striped`, `compact`, `selected` rows..."""
