"""The screenshots behind runs, proposals and orders: what a run read, whether its picture is
still kept (in this process's memory, or on disk in the screens folder), and the links a person
follows from a write back to its screen."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pipeline.api.deps import AppServices
from pipeline.api.plain import Source
from pipeline.api.schemas import ScreenOut, SourceOut
from pipeline.errors import InputError
from pipeline.host import AttachmentInfo
from pipeline.models import IngestResult

__all__ = ["RECENT_RUNS", "kept_result", "run_screens", "screens_of", "source_out"]


async def kept_result(services: AppServices, ingest_id: str) -> IngestResult | None:
    """The ingest result of `ingest_id` while the server keeps it (None once it is gone)."""
    try:
        found = await services.job_queue().recent([ingest_id])
    except InputError:
        return None
    return found[0] if found else None


async def screens_of(
    services: AppServices, attachments: Sequence[AttachmentInfo]
) -> list[ScreenOut]:
    """Each screenshot a run read, with its picture's id, size and table box while kept."""
    screens = []
    shelf = services.shelf
    for attachment in attachments:
        result = (
            None if attachment.sha256 is None else await kept_result(services, attachment.sha256)
        )
        held = result is not None and result.source is not None
        screens.append(
            ScreenOut(
                name=attachment.name,
                ingest_id=attachment.sha256,
                captured_at=attachment.captured_at,
                kept=held or (attachment.sha256 is not None and attachment.sha256 in shelf),
                size=None if result is None else result.size,
                crop=None if result is None else result.crop,
            )
        )
    return screens


RECENT_RUNS = 500
"""How many of the latest runs a list of orders or proposals looks up screenshots in, with one
read of the history; a write of an older run links to its run, whose record names its screens."""


async def run_screens(
    services: AppServices, run_ids: Iterable[str | None]
) -> dict[str, list[AttachmentInfo]]:
    """The screenshots each of these runs read, by run id, for those among the latest
    `RECENT_RUNS` (one read of the history, however many runs are asked)."""
    wanted = {r for r in run_ids if r is not None}
    if not wanted:
        return {}
    records = await services.job_queue().history(limit=RECENT_RUNS)
    return {r.id: list(r.attachments) for r in records if r.id in wanted}


def source_out(source: Source, attachments: Sequence[AttachmentInfo]) -> SourceOut:
    """The source with the id of its screenshot's picture: the attachment of that name, or a
    run's only screenshot when the write names none."""
    named = [a for a in attachments if a.name == source.screen]
    chosen = named or (list(attachments) if len(attachments) == 1 else [])
    screen = chosen[0] if chosen else None
    return SourceOut(
        kind=source.kind,
        words=source.words,
        run_id=source.run_id,
        screen=source.screen or (screen.name if screen else None),
        ingest_id=screen.sha256 if screen else None,
    )
