"""What a corpus entry is made of: the screen it is shown on, the rows, the capture time."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from screengen.capture import Capture
from screengen.seed import Formats, Shown, StockField

__all__ = ["Capture", "Column", "Formats", "Photo", "Screen", "Shown", "Spec"]

Design = Literal["adminlte", "antd", "sheet", "dark", "grid", "report"]
Field = Literal[
    StockField,
    "on_order",
    "status",
    "supplier",
    "price",
    "updated",
    "category",
    "action",
]
Bezel = Literal["dark", "silver", "none"]
Mount = Literal["monitor", "laptop"]


@dataclass(frozen=True)
class Screen:
    """A display `width` x `height` pixels at device pixel ratio `dpr`, the page at browser
    zoom `zoom`. The browser lays the page out in a viewport of the screen size divided by
    `dpr * zoom` CSS pixels, as a desktop browser does."""

    width: int
    height: int
    dpr: int
    zoom: float

    @property
    def scale(self) -> float:
        return self.dpr * self.zoom

    @property
    def viewport(self) -> tuple[int, int]:
        w, h = round(self.width / self.scale), round(self.height / self.scale)
        if abs(w * self.scale - self.width) > 1e-6 or abs(h * self.scale - self.height) > 1e-6:
            raise ValueError(f"{self}: the screen is not a whole number of CSS pixels")
        return w, h


@dataclass(frozen=True)
class Column:
    header: str
    field: Field


@dataclass(frozen=True)
class Spec:
    """One browser render of an inventory page."""

    file: str
    design: Design
    description: str
    notes: str
    screen: Screen
    capture: Capture
    columns: tuple[Column, ...]
    rows: tuple[Shown, ...]
    title: str
    page_warehouse: str | None = None
    formats: Formats = field(default_factory=Formats)
    font: str | None = None
    """The text font family where the design offers a choice (a key of `fonts.FAMILIES`)."""
    first_row: int = 2
    """Spreadsheet row number of the first data row (rows above it scrolled under the header)."""
    header_groups: tuple[tuple[str | None, int], ...] = ()
    """A header row above the column headers: (text, columns spanned); no text leaves that
    many columns with a single header cell spanning both rows."""


@dataclass(frozen=True)
class Photo:
    """A phone photo of a monitor showing the render `source`.

    The screen is a rectangle tilted by `pitch` and `yaw` degrees in front of a pinhole camera
    (keystone) and turned by `roll` degrees in the image; it spans `fill` of the photo's width.
    """

    file: str
    source: str
    description: str
    size: tuple[int, int]
    fill: float
    pitch: float
    yaw: float
    roll: float
    shift: tuple[float, float]
    blur: float
    noise: float
    moire: float
    glare: float
    quality: int
    capture: Capture
    bezel: Bezel = "dark"
    """The frame around the screen: a dark or a light silver bezel, or none (the screen fills
    the photo, which may cut off its edges; the table must stay in the photo)."""
    mount: Mount = "monitor"
    """A monitor on a stand, or a laptop with its keyboard deck below the screen."""
