"""Tokens a model gets per tier beside the estimate for sending the whole page as an image."""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.bench.context import BenchContext
from pipeline.bench.images import BenchImage
from pipeline.ingest import Ingestor
from pipeline.models import IngestResult

__all__ = ["FORMULA", "TIERS", "TierTokens", "measure_tokens"]

TIERS = ("table_ocr", "ui_crop", "full_page")
FORMULA = (
    "Qwen2-VL-class vision encoder: 14 px patches merged 2x2, so one token per 28x28 pixels; "
    "each side of the (working-size) image rounded to a multiple of 28 (pixel count kept within "
    "56x56 .. 16384x28x28), tokens = (H/28)x(W/28) + 2 (vision start and end markers). Text is "
    "counted by the ingest's own estimate (`estimate_text_tokens`)."
)


@dataclass(frozen=True)
class TierTokens:
    image: str
    full_page_image: int
    sent: dict[str, int]
    strategy: dict[str, str]
    table_screen: bool


def measure_tokens(
    ctx: BenchContext, images: list[BenchImage], known: dict[str, IngestResult]
) -> list[TierTokens]:
    """Token counts are deterministic: one ingest per tier and image, untimed; `table_ocr`'s
    is the sweep's. A run that gives the peers a subset (a standard run) reads the other tiers
    of the headline image only; every image's `table_ocr` share is judged either way."""
    engine = ctx.engine("rapidocr")
    if engine is None:
        return []
    ingestor = Ingestor(engine, config=ctx.config(), cache=None)
    every = ctx.options.peer_images is None
    found = []
    for image in images:
        sent: dict[str, int] = {}
        strategy: dict[str, str] = {}
        full = 0
        tiers = TIERS if every or image.name == ctx.options.headline.name else TIERS[:1]
        for tier in tiers:
            result = known.get(image.name) if tier == "table_ocr" else None
            if result is None:
                result = ingestor.ingest_path(image.path, strategy=tier)
            sent[tier] = result.tokens.sent
            strategy[tier] = result.strategy
            full = result.tokens.full_page_image
        table = known.get(image.name)
        found.append(
            TierTokens(
                image=image.name,
                full_page_image=full,
                sent=sent,
                strategy=strategy,
                table_screen=bool(table is not None and table.rows),
            )
        )
    return found
