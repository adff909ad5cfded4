"""How an `Ingestor` reads: its limits, the zone screenshots are taken in, its strategy."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import tzinfo


@dataclass(frozen=True)
class IngestConfig:
    max_bytes: int
    max_pixels: int
    tz: tzinfo
    strategy: str = "auto"
    vision_max_pixels: int = 1920 * 1080
    text_share: float | None = 0.3
    """Most of the full-page image's tokens a `table_ocr` text may cost: beyond it the page
    context, a warehouse column shared by every row and the product names are left out, in
    that order (`fit_budget`); None sends everything."""
