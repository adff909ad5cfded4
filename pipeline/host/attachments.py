"""Screenshots become attachments the model reads and may pass on as `@name`.

Several screenshots of inventory pages (this morning's and this afternoon's, page 1 and page 2)
become one merged table (`pipeline.table.merge`): the newest capture of a SKU and warehouse
wins, each row keeps its own capture time and what changed. A model reads one table, not N."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Literal, get_args

from PIL import Image

from pipeline.host.context import Attachment, Picture
from pipeline.imaging import load_image
from pipeline.models import IngestResult
from pipeline.table import merge_results

__all__ = [
    "MERGED_NAME",
    "MERGE_MODES",
    "MergeMode",
    "attachment_name",
    "from_ingest",
    "mergeable",
    "picture_of",
]

MERGED_NAME = "merged-screens"

MergeMode = Literal["auto", "always", "never"]
MERGE_MODES: tuple[str, ...] = get_args(MergeMode)

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def attachment_name(file: str, taken: set[str]) -> str:
    """A short, safe, unique reference name from a file name."""
    base = file.replace("\\", "/").rsplit("/", 1)[-1]
    name = _UNSAFE.sub("-", base).strip("-.") or "screenshot"
    candidate, n = name, 2
    while candidate in taken:
        candidate = f"{name}-{n}"
        n += 1
    taken.add(candidate)
    return candidate


def mergeable(results: Sequence[IngestResult]) -> bool:
    """Two or more inventory tables whose every row names its warehouse: then merging by SKU
    and warehouse cannot fold two warehouses' rows into one."""
    return len(results) > 1 and all(
        r.rows and all(row.sku and row.warehouse_id for row in r.rows) for r in results
    )


def from_ingest(results: Sequence[IngestResult], merge: MergeMode = "auto") -> list[Attachment]:
    """One attachment per screenshot, or (`merge="auto"` when `mergeable`, `"always"` for
    every result with rows) one merged table for the inventory screenshots plus the rest.

    Each attachment keeps the screenshots it was read from as `pictures` (a merged table one
    per source screenshot, named like the attachments would be), decoded from the result's
    `source` bytes only when the model asks to see one; a result without bytes gives none."""
    tables = [r for r in results if r.rows]
    if len(tables) > 1 and (merge == "always" or (merge == "auto" and mergeable(tables))):
        rest = [r for r in results if not r.rows]
        taken = {MERGED_NAME}
        return [_merged(tables, taken), *_each(rest, taken)]
    return _each(results, set())


def picture_of(result: IngestResult, name: str) -> Picture | None:
    """The screenshot of `result` under `name`, or None when the result holds no bytes."""
    data = result.source
    if data is None:
        return None
    width, height = result.size
    return Picture(name, (width, height), functools.cache(functools.partial(_decode, data, result)))


def _decode(data: bytes, result: IngestResult) -> Image.Image:
    """The bytes ingest already accepted, decoded again (no OCR): upright, RGB, flattened."""
    width, height = result.size
    loaded = load_image(
        data, name=result.file, max_bytes=len(data), max_pixels=max(1, width * height)
    )
    return loaded.image


def _pictures(results: Sequence[IngestResult], names: Sequence[str]) -> tuple[Picture, ...]:
    found = (picture_of(r, n) for r, n in zip(results, names, strict=True))
    return tuple(p for p in found if p is not None)


def _merged(tables: Sequence[IngestResult], taken: set[str]) -> Attachment:
    view = merge_results(tables)
    names = [attachment_name(r.file, taken) for r in tables]
    files = ", ".join(c.file.replace("\\", "/").rsplit("/", 1)[-1] for c in view.captures)
    return Attachment(
        name=MERGED_NAME,
        content=view.text,
        description=f"one table merged from {len(view.captures)} screenshots ({files}), "
        f"{len(view.rows)} rows, the newest capture of each SKU and warehouse",
        # The oldest capture stands for the whole table: a row only an older screenshot
        # shows is never judged fresher than it is.
        captured_at=min(c.captured_at for c in view.captures),
        sha256=None,
        skus=frozenset(r.sku for r in view.rows),
        pictures=_pictures(tables, names),
    )


def _each(results: Sequence[IngestResult], taken: set[str]) -> list[Attachment]:
    attachments = []
    for result in results:
        name = attachment_name(result.file, taken)
        if result.rows:
            what = f"the table read from {name} ({len(result.rows)} rows, {result.strategy})"
        elif result.image:
            what = f"the screenshot {name} as an image ({result.strategy})"
        else:
            rows = len(result.table.cells)
            what = f"the grid read from {name} ({rows} rows, no inventory columns)"
        attachments.append(
            Attachment(
                name=name,
                content=result.text,
                description=what,
                captured_at=result.captured_at,
                images=(result.image,) if result.image and result.strategy == "full_page" else (),
                sha256=result.sha256,
                skus=frozenset(r.sku for r in result.rows if r.sku),
                pictures=_pictures([result], [name]),
            )
        )
    return attachments
