"""Screenshots become attachments the model reads and may pass on as `@name`."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pipeline.host.context import Attachment
from pipeline.models import IngestResult

__all__ = ["attachment_name", "from_ingest"]

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


def from_ingest(results: Sequence[IngestResult]) -> list[Attachment]:
    taken: set[str] = set()
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
            )
        )
    return attachments
