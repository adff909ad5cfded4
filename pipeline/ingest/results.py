"""What an analysis reports beside its table: warnings, the model's text, the image payload."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from pipeline.ingest.cache import Entry
from pipeline.ingest.config import IngestConfig
from pipeline.models import Table, TextLine
from pipeline.screentext import TextBox, render_screen
from pipeline.table import (
    MappedRows,
    fit_budget,
    screen_text,
)
from pipeline.tiers import image_tokens

if TYPE_CHECKING:
    # Only a fresh reading meets images; a cached result's text needs none of them.
    from pipeline.imaging import LoadedImage, Normalised, Quad
    from pipeline.ingest.attempts import Attempt
    from pipeline.pixels import Rgb


def zone_note(at: datetime, source: str, config: IngestConfig) -> list[str]:
    """A capture time stored without a zone (PNG text, a file name, EXIF without an offset) is
    the local time of the machine that took the screenshot; say which zone it was read in."""
    if source not in ("exif", "png-text", "filename") or at.tzinfo is not config.tz:
        return []
    zone = getattr(config.tz, "key", None) or at.tzname() or str(config.tz)
    return [
        f"capture time has no zone: read as {zone} local time (STOCKSHOT_TIMEZONE sets the "
        "zone screenshots are taken in; unset, this machine's own zone)"
    ]


def escalated(image_attempt: Attempt, best: Attempt | None) -> Attempt:
    """The image rung's attempt, carrying the best earlier reading (its table, rows, layout and
    fine print) for the model to see beside the picture."""
    if best is None:
        return image_attempt
    return replace(best, rung=image_attempt.rung)


def _corners(quad: Quad) -> str:
    return ", ".join(f"({x:.0f},{y:.0f})" for x, y in quad.points)


def warnings_of(
    loaded: LoadedImage,
    norm: Normalised,
    attempts: Sequence[Attempt],
    chosen: Attempt,
    has_text: bool,
    taken: str | None = None,
) -> list[str]:
    """What the reading did to the image, each rung it passed and why, and (`taken`) why the
    reading it took was taken, where that took more than the first rung passing."""
    notes: list[str] = []
    if norm.quad is not None:
        why = "the outline found cuts the table" if norm.refused else "no frame found"
        how = (
            f"by the screen's own lines ({why}), content corners"
            if norm.quad.kind == "lines"
            else f"{norm.quad.kind} corners"
        )
        notes.append(f"photo rectified: {how} {_corners(norm.quad)}")
    if norm.refused is not None:
        kind = "content" if norm.refused.kind == "lines" else norm.refused.kind
        instead = "the screen's own lines used instead" if norm.quad else "deskewed only"
        notes.append(
            f"photo outline refused: the {kind} corners {_corners(norm.refused)} cut through "
            f"the table (its text goes on past them); {instead}"
        )
    if loaded.alpha_background:
        notes.append(f"transparent image flattened onto {loaded.alpha_background}")
    if norm.scale != 1.0:
        notes.append(f"downscaled by {norm.scale:.3g} to a working size")
    if norm.skew_deg:
        notes.append(f"deskewed by {norm.skew_deg:+.2f} degrees")
    for attempt in attempts:
        if attempt is not chosen and attempt.reasons:
            tier = f"{attempt.rung.strategy}/{attempt.rung.method}"
            notes.append(f"{tier} unsure: {'; '.join(attempt.reasons)}")
    if taken is not None:
        notes.append(taken)
    if chosen.reasons and chosen.rung.strategy != "full_page":
        notes.append(f"result unsure: {'; '.join(chosen.reasons)}")
    if chosen.rung.strategy == "full_page" and attempts:
        notes.append("escalated to full_page: the model reads the image itself")
    if chosen.table is not None and chosen.table.cells and not chosen.mapped.rows:
        notes.append("no inventory columns recognised: returned as a generic grid")
    if not (chosen.table and chosen.table.cells):
        notes.append(
            "no table found: the text carries the page's OCR lines in reading order"
            if has_text
            else "no table found and no readable text"
        )
    return notes


def payload(rgb: Rgb, max_pixels: int) -> tuple[str, int]:
    from PIL import Image

    from pipeline.imaging import to_payload

    payload = to_payload(Image.fromarray(rgb), max_pixels)
    return payload.url, image_tokens(payload.width, payload.height)


def model_text(
    entry: Entry,
    table: Table,
    mapped: MappedRows,
    captured_at: datetime,
    budget: int | None,
) -> tuple[str, list[str]]:
    """What the model reads for the chosen tier, stamped with this capture time, within
    `budget` tokens where leaving out context, a shared warehouse column or names gets there."""
    full_page = entry["strategy"] == "full_page"
    boxes = (
        [
            TextBox(box=line.box, text=line.text)
            for line in (TextLine.model_validate(a) for a in entry["annotations"])
        ]
        if entry["strategy"] == "ui_crop"
        else []
    )
    screen = screen_text(
        table if table.cells or not full_page else Table(),
        mapped,
        captured_at=captured_at,
        context=entry["context"],
        image_attached=full_page,
        unsure=full_page,
        boxes=boxes,
        lines=entry.get("lines", []),
    )
    left_out: list[str] = []
    if budget is not None:
        screen, left_out = fit_budget(screen, budget)
    return render_screen(screen), left_out


@contextmanager
def timed(timings: dict[str, float], label: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        timings[label] = round(timings.get(label, 0.0) + (time.perf_counter() - started) * 1000, 2)
