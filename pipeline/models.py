"""Data shapes shared by every layer: what ingest returns and what engines produce."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

__all__ = [
    "CACHE_STATES",
    "CAPTURE_SOURCES",
    "STRATEGIES",
    "Box",
    "CacheState",
    "CaptureSource",
    "IngestResult",
    "Row",
    "Strategy",
    "Table",
    "TextLine",
    "Tokens",
]

Box = tuple[int, int, int, int]
"""An axis-aligned box `(x0, y0, x1, y1)` in pixels of the image it was found in."""

CaptureSource = Literal["caller", "exif", "png-text", "filename", "mtime", "upload"]
CAPTURE_SOURCES: tuple[CaptureSource, ...] = (
    "caller",
    "exif",
    "png-text",
    "filename",
    "mtime",
    "upload",
)
Strategy = Literal["table_ocr", "full_page", "ui_crop", "multi_image"]
STRATEGIES: tuple[Strategy, ...] = ("table_ocr", "full_page", "ui_crop", "multi_image")
CacheState = Literal["miss", "memory", "disk"]
CACHE_STATES: tuple[CacheState, ...] = ("miss", "memory", "disk")


class TextLine(BaseModel):
    """One piece of recognised text with where it was and how sure the engine is."""

    text: str
    box: Box
    confidence: float = Field(ge=0.0, le=1.0)


class Table(BaseModel):
    """A generic grid: whatever the screen's header said, and the cell texts row by row."""

    header: list[str] = Field(default_factory=list)
    cells: list[list[str]] = Field(default_factory=list)


class Row(BaseModel):
    """A table row mapped onto the inventory schema; a field the screen lacks is None."""

    sku: str | None = None
    name: str | None = None
    on_hand: int | None = None
    reorder_point: int | None = None
    warehouse_id: str | None = None
    confidence: float = Field(default=0.0, ge=0.0, le=1.0)

    @property
    def is_low(self) -> bool:
        return (
            self.on_hand is not None
            and self.reorder_point is not None
            and self.on_hand < self.reorder_point
        )


class Tokens(BaseModel):
    full_page_image: int = Field(description="estimated tokens if the whole page went as an image")
    sent: int = Field(description="tokens of what the chosen tier actually sends")


class IngestResult(BaseModel):
    """What `stockshot ingest --json` prints per image (DESIGN §1)."""

    file: str
    sha256: str
    captured_at: datetime
    captured_at_source: CaptureSource
    age_s: float
    strategy: Strategy
    engine: str
    cache: CacheState
    size: tuple[int, int]
    crop: Box | None
    table: Table
    rows: list[Row]
    text: str
    tokens: Tokens
    warnings: list[str] = Field(default_factory=list)
    timings_ms: dict[str, float] = Field(default_factory=dict)
    image: str | None = Field(
        default=None, description="data URL of the image a vision model gets (full_page, ui_crop)"
    )
