"""The data a sample is made of: theme, table style, page text, rows, capture metadata."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from screengen import seed
from screengen.capture import Capture
from screengen.seed import Shown, StockField

RGB = tuple[int, int, int]
Box = tuple[float, float, float, float]

Layout = Literal["sidebar", "classic", "overlay"]
Grid = Literal["ruled", "striped", "boxed", "borderless"]
Field = Literal[
    StockField,
    "status",
    "updated",
    "price",
    "category",
    "incoming",
]


@dataclass(frozen=True)
class Theme:
    page_bg: RGB
    text: RGB
    muted: RGB
    accent: RGB
    accent_text: RGB
    border: RGB
    card_bg: RGB
    sidebar_bg: RGB
    sidebar_text: RGB
    sidebar_active_bg: RGB
    sidebar_active_text: RGB
    topbar_bg: RGB
    input_bg: RGB
    header_bg: RGB
    header_text: RGB
    stripe: RGB
    rule: RGB
    low_text: RGB
    bad: tuple[RGB, RGB]
    good: tuple[RGB, RGB]
    info: tuple[RGB, RGB]


@dataclass(frozen=True)
class TableStyle:
    regular: str
    bold: str
    size: float
    row_h: float
    header_h: float
    pad_x: float = 16
    grid: Grid = "ruled"
    header_upper: bool = False
    header_bold: bool = True
    header_shaded: bool = True
    header_size: float | None = None
    numbers_right: bool = True
    badges: bool = True
    highlight_low: bool = False


@dataclass(frozen=True)
class Chrome:
    """Sizes and fonts of everything around the table, in CSS pixels."""

    regular: str
    bold: str
    size: float = 14
    sidebar_w: float = 232
    topbar_h: float = 56
    margin: float = 32
    title_size: float = 24


@dataclass(frozen=True)
class PageText:
    brand: str
    nav: tuple[str, ...]
    active: int
    search: str
    user: str
    breadcrumb: tuple[str, ...]
    title: str
    subtitle: str
    actions: tuple[str, ...]
    chips: tuple[str, ...]
    footer: str
    pager: tuple[str, ...]
    menu: tuple[str, ...] = ()
    toolbar: tuple[str, ...] = ()
    fields: tuple[tuple[str, str], ...] = ()
    status: tuple[str, ...] = ()


@dataclass(frozen=True)
class Column:
    header: str
    field: Field


@dataclass(frozen=True)
class Formats(seed.Formats):
    """The samples' formats: dates without the time of day."""

    date: str = "%Y-%m-%d"


@dataclass(frozen=True)
class Generic:
    """A grid whose headers match nothing of the stock schema."""

    header: tuple[str, ...]
    cells: tuple[tuple[str, ...], ...]
    right: tuple[int, ...] = ()
    badge: int | None = None


@dataclass(frozen=True)
class Photo:
    """A phone photo of the monitor showing the page."""

    size: tuple[int, int]
    quad: tuple[tuple[float, float], ...]
    angle: float
    blur: float
    noise: float
    quality: int


@dataclass(frozen=True)
class Spec:
    file: str
    kind: str
    description: str
    notes: str
    layout: Layout
    view: tuple[int, int]
    theme: Theme
    table: TableStyle
    chrome: Chrome
    page: PageText
    capture: Capture
    seed: int
    scale: float = 1.0
    columns: tuple[Column, ...] = ()
    rows: tuple[Shown, ...] = ()
    generic: Generic | None = None
    formats: Formats = field(default_factory=Formats)
    page_warehouse: str | None = None
    jpeg_quality: int | None = None
    photo: Photo | None = None
    ink: RGB | None = None
